import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { CONTENT_TOOLS } from "./content-tools.ts";
import { DIAGNOSTIC_TOOLS } from "./diagnostic-tools.ts";
import { INTERACTION_TOOLS } from "./interaction-tools.ts";
import { MRTR_TOOLS } from "./mrtr-tools.ts";
import { PROMPT_HANDLERS } from "./prompts.ts";
import { RESOURCE_HANDLERS } from "./resources.ts";
import { TASK_TOOLS } from "./task-tools.ts";

/** A correct server exposing the fixtures the official conformance suites expect; it injects no faults. */
export default defineScenario({
  id: "conformance",
  title: "Conformance fixtures",
  summary:
    "No faults: a correct MCP server with the tools, resources and prompts the official conformance suites call (test_simple_text, test_sampling, test_input_required_result_*, test://static-text, test_simple_prompt, ...). Point `conformance server --url` at the session's MCP URL. The one stream that closes early is test_reconnection's on the 2025 wire, which is SSE polling as SEP-1699 describes it, resumed by GET with Last-Event-ID.",
  layer: "application",
  params: z.object({}),
  // Nothing to fault; test_reconnection's cut (below) is part of the fixture, and its resumption is still judged, as
  // is the polling of a client of the task fixtures (SEP-2663).
  judging: {
    checks: ["stream-resumed", "stream-retry-honoured", "task-poll-interval-honoured", "task-polled-to-terminal", "task-not-polled-after-cancel", "task-mcp-name-sent", "task-polling-bounded", "task-input-key-answered-once", "task-resumed-after-restart"],
    exercisedBy: "control",
  },
  example: {},
  tools: () => [...CONTENT_TOOLS, ...INTERACTION_TOOLS, ...MRTR_TOOLS, ...DIAGNOSTIC_TOOLS, ...TASK_TOOLS],
  handlers: () => ({ ...RESOURCE_HANDLERS, ...PROMPT_HANDLERS }),
  // 2025-11-25 SSE polling (SEP-1699): the server MAY close the connection after a priming event id and retry;
  // the client resumes with GET and Last-Event-ID. Only test_reconnection does so, and only on the 2025 wire.
  decide: ({ request }) =>
    request.era === "legacy" && request.toolName === "test_reconnection"
      ? { fault: { kind: "cut_stream", priming: true, retryMs: 200 }, reason: "test_reconnection polls: priming event, then the stream closes before the result (SEP-1699)" }
      : undefined,
});
