import { test } from "node:test";
import assert from "node:assert/strict";
import { importClient } from "./served-modules.ts";

// The timeline's retry gaps carry the journal's reading of where the retry came from (entry.retryOrigin).

const { layoutTimeline } = await importClient<{
  layoutTimeline: (entries: unknown[]) => { gaps: { from: number; to: number; origin?: string }[] };
}>("timeline-layout.client.js");

const t0 = Date.parse("2026-11-30T10:00:00.000Z");
function entry(seq: number, atMs: number, outcome: string, extra: Record<string, unknown> = {}) {
  return {
    seq,
    time: new Date(t0 + atMs).toISOString(),
    durationMs: 5,
    request: { method: "POST" },
    response: { status: outcome === "HTTP_ERROR" ? 503 : 200 },
    rpc: { method: "tools/call", toolName: "place_order" },
    verdict: { outcome },
    ...extra,
  };
}

test("a retry gap names a same-id retry as a possible transport resend and a new-id retry as a possible application request", () => {
  const layout = layoutTimeline([
    entry(1, 0, "HTTP_ERROR"),
    entry(2, 300, "HTTP_ERROR", { retryOf: 1, retryOrigin: "transport" }),
    entry(3, 900, "TOOL_SUCCESS", { retryOf: 2, retryOrigin: "application" }),
  ]);
  assert.deepEqual(layout.gaps.map((g) => [g.from, g.to]), [[1, 2], [2, 3]]);
  assert.match(layout.gaps[0]?.origin ?? "", /^same JSON-RPC id: .*transport\?$/);
  assert.match(layout.gaps[1]?.origin ?? "", /^new JSON-RPC id: .*application\?$/);
});

test("a gap has no origin note when the journal linked the retry to another attempt, or to none (older entries)", () => {
  const layout = layoutTimeline([
    entry(1, 0, "HTTP_ERROR"),
    entry(2, 300, "HTTP_ERROR", { retryOf: 7, retryOrigin: "transport" }),
    entry(3, 900, "TOOL_SUCCESS"),
  ]);
  assert.deepEqual(layout.gaps.map((g) => g.origin), [undefined, undefined]);
});
