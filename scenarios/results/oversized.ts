import { z } from "zod";
import { OVERSIZED_MAX_BLOCKS, OVERSIZED_MAX_BYTES } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { select, SelectionShape } from "../../src/scenario-kit/select.ts";

const Params = z.object({
  ...SelectionShape,
  variant: z.enum(["text_mb", "many_blocks", "large_image"]).default("text_mb").describe("text_mb: a text block of `bytes` characters; many_blocks: `blocks` content blocks; large_image: a PNG image block of `bytes` base64 characters"),
  tool: z.string().min(1).max(200).optional().describe("Only tools/call of this tool, e.g. place_order (side-effecting) or echo (read-only); default: every selected call"),
  bytes: z.number().int().min(1024).max(OVERSIZED_MAX_BYTES).default(2 * 1024 * 1024).describe("text_mb and large_image: the added block's size in characters (1 KiB to 8 MiB; default 2 MiB)"),
  blocks: z.number().int().min(2).max(OVERSIZED_MAX_BLOCKS).default(5_000).describe("many_blocks: how many content blocks the result carries (2 to 20,000; default 5,000)"),
});

export default defineScenario({
  id: "results.oversized",
  title: "Oversized tool result",
  summary:
    "Selected calls (tools/call by default, or only those of `tool`) run, and their result grows after the tool's own content: a text block of `bytes` characters (text_mb, 2 MiB by default), `blocks` content blocks (many_blocks, 5,000), or a PNG image block of `bytes` base64 characters (large_image). The result stays valid; bad-answer-handled judges what the client did next (a blind resend of place_order, which ran, fails).",
  layer: "application",
  params: Params,
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"], cannotTell: "whether the client kept the whole result, cut it, or passed megabytes on to its model" },
  example: { variant: "text_mb", tool: "echo", bytes: 2 * 1024 * 1024 },
  decide: ({ params, request, counters }) => {
    if (params.tool !== undefined && request.toolName !== params.tool) return undefined;
    const reason = select(params, request, counters);
    if (reason === undefined) return undefined;
    return { fault: { kind: "oversized", variant: params.variant, bytes: params.bytes, blocks: params.blocks }, reason: `${reason}; ${params.variant}` };
  },
});
