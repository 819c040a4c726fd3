import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, runChecks } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, cutCall, type EntryInput, initialize, resumeGet } from "./entries.ts";

// Every pair of checks that judges one episode (a failed attempt at place_order, then the same call once more) must
// agree on the resend: no check may condemn the resend itself while another accepts it as a resend it was right to
// make (or judges only how it was made, which presumes it was allowed).

const ORDER = { item: "widget", quantity: 1 };
const DEAD = "dead0000000000000000000000000001";
const FRESH = "fresh000000000000000000000000002";
const legacy = (sessionId: string): Partial<EntryInput> => ({ legacy: true, headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } });
const placed = { result: { content: [{ type: "text", text: "Order #2 placed" }] } };

interface Episode {
  name: string;
  entries: (waitMs: number) => JournalEntry[];
  /** What non-idempotent-not-replayed must say: the tool may have run the first time only where it fails. */
  replay: Check["status"];
}

const EPISODES: Episode[] = [
  {
    name: "an expired legacy session (404), a new initialize, and place_order once more",
    entries: (wait) => [
      call(1, 0, "place_order", ORDER, { ...legacy(DEAD), status: 404, error: { code: -32600, message: "Session not found" }, effects: "none" }),
      initialize(2, wait, { newSessionId: FRESH }),
      call(3, wait + 20, "place_order", ORDER, { ...legacy(FRESH), ...placed, effects: "ran" }),
    ],
    replay: "pass",
  },
  {
    name: "a 503 without Retry-After, then place_order once more",
    entries: (wait) => [
      call(1, 0, "place_order", ORDER, { status: 503, effects: "none" }),
      call(2, wait, "place_order", ORDER, { ...placed, effects: "ran" }),
    ],
    replay: "pass",
  },
  {
    name: "a 429 with Retry-After: 1, then place_order once more",
    entries: (wait) => [
      call(1, 0, "place_order", ORDER, { status: 429, responseHeaders: { "retry-after": "1" }, effects: "none" }),
      call(2, wait * 10, "place_order", ORDER, { ...placed, effects: "ran" }),
    ],
    replay: "pass",
  },
  {
    name: "a JSON-RPC error answered before the handler, then place_order once more",
    entries: (wait) => [
      call(1, 0, "place_order", ORDER, { error: { code: -32603, message: "Internal error" }, effects: "none" }),
      call(2, wait, "place_order", ORDER, { ...placed, effects: "ran" }),
    ],
    replay: "pass",
  },
  {
    name: "a stream cut after the tool ran, then place_order once more",
    entries: (wait) => [
      call(1, 0, "place_order", ORDER, { sse: true, cut: true, effects: "ran" }),
      call(2, wait, "place_order", ORDER, { ...placed, effects: "ran" }),
    ],
    replay: "fail",
  },
  {
    // mcp-remote does this: the answer came on the resumed stream, so the next place_order is a new order.
    name: "a stream cut after the tool ran, resumed with GET and Last-Event-ID that delivered the answer, then place_order once more",
    entries: (wait) => [
      cutCall(1, 0, "place_order", "id: e-1\nretry: 10\ndata: \n\n", ORDER, { effects: "ran" }),
      resumeGet(2, 15, "e-1", true, { tool: "place_order", result: placed.result }),
      call(3, wait + 20, "place_order", ORDER, { ...placed, effects: "ran" }),
    ],
    replay: "info",
  },
  {
    name: "a tool error (isError), then place_order once more",
    entries: (wait) => [
      call(1, 0, "place_order", ORDER, { result: { content: [{ type: "text", text: "Payment declined" }], isError: true }, effects: "possible" }),
      call(2, wait, "place_order", ORDER, { ...placed, effects: "ran" }),
    ],
    replay: "fail",
  },
];

/** The check condemns the resend itself: it should not have been sent. */
const condemns = (c: Check) => c.id === "non-idempotent-not-replayed" && c.status === "fail";
/** The check accepts the resend: it passes it, or judges only its timing or count (which presumes it was allowed). */
const accepts = (c: Check) => c.id.startsWith("http-retry-") || (c.status === "pass" && ["non-idempotent-not-replayed", "session-reinitialized"].includes(c.id));

function contradictions(checks: readonly Check[]): string[] {
  const found: string[] = [];
  for (const a of checks) {
    for (const b of checks) {
      if (a === b || !condemns(a) || !accepts(b)) continue;
      const shared = a.evidence.filter((seq) => b.evidence.includes(seq));
      if (shared.length > 0) found.push(`${a.id} ${a.status} and ${b.id} ${b.status} on seq ${shared.join(", ")}: ${a.message} / ${b.message}`);
    }
  }
  return found;
}

for (const episode of EPISODES) {
  for (const wait of [20, 500]) {
    test(`no two checks contradict each other on ${episode.name} (resent after ${wait} ms)`, async () => {
      const checks = await runChecks(episode.entries(wait));
      assert.ok(checks.length >= 1, "the episode is judged");
      assert.deepEqual(contradictions(checks), []);
    });
  }
  test(`non-idempotent-not-replayed says ${episode.replay} on ${episode.name}`, async () => {
    const replay = (await runChecks(episode.entries(500))).find((c) => c.id === "non-idempotent-not-replayed");
    assert.equal(replay?.status, episode.replay, replay?.message);
  });
}

test("an expired session's resend passes both session-reinitialized and non-idempotent-not-replayed", async () => {
  const checks = await runChecks(EPISODES[0]!.entries(50));
  assert.equal(checks.find((c) => c.id === "session-reinitialized")?.status, "pass");
  const replay = checks.find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "pass");
  assert.match(replay?.message ?? "", /not a risky replay, since the tool never ran the first time/);
});

test("the contradiction finder flags a check that condemns a resend another one accepts", () => {
  const condemned: Check = { id: "non-idempotent-not-replayed", status: "fail", message: "replay", evidence: [1, 2] };
  const accepted: Check = { id: "session-reinitialized", status: "pass", message: "reinit", evidence: [1, 3, 4] };
  assert.equal(contradictions([condemned, accepted]).length, 1);
  assert.deepEqual(contradictions([condemned, { ...accepted, evidence: [3, 4] }]), []);
});

test("a resend after an entry journalled before `effects` existed is judged as before: a blind replay", async () => {
  const old = call(1, 0, "place_order", ORDER, { status: 503 });
  const checks = await runChecks([old, call(2, 500, "place_order", ORDER, placed)]);
  const replay = checks.find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail");
  assert.match(replay?.message ?? "", /the journal does not say whether the first attempt ran the tool/);
});

test("a place_order after a cut stream whose answer came on the resumed GET is judged a second call, naming the GET", async () => {
  const replay = (await runChecks(EPISODES.find((e) => e.name.includes("resumed with GET"))!.entries(500))).find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.message, "place_order was called again with the same arguments 502 ms after it succeeded (answered on the resumed stream, seq 2): a second, presumably deliberate, call.");
  assert.deepEqual(replay?.evidence, [1, 3]);
});
