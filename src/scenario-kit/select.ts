import { z } from "zod";
import type { Fault } from "../faults/schema.ts";
import type { Counters, DecideInput, Judging, Layer, RequestFacts, Scenario } from "../mcp/scenario.ts";

/** Params that pick the requests a fault applies to; a scenario may override any of them by name. */
export const SelectionShape = {
  methods: z
    .array(z.string().min(1))
    .min(1)
    .default(["tools/call"])
    .describe('JSON-RPC methods affected; "*" matches every request (not notifications). The default leaves initialize and tools/list working'),
  nth: z.number().int().min(1).optional().describe("Only the nth matching request (1 = the first); wins over every"),
  every: z.number().int().min(1).optional().describe("Only every kth matching request: k, 2k, 3k, ..."),
  times: z.number().int().min(1).optional().describe("At most this many requests get the fault; later ones are answered normally"),
};

const SelectionObject = z.object(SelectionShape);
export type Selection = z.infer<typeof SelectionObject>;

/**
 * Counts a request whose method matches and says whether the fault applies to it: the reason for the
 * journal, or undefined. Requests of other methods are not counted.
 */
export function select(selection: Selection, request: RequestFacts, counters: Counters): string | undefined {
  const method = request.method;
  if (method === undefined) return undefined;
  if (!selection.methods.includes(method) && !(selection.methods.includes("*") && request.kind === "request")) return undefined;
  const n = counters.count("matching");
  const { nth, every, times } = selection;
  // Which fault this would be (1 = the first), or 0 when the request is not picked.
  const ordinal = nth !== undefined ? Number(n === nth) : every !== undefined ? (n % every === 0 ? n / every : 0) : n;
  if (ordinal === 0 || (times !== undefined && ordinal > times)) return undefined;
  const why = nth !== undefined ? `nth=${nth}` : every !== undefined ? `every=${every}` : "every match";
  return `${method} is matching request #${n} (${why}${times !== undefined ? `, fault ${ordinal} of ${times}` : ""})`;
}

type Params<Extra extends z.core.$ZodLooseShape> = z.infer<ReturnType<typeof SelectionObject.extend<Extra>>>;

/**
 * A scenario whose params are the selection plus its own, and whose decide() applies `fault` to the selected
 * requests. `fault` may still return undefined (e.g. for an era where the fault means nothing).
 */
export function selectiveScenario<Extra extends z.core.$ZodLooseShape>(definition: {
  id: string;
  title: string;
  summary: string;
  layer: Layer;
  params: Extra;
  example: Record<string, unknown>;
  judging: Judging;
  fault: (input: DecideInput<Params<Extra>>) => Fault | undefined;
}): Scenario {
  const { fault, params, ...rest } = definition;
  const scenario: Scenario<Params<Extra>> = {
    ...rest,
    params: SelectionObject.extend(params),
    decide: (input) => {
      // Extra may override a selection field, but only with one of the same type.
      const reason = select(input.params as Selection, input.request, input.counters);
      if (reason === undefined) return undefined;
      const chosen = fault(input);
      return chosen && { fault: chosen, reason };
    },
  };
  return scenario as unknown as Scenario;
}
