import { test } from "node:test";
import assert from "node:assert/strict";
import { type Check, runChecks } from "../../src/checks/index.ts";
import { sessionExpiredResponse } from "../../src/faults/session-expired.ts";
import { SessionExpiredVariantSchema, type SessionExpiredVariant } from "../../src/faults/schema.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, entry, type EntryInput, initialize } from "./entries.ts";

// session-reinitialized over each answer session.expire_after can give (the bytes come from the fault itself), and
// non-idempotent-not-replayed over a call whose session ended under it.

const DEAD = "dead0000000000000000000000000001";
const FRESH = "fresh000000000000000000000000002";
const ORDER = { id: "A-1" };
const legacyHeaders = (sessionId: string) => ({ "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });

/** What the fault answers for `variant`, as entry() takes it. */
async function answerOf(variant: SessionExpiredVariant, requestId: number): Promise<Partial<EntryInput>> {
  const response = sessionExpiredResponse(variant, requestId);
  return { status: response.status, body: await response.text(), responseHeaders: Object.fromEntries(response.headers) };
}

async function expired(seq: number, at: number, variant: SessionExpiredVariant, rest: Partial<EntryInput> = {}): Promise<JournalEntry> {
  return call(seq, at, "place_order", ORDER, { legacy: true, headers: legacyHeaders(DEAD), effects: "none", ...(await answerOf(variant, seq)), ...rest });
}

const onFresh = (seq: number, at: number) => call(seq, at, "place_order", ORDER, { legacy: true, headers: legacyHeaders(FRESH), result: { content: [] }, effects: "ran" });

async function check(entries: JournalEntry[], id: string): Promise<Check | undefined> {
  const found = (await runChecks(entries)).filter((c) => c.id === id);
  assert.ok(found.length <= 1);
  return found[0];
}

const SOUND: SessionExpiredVariant[] = ["not_found", "not_found_32001", "bad_request_no_valid_session", "unauthorized_session_not_found", "gone", "html_page", "empty_body"];

test("every variant but conflict is a sound reading of a session gone, so the list above is the whole enum less one", () => {
  assert.deepEqual([...SOUND, "conflict"].sort(), [...SessionExpiredVariantSchema.options].sort());
});

for (const variant of SOUND) {
  test(`session-reinitialized passes a client that initializes again after the ${variant} answer`, async () => {
    const c = await check([await expired(1, 0, variant), initialize(2, 20, { newSessionId: FRESH }), onFresh(3, 40)], "session-reinitialized");
    assert.equal(c?.status, "pass", c?.message);
    assert.deepEqual(c?.evidence, [1, 2, 3]);
  });

  test(`session-reinitialized fails a client that keeps the dead id after the ${variant} answer`, async () => {
    const c = await check([await expired(1, 0, variant), await expired(2, 20, variant)], "session-reinitialized");
    assert.equal(c?.status, "fail", c?.message);
    assert.match(c?.message ?? "", /kept sending the dead Mcp-Session-Id/);
  });
}

test("session-reinitialized names the answer it read: the 400 naming the session as unknown", async () => {
  const c = await check([await expired(1, 0, "bad_request_no_valid_session"), await expired(2, 20, "bad_request_no_valid_session")], "session-reinitialized");
  assert.match(c?.message ?? "", /^After the 400 naming the session as unknown to tools\/call place_order/);
});

test("session-reinitialized does not read a 409 as a session gone", async () => {
  assert.equal(await check([await expired(1, 0, "conflict"), await expired(2, 20, "conflict")], "session-reinitialized"), undefined);
});

test("session-reinitialized does not read a 401 with a Bearer challenge as a session gone, whatever its body says", async () => {
  const challenged = await expired(1, 0, "unauthorized_session_not_found", { responseHeaders: { "content-type": "application/json", "www-authenticate": 'Bearer resource_metadata="https://x.example/prm"' } });
  assert.equal(await check([challenged, await expired(2, 20, "unauthorized_session_not_found", { responseHeaders: challenged.response.headers })], "session-reinitialized"), undefined);
});

test("session-reinitialized does not read a 401 without a challenge whose body says nothing of the session", async () => {
  const plain = call(1, 0, "place_order", ORDER, { legacy: true, headers: legacyHeaders(DEAD), status: 401, error: { code: -32600, message: "Unauthorized" } });
  assert.equal(await check([plain], "session-reinitialized"), undefined);
});

test("session-reinitialized does not read a 400 for a missing Mcp-Session-Id as a session gone", async () => {
  const missing = call(1, 0, "place_order", ORDER, { legacy: true, headers: legacyHeaders(DEAD), status: 400, error: { code: -32600, message: "Bad Request: Mcp-Session-Id header is required (send initialize first)" } });
  assert.equal(await check([missing], "session-reinitialized"), undefined);
});

test("non-idempotent-not-replayed passes a call resent in the new session when the expiry answered before the tool ran", async () => {
  const c = await check([await expired(1, 0, "bad_request_no_valid_session"), initialize(2, 20, { newSessionId: FRESH }), onFresh(3, 40)], "non-idempotent-not-replayed");
  assert.equal(c?.status, "pass", c?.message);
  assert.match(c?.message ?? "", /the tool never ran the first time/);
});

test("non-idempotent-not-replayed fails a call resent blindly after re-initializing when the session ended under a call that ran", async () => {
  // The stream of the first call ended with no response (all sessions expired while it ran), and the tool had run.
  const cut = call(1, 0, "place_order", ORDER, { legacy: true, headers: legacyHeaders(DEAD), sse: true, cut: true, result: { content: [] }, effects: "ran" });
  const c = await check([cut, initialize(2, 20, { newSessionId: FRESH }), onFresh(3, 40)], "non-idempotent-not-replayed");
  assert.equal(c?.status, "fail", c?.message);
  assert.match(c?.message ?? "", /blind replay/);
});

test("the 2026-07-28 era has no sessions: a 410 to a modern request carrying an Mcp-Session-Id is not a session gone", async () => {
  const modern = entry({ seq: 1, at: 0, method: "tools/list", headers: { "mcp-session-id": DEAD }, ...(await answerOf("gone", 1)) });
  assert.equal(await check([modern], "session-reinitialized"), undefined);
});

test("session-reinitialized follows a client through re-initializes to the one whose id it used", async () => {
  const inits = Array.from({ length: 5 }, (_, i) => initialize(2 + i, 10 + i, { newSessionId: i === 4 ? FRESH : `other${i}` }));
  const found = await check([await expired(1, 0, "not_found"), ...inits, onFresh(7, 20)], "session-reinitialized");
  assert.equal(found?.status, "pass", found?.message);
  assert.deepEqual(found?.evidence, [1, 6, 7]);
});

test("session-reinitialized warns when the client initializes again and again (17 times) without using any new id", async () => {
  const inits = Array.from({ length: 18 }, (_, i) => initialize(2 + i, 10 + i, { newSessionId: `other${i}` }));
  const found = await check([await expired(1, 0, "not_found"), ...inits], "session-reinitialized");
  assert.equal(found?.status, "warning", found?.message);
  assert.match(found?.message ?? "", /initialized again more than 16 times in a row without using any new session id/);
});
