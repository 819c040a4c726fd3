import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { BASE_TOOLS } from "../../src/mcp/base-tools.ts";
import type { ToolDefinition } from "../../src/mcp/tool.ts";
import { select, SelectionShape } from "../../src/scenario-kit/select.ts";

const VARIANTS = { mismatch: "structured_mismatch", missing: "structured_missing", error_with_structured: "error_with_structured" } as const;

/** What each tool's structuredContent conforms to, declared as its outputSchema (2025-06-18 and later). */
const OUTPUT_SCHEMAS: Record<"echo" | "place_order", Record<string, unknown>> = {
  echo: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  place_order: {
    type: "object",
    properties: { orderNumber: { type: "integer", minimum: 1 }, item: { type: "string" }, quantity: { type: "integer", minimum: 1 } },
    required: ["orderNumber", "item", "quantity"],
    additionalProperties: false,
  },
};

/** echo and place_order as the base serves them, each with an outputSchema, and echo with the structuredContent it promises. */
function structuredTools(): ToolDefinition[] {
  return BASE_TOOLS.filter((t) => t.name === "echo" || t.name === "place_order").map((tool) => {
    const outputSchema = OUTPUT_SCHEMAS[tool.name as keyof typeof OUTPUT_SCHEMAS];
    if (tool.name !== "echo") return { ...tool, outputSchema };
    return { ...tool, outputSchema, run: async (args) => ({ content: [{ type: "text", text: String(args.text) }], structuredContent: { text: String(args.text) } }) };
  });
}

const Params = z.object({
  ...SelectionShape,
  variant: z.enum(["mismatch", "missing", "error_with_structured"]).default("mismatch").describe("mismatch: structuredContent that does not conform to the outputSchema; missing: no structuredContent; error_with_structured: isError: true with a non-conforming error object as structuredContent"),
  tool: z.enum(["place_order", "echo"]).default("place_order").describe("The tool whose calls are spoiled: place_order (side-effecting, not idempotent) or echo (read-only)"),
});

export default defineScenario({
  id: "results.structured_mismatch",
  title: "structuredContent against the outputSchema",
  summary:
    "echo and place_order declare an outputSchema (and echo returns structuredContent). Selected calls of `tool` run, then their result is spoiled by `variant`: structuredContent that does not conform (mismatch), none at all (missing), or isError: true with a non-conforming error object as structuredContent (error_with_structured). The classifier reports the first two as STRUCTURED_CONTENT_MISMATCH / STRUCTURED_CONTENT_MISSING, the third as a warning. The checks judge what the client did next: a blind resend of place_order, which ran, fails; after the isError result, changed arguments, another tool or giving up pass, an identical repeat warns for echo and fails for place_order.",
  layer: "protocol",
  params: Params,
  tools: () => structuredTools(),
  judging: {
    checks: ["bad-answer-handled", "non-idempotent-not-replayed", "tool-error-next-step"],
    cannotTell: "whether the client validated structuredContent itself or passed the bad structure on to its model",
  },
  example: { variant: "mismatch", tool: "place_order" },
  decide: ({ params, request, counters }) => {
    if (request.toolName !== params.tool) return undefined;
    const reason = select(params, request, counters);
    if (reason === undefined) return undefined;
    return { fault: { kind: "bad_result", variant: VARIANTS[params.variant] }, reason: `${reason}; ${params.variant} on ${params.tool}` };
  },
});
