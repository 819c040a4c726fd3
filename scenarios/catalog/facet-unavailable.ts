import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { ErrorCode } from "../../src/wire/jsonrpc.ts";

/** Each catalogue facet and the list method that fails when it is unavailable. */
const FACET_METHOD = { resources: "resources/list", prompts: "prompts/list" } as const;

export default defineScenario({
  id: "catalog.facet_unavailable",
  title: "Catalog: facet unavailable",
  summary:
    "resources/list (facet resources) and prompts/list (facet prompts) get HTTP 200 with JSON-RPC -32601 Method not found for each facet listed in unavailableFacets, as from a server that has no such facet; everything else is answered normally. (MCP Test Kitchen's catalog.facet_unavailable.)",
  layer: "protocol",
  params: z.object({
    unavailableFacets: z
      .array(z.enum(["resources", "prompts"]))
      .min(1)
      .default(["resources"])
      .describe("Facets whose list method answers -32601"),
  }),
  judging: { checks: ["method-not-found-not-repeated"] },
  example: { unavailableFacets: ["resources", "prompts"] },
  decide: ({ params, request }) => {
    const facet = params.unavailableFacets.find((f) => FACET_METHOD[f] === request.method);
    if (facet === undefined || request.kind !== "request") return undefined;
    return {
      fault: { kind: "jsonrpc_error", code: ErrorCode.MethodNotFound, message: "Method not found", httpStatus: 200 },
      reason: `${request.method}: facet ${facet} is unavailable`,
    };
  },
});
