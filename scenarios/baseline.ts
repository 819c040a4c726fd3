import { z } from "zod";
import { defineScenario } from "../src/mcp/scenario.ts";

export default defineScenario({
  id: "baseline",
  title: "Baseline",
  summary: "A correct MCP server: every call succeeds, after an optional delay (delayMs for every request, slowReportDelayMs for run_configured_test_scenario's report, as MCP Test Kitchen's baseline).",
  layer: "application",
  params: z.object({
    delayMs: z.number().int().min(0).max(60_000).default(0).describe("Wait this long before answering each request"),
    slowReportDelayMs: z.number().int().min(0).max(60_000).default(0).describe("MCP Test Kitchen: wait this long (on top of delayMs) before a run_configured_test_scenario call answers"),
  }),
  judging: { checks: [], exercisedBy: "control" },
  example: { delayMs: 250 },
  decide: ({ params, request }) => {
    // A record stored before slowReportDelayMs existed lacks it: records are not parsed again.
    const report = request.toolName === "run_configured_test_scenario" ? (params.slowReportDelayMs ?? 0) : 0;
    const ms = params.delayMs + report;
    if (ms === 0) return undefined;
    return { fault: { kind: "delay", ms }, reason: report > 0 ? `delayMs=${params.delayMs} + slowReportDelayMs=${report}` : `delayMs=${params.delayMs}` };
  },
});
