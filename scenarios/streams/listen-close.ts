import { z } from "zod";
import type { Decision, FaultInput } from "../../src/faults/schema.ts";
import { FaultSchema } from "../../src/faults/schema.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";

const VARIANTS = ["graceful", "drop", "empty", "conflict_409", "reconnect_5xx", "resume_cut_before_id", "resume_cut_after_id", "empty_id"] as const;
type Variant = (typeof VARIANTS)[number];

interface Plan {
  variant: Variant;
  streams: number;
  refusals: number;
  retryMs: number;
}

const stream = (plan: Plan, fault: Omit<Extract<FaultInput, { kind: "listen_stream" }>, "kind">): FaultInput => ({
  kind: "listen_stream",
  ...fault,
  ...(fault.priming && plan.retryMs > 0 ? { retryMs: plan.retryMs } : {}),
});

/** The first stream of every variant that resumes: a priming id, one event with an id, then the cut. */
const first = (plan: Plan, close: "graceful" | "drop", events: ("with_id" | "empty_id")[] = ["with_id"]) => stream(plan, { priming: true, events, close });

/** What the nth standalone GET of the session gets, or undefined once the variant's script is over (405). */
function planFor(plan: Plan, n: number): { fault: FaultInput; why: string } | undefined {
  switch (plan.variant) {
    case "graceful":
    case "drop":
      return n <= plan.streams ? { fault: first(plan, plan.variant === "drop" ? "drop" : "graceful"), why: `stream ${n} of ${plan.streams}, ended ${plan.variant === "drop" ? "by a drop" : "gracefully"}` } : undefined;
    case "empty":
      return n <= plan.streams ? { fault: stream(plan, { close: "graceful" }), why: `stream ${n} of ${plan.streams}: no event at all` } : undefined;
    case "conflict_409":
    case "reconnect_5xx": {
      const status = plan.variant === "conflict_409" ? 409 : 503;
      if (n === 1) return { fault: first(plan, "drop"), why: "the first stream, dropped after one event" };
      if (n <= plan.refusals + 1) return { fault: { kind: "http_status", status, body: "jsonrpc" }, why: `reconnect ${n - 1} of ${plan.refusals} refused with ${status}` };
      return n === plan.refusals + 2 ? { fault: stream(plan, { events: ["with_id"], close: "graceful" }), why: "the refusals are over: a stream again" } : undefined;
    }
    case "resume_cut_before_id":
    case "resume_cut_after_id": {
      if (n === 1) return { fault: first(plan, "drop"), why: "the first stream, dropped after one event with an id" };
      const before = plan.variant === "resume_cut_before_id";
      if (n === 2) return { fault: stream(plan, { events: [before ? "without_id" : "with_id"], close: "drop" }), why: `the resumed stream, dropped again ${before ? "before any event with an id" : "after an event with a new id"}` };
      return n === 3 ? { fault: stream(plan, { events: ["with_id"], close: "graceful" }), why: "the second resumption, ended gracefully" } : undefined;
    }
    case "empty_id":
      if (n === 1) return { fault: first(plan, "graceful", ["with_id", "empty_id"]), why: "an event with an id, then one with an empty id: line, which resets the last event id" };
      return n === 2 ? { fault: stream(plan, { events: ["with_id"], close: "graceful" }), why: "the reconnect after the empty id" } : undefined;
  }
}

/**
 * 2026-07-28: what the nth subscriptions/listen gets, or undefined (a listen served as usual). The era has no GET
 * stream, no event ids and no resumption, and a client may hold many subscriptions, so only graceful, drop, empty
 * and reconnect_5xx exist there.
 */
function planListen(plan: Plan, n: number): { fault: FaultInput; why: string } | undefined {
  const ack = { kind: "listen_stream" as const, events: ["with_id" as const] };
  switch (plan.variant) {
    case "graceful":
      return n <= plan.streams ? { fault: { ...ack, answer: true }, why: `listen ${n} of ${plan.streams}: acknowledged, then closed with its complete result` } : undefined;
    case "drop":
      return n <= plan.streams ? { fault: { ...ack, close: "drop" }, why: `listen ${n} of ${plan.streams}: acknowledged, then dropped with no result` } : undefined;
    case "empty":
      return n <= plan.streams ? { fault: { kind: "listen_stream" }, why: `listen ${n} of ${plan.streams}: no event at all` } : undefined;
    case "reconnect_5xx":
      if (n === 1) return { fault: { ...ack, close: "drop" }, why: "the first listen, acknowledged, then dropped" };
      if (n <= plan.refusals + 1) return { fault: { kind: "http_status", status: 503, body: "jsonrpc" }, why: `reconnect ${n - 1} of ${plan.refusals} refused with 503` };
      return n === plan.refusals + 2 ? { fault: { ...ack, answer: true }, why: "the refusals are over: a listen again, closed gracefully" } : undefined;
    default:
      return undefined;
  }
}

export default defineScenario({
  id: "streams.listen_close",
  title: "Standalone GET stream closes",
  summary:
    "Legacy eras: the standalone GET stream (2025-11-25 \"Listening for Messages from the Server\") ends the way `variant` says, and the client's reconnects are judged: graceful (a priming id, retry:, one event, then the end), drop (the same, then the body is aborted), empty (no event at all), conflict_409 and reconnect_5xx (the first stream is dropped, then `refusals` reconnects get 409 or 503), resume_cut_before_id and resume_cut_after_id (the resumed stream is cut again, before or after an event with a new id), empty_id (an event whose `id:` is empty, which resets the last event id). Once a variant's streams are over, GET gets 405, so a run ends. 2026-07-28 has no GET stream (GET gets 405): there the subscriptions/listen stream is the one that ends, for graceful (acknowledged, then its complete result), drop (acknowledged, then aborted with no result), empty and reconnect_5xx; the other variants do not exist in that era. Other POSTs are answered normally.",
  layer: "transport",
  params: z.object({
    variant: z.enum(VARIANTS).default("graceful").describe("How the stream ends, and what the reconnects meet"),
    streams: z.number().int().min(1).max(20).default(3).describe("graceful, drop, empty: how many GET streams are served before GET gets 405"),
    refusals: z.number().int().min(1).max(20).default(3).describe("conflict_409, reconnect_5xx: how many reconnects are refused"),
    retryMs: z.number().int().min(0).max(60_000).default(500).describe("The retry: field of the streams that prime (0: none, so the client's own backoff is judged)"),
  }),
  judging: {
    checks: ["stream-reconnect-bounded", "stream-reconnect-backoff", "stream-resumed-latest-id"],
    cannotTell:
      "which events the client read: it has what Faultline sent on each stream, so a client that left before an event counts as having received it; and whether a client that sent nothing more is waiting or has closed (a client that opens no stream is not judged)",
  },
  // A short retry, so a client that connects and makes a few calls reconnects before it closes.
  example: { variant: "drop", retryMs: 100 },
  decide: ({ params, request, counters }): Decision | undefined => {
    if (request.era !== "modern" || request.method !== "subscriptions/listen") return undefined;
    const planned = planListen(params, counters.method);
    return planned ? { fault: FaultSchema.parse(planned.fault), reason: `${params.variant}: ${planned.why}` } : undefined;
  },
  decideGet: ({ params, count }): Decision | undefined => {
    const planned = planFor(params, count("standalone-get"));
    return planned ? { fault: FaultSchema.parse(planned.fault), reason: `${params.variant}: ${planned.why}` } : undefined;
  },
});
