import { z } from "zod";
import { text, type ToolDefinition } from "../../src/mcp/tool.ts";
import { READ_ONLY } from "./content-tools.ts";
import { ask } from "./mrtr-tools.ts";

const CHANGES = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** test_trigger_{tools→tool,prompts→prompt}_change: announces a list change on the session's listen streams. */
function listChangeTrigger(list: "tools" | "prompts"): ToolDefinition {
  const noun = list.slice(0, -1);
  return {
    name: `test_trigger_${noun}_change`,
    description: `Announces notifications/${list}/list_changed on this session's open subscriptions/listen streams that asked for ${list}ListChanged.`,
    args: z.object({}),
    annotations: CHANGES,
    run: async (_args, ctx) => {
      ctx.listChanged(list);
      return text(`Announced a ${noun} list change.`);
    },
  };
}

/** Hooks the 2026-07-28 server-stateless scenario (SEP-2575) uses to exercise one requirement each. */
export const DIAGNOSTIC_TOOLS: readonly ToolDefinition[] = [
  {
    name: "test_missing_capability",
    description: "Needs the client's sampling capability: 2026-07-28 calls whose _meta does not declare it get HTTP 400 with -32021.",
    args: z.object({}),
    annotations: READ_ONLY,
    needs: ["sampling"],
    run: async () => text("The client declared sampling, so this tool may run."),
  },
  {
    name: "test_streaming_elicitation",
    description: "Answers on an SSE stream: a progress notification when asked for, then an input_required result (never a server-to-client request on the stream).",
    args: z.object({}),
    annotations: READ_ONLY,
    asksForInput: true,
    streams: true,
    run: async (_args, ctx) => {
      ctx.progress(0, 1, "waiting for the user");
      const answer = await ctx.elicit("user_name", ask("What is your name?", "name"));
      ctx.progress(1, 1);
      return text(`Elicitation ${answer.action}.`);
    },
  },
  {
    name: "test_logging_tool",
    description: "Logs at info and debug on an SSE stream; 2026-07-28 sends them only when the request's _meta names a logLevel.",
    args: z.object({}),
    annotations: READ_ONLY,
    streams: true,
    run: async (_args, ctx) => {
      ctx.log("info", "test_logging_tool ran", "conformance");
      ctx.log("debug", { detail: "debug-level detail" }, "conformance");
      return text("Logged at info and debug (delivered only when the request asked for them).");
    },
  },
  {
    name: "test_custom_header",
    description: "Echoes its region argument, which 2026-07-28 clients mirror in the Mcp-Param-Region header (x-mcp-header, SEP-2243).",
    args: z.object({ region: z.string() }),
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", description: "A region name", "x-mcp-header": "Region" } },
      required: ["region"],
    },
    annotations: READ_ONLY,
    run: async (args) => text(`Region: ${String(args.region)}`),
  },
  listChangeTrigger("tools"),
  listChangeTrigger("prompts"),
];
