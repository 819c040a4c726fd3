import { test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import { journalOf } from "../helpers/journal.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// A client that gives up on a stalled call (its own timeout: it aborts the fetch), on the real server, judged by
// GET /api/sessions/{id}/checks in both eras: timeout-client-bounded, timeout-cancelled, and the resend after it.

const server = useServer();
const ORDER = { name: "place_order", arguments: { item: "widget", quantity: 1 } };
/** The first place_order hangs (keep-alive comments, no answer) far longer than the test; the resend is answered. */
const HANG = { ms: 60_000, keepAliveMs: 20, nth: 1 };

/** Reads two chunks of a stalled stream (the keep-alives), then aborts: the client's own timeout. */
async function giveUp(pending: Promise<Response>, controller: AbortController): Promise<void> {
  const res = await pending;
  assert.equal(res.status, 200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => undefined);
}

async function checksOf(sessionId: string, entries: number): Promise<Check[]> {
  await journalOf(server.url, sessionId, entries);
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

function statusOf(checks: Check[], id: string): string {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks, null, 1)}`);
  return found.status;
}

test("a 2026-07-28 client that aborts a call that never completes passes timeout-client-bounded and timeout-cancelled (closing the stream is the cancellation)", async () => {
  const { id, mcpUrl } = await createSession(server, "timeouts.never_complete", HANG);
  const controller = new AbortController();
  await giveUp(postModern(mcpUrl, 1, "tools/call", ORDER, { signal: controller.signal }), controller);
  const checks = await checksOf(id, 1);
  assert.equal(statusOf(checks, "timeout-client-bounded"), "pass");
  assert.equal(statusOf(checks, "timeout-cancelled"), "pass");
  assert.match(checks.find((c) => c.id === "timeout-cancelled")!.message, /in 2026-07-28 closing the stream is the cancellation/);
});

test("a 2026-07-28 client that resends place_order after giving up passes non-idempotent-not-replayed: the hang never ran the tool", async () => {
  const { id, mcpUrl } = await createSession(server, "timeouts.never_complete", HANG);
  const controller = new AbortController();
  await giveUp(postModern(mcpUrl, 1, "tools/call", ORDER, { signal: controller.signal }), controller);
  await journalOf(server.url, id, 1);
  assert.equal((await postModern(mcpUrl, 2, "tools/call", ORDER)).status, 200);
  const checks = await checksOf(id, 2);
  assert.equal(statusOf(checks, "non-idempotent-not-replayed"), "pass");
  assert.match(checks.find((c) => c.id === "non-idempotent-not-replayed")!.message, /after no answer \(the client closed the stream \d+ ms in\).*the tool never ran the first time/);
});

test("a 2026-07-28 client that gives up on a slow drip and resends place_order fails non-idempotent-not-replayed: the drip's tool had run", async () => {
  const { id, mcpUrl } = await createSession(server, "timeouts.slow_drip", { chunkBytes: 8, intervalMs: 40, nth: 1 });
  const controller = new AbortController();
  await giveUp(postModern(mcpUrl, 1, "tools/call", ORDER, { signal: controller.signal }), controller);
  await journalOf(server.url, id, 1);
  await (await postModern(mcpUrl, 2, "tools/call", ORDER)).text();
  const checks = await checksOf(id, 2);
  assert.equal(statusOf(checks, "timeout-client-bounded"), "pass");
  assert.equal(statusOf(checks, "non-idempotent-not-replayed"), "fail");
  assert.match(checks.find((c) => c.id === "non-idempotent-not-replayed")!.message, /the first attempt ran the tool/);
});

for (const [version, cancels, expected] of [
  ["2025-11-25", true, "pass"],
  ["2025-11-25", false, "warning"],
  ["2025-06-18", false, "warning"],
] as const) {
  test(`a ${version} client that aborts a call that never completes ${cancels ? "and sends" : "without sending"} notifications/cancelled gets timeout-cancelled ${expected}`, async () => {
    const { id, mcpUrl } = await createSession(server, "timeouts.never_complete", HANG);
    const { sessionId, post } = await legacySession(mcpUrl, version);
    const controller = new AbortController();
    const pending = fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": version },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: ORDER }),
      signal: controller.signal,
    });
    await giveUp(pending, controller);
    if (cancels) assert.equal((await post({ method: "notifications/cancelled", params: { requestId: 5, reason: "timed out" } })).status, 202);
    // initialize, notifications/initialized, the call, and the cancellation.
    const checks = await checksOf(id, cancels ? 4 : 3);
    assert.equal(statusOf(checks, "timeout-client-bounded"), "pass");
    assert.equal(statusOf(checks, "timeout-cancelled"), expected);
  });
}
