import { z } from "zod";
import { defineScenario } from "../src/mcp/scenario.ts";

export default defineScenario({
  id: "baseline",
  title: "Baseline",
  summary: "A correct MCP server: every call succeeds, after an optional delay.",
  layer: "application",
  params: z.object({
    delayMs: z.number().int().min(0).max(60_000).default(0).describe("Wait this long before answering each request"),
  }),
  example: { delayMs: 250 },
  decide: ({ params }) => (params.delayMs > 0 ? { fault: { kind: "delay", ms: params.delayMs }, reason: `delayMs=${params.delayMs}` } : undefined),
});
