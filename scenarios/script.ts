import { z } from "zod";
import { CHECK_IDS, type CheckId } from "../src/mcp/check-ids.ts";
import { defineScenario, type RequestFacts } from "../src/mcp/scenario.ts";
import { FaultSchema } from "../src/faults/schema.ts";

const MatchSchema = z
  .strictObject({
    method: z.string().min(1).optional().describe("JSON-RPC method, e.g. tools/call"),
    tool: z.string().min(1).optional().describe("Tool name (implies tools/call)"),
    nth: z.number().int().min(1).optional().describe("Only the nth request matching method/tool"),
    from: z.number().int().min(1).optional().describe("The nth matching request and every later one"),
    every: z.number().int().min(1).optional().describe("Every kth matching request"),
    probability: z.number().min(0).max(1).optional().describe("Chance that a matching request is hit, drawn deterministically"),
    seed: z.number().int().min(0).max(0xffff_ffff).optional().describe("PRNG seed for probability (default: the rule's index)"),
  })
  .refine((m) => [m.nth, m.from, m.every].filter((v) => v !== undefined).length <= 1, { message: "use at most one of nth, from and every" });
type Match = z.infer<typeof MatchSchema>;

const RuleSchema = z.strictObject({
  match: MatchSchema.default({}).describe("Which requests the rule hits; {} hits every one"),
  fault: FaultSchema,
});

/**
 * Draw number n of mulberry32 seeded with `seed`, computed directly: its state after n steps is
 * seed + n * 0x6d2b79f5. A number in [0, 1), the same for the same (seed, n).
 */
function draw(seed: number, n: number): number {
  let t = (seed + Math.imul(n, 0x6d2b79f5)) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

const filterKey = (m: Match) => `${m.method ?? (m.tool ? "tools/call" : "*")}|${m.tool ?? "*"}`;

function filterMatches(m: Match, request: RequestFacts): boolean {
  return (!m.method || m.method === request.method) && (!m.tool || m.tool === request.toolName);
}

function clauseMatches(m: Match, n: number, seed: number): boolean {
  const counted = m.nth !== undefined ? n === m.nth : m.from !== undefined ? n >= m.from : m.every !== undefined ? n % m.every === 0 : true;
  return counted && (m.probability === undefined || draw(m.seed ?? seed, n) < m.probability);
}

const ALL_FAULT_CHECKS = Object.keys(CHECK_IDS) as CheckId[];

export default defineScenario({
  id: "script",
  title: "Script",
  summary:
    "An ordered list of rules {match: {method?, tool?, nth? | from? | every?, probability?, seed?}, fault}; the first rule that matches a request decides its fault, and a request no rule matches succeeds. n counts the requests matching a rule's method/tool (every request for {}), whichever rule won them: nth hits only the nth, from the nth and later, every each kth. probability draws from mulberry32(seed) at n, so runs repeat exactly. Each fault is any fault kind Faultline performs, checked by the same schema.",
  layer: "application",
  params: z.object({
    rules: z.array(RuleSchema).max(100).default([]).describe("Rules, first match wins"),
  }),
  // Any fault kind: every check that judges a fault's handling may apply, as the rules choose.
  judging: { checks: ALL_FAULT_CHECKS, cannotTell: "in advance which checks apply: that depends on the rules' faults" },
  example: {
    rules: [
      { match: { method: "tools/call", nth: 1 }, fault: { kind: "http_status", status: 503, retryAfter: 1, body: "empty" } },
      { match: { method: "tools/call", nth: 2 }, fault: { kind: "http_status", status: 503, retryAfter: 1, body: "empty" } },
      { match: { method: "tools/call", nth: 3 }, fault: { kind: "tool_error", text: "Upstream still warming up" } },
    ],
  },
  decide: ({ params, request, counters }) => {
    // Every filter that matches is counted once per request, even when an earlier rule wins, so "nth" means
    // the nth such request whatever the other rules did.
    const counts = new Map<string, number>();
    let winner: { index: number; n: number } | undefined;
    params.rules.forEach((rule, index) => {
      if (!filterMatches(rule.match, request)) return;
      const key = filterKey(rule.match);
      const n = counts.get(key) ?? counters.count(`script:${key}`);
      counts.set(key, n);
      if (!winner && clauseMatches(rule.match, n, index)) winner = { index, n };
    });
    if (!winner) return undefined;
    const rule = params.rules[winner.index];
    if (!rule) return undefined;
    return { fault: rule.fault, reason: `rules.${winner.index}: ${filterKey(rule.match)} #${winner.n}` };
  },
});
