import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { ErrorCode, RpcError } from "../../src/wire/jsonrpc.ts";

const FACET = {
  resources: { method: "resources/list", key: "resources", item: (i: number) => ({ uri: `test://resource/${i}`, name: `resource_${i}`, mimeType: "text/plain" }) },
  prompts: { method: "prompts/list", key: "prompts", item: (i: number) => ({ name: `prompt_${i}`, description: `Test prompt ${i}` }) },
} as const;

const ParamsSchema = z.object({
  totalItems: z.number().int().min(0).max(10_000).default(10).describe("Items in the list"),
  pageSize: z.number().int().min(1).max(1_000).default(3).describe("Items per page"),
  facet: z.enum(["resources", "prompts"]).default("resources").describe("Which list is paginated"),
  fault: z.enum(["none", "cursor_loop", "duplicate_page", "error_after_page_n"]).default("none").describe("The pagination fault"),
  faultAtPage: z.number().int().min(1).default(2).describe("error_after_page_n: the first page that fails"),
});
type Params = z.infer<typeof ParamsSchema>;

/** Page `page` (0 = the first) of the list, as the fault shapes it. */
function listPage(params: Params, page: number): Record<string, unknown> {
  const { item, key } = FACET[params.facet];
  if (page * params.pageSize >= params.totalItems) return { [key]: [] };
  // duplicate_page: every page after the first repeats the first, and says it is the last.
  const start = params.fault === "duplicate_page" ? 0 : page * params.pageSize;
  const end = Math.min(start + params.pageSize, params.totalItems);
  const items = Array.from({ length: Math.max(0, end - start) }, (_, i) => item(start + i));
  const next = params.fault === "cursor_loop" ? "loop" : params.fault === "duplicate_page" ? (page === 0 && end < params.totalItems ? "page-1" : undefined) : end < params.totalItems ? `page-${page + 1}` : undefined;
  return { [key]: items, ...(next === undefined ? {} : { nextCursor: next }) };
}

export default defineScenario({
  id: "catalog.pagination",
  title: "Catalog: pagination",
  summary:
    "resources/list (or prompts/list, facet) answers totalItems synthetic items pageSize at a time, nextCursor page-<n>. As in MCP Test Kitchen, the page is the count of list calls, not the cursor: the nth call gets page n whatever cursor it sends. fault cursor_loop: nextCursor is always \"loop\"; duplicate_page: later pages repeat the first and end the list; error_after_page_n: from call faultAtPage on, JSON-RPC -32603 \"Internal error after page\". Past the end: an empty page with no nextCursor.",
  layer: "protocol",
  params: ParamsSchema,
  judging: {
    // error_after_page_n refuses a cursor with -32603, which cursor-not-looped judges as it does a -32602.
    checks: ["cursor-not-looped"],
    exercisedBy: "answers",
    cannotTell: "whether the client noticed a duplicate_page, which ends the list, or a cursor_loop, whose repeated cursor still brings new items (it shows only how far the client walked)",
  },
  example: { totalItems: 7, pageSize: 2, facet: "prompts", fault: "error_after_page_n", faultAtPage: 3 },
  handlers: (params) => ({
    [FACET[params.facet].method]: async (_request, ctx) => {
      const page = ctx.count("catalog-pages") - 1;
      if (params.fault === "error_after_page_n" && page + 1 >= params.faultAtPage) throw new RpcError(ErrorCode.InternalError, "Internal error after page");
      return listPage(params, page);
    },
  }),
});
