import { test } from "node:test";
import assert from "node:assert/strict";
import { CheckSchema, runChecks } from "../../src/checks/index.ts";
import { clientKey, retryOrigin } from "../../src/journal/retry-origin.ts";
import { call } from "./entries.ts";

const CLIENT = clientKey({ name: "c", version: "1" });
const ORDER = { item: "widget", quantity: 1 };

test("a retry with the same session, clientInfo and JSON-RPC id reads as the transport sending the message again", () => {
  assert.equal(retryOrigin({ id: 7, session: "s", client: CLIENT }, { id: 7, session: "s", client: CLIENT }), "transport");
});

test("a retry with the same session and clientInfo but a new JSON-RPC id reads as the application's new request", () => {
  assert.equal(retryOrigin({ id: 7, session: "s", client: CLIENT }, { id: 8, session: "s", client: CLIENT }), "application");
});

test("a retry on another session, by another clientInfo, or with no clientInfo or id known is unknown", () => {
  const earlier = { id: 7, session: "s", client: CLIENT };
  assert.equal(retryOrigin(earlier, { ...earlier, session: "t" }), "unknown");
  assert.equal(retryOrigin(earlier, { ...earlier, client: clientKey({ name: "other", version: "1" }) }), "unknown");
  assert.equal(retryOrigin({ id: 7, session: "s" }, { id: 7, session: "s" }), "unknown");
  assert.equal(retryOrigin({ ...earlier, id: null }, { ...earlier, id: null }), "unknown");
});

test("stateless 2026-07-28 requests (no session on either side) are read by clientInfo and id", () => {
  assert.equal(retryOrigin({ id: "a", client: CLIENT }, { id: "a", client: CLIENT }), "transport");
  assert.equal(retryOrigin({ id: "a", client: CLIENT }, { id: "a", session: "s", client: CLIENT }), "unknown");
});

test("clientInfo is compared canonically, so member order does not matter", () => {
  assert.equal(clientKey({ version: "1", name: "c" }), CLIENT);
});

const info = { name: "c", version: "1" };

test("the retry checks report every retry they found with its origin, and the shape stays CheckSchema", async () => {
  const entries = [
    call(1, 0, "echo", { text: "hi" }, { status: 503, id: 1, clientInfo: info }),
    call(2, 300, "echo", { text: "hi" }, { status: 503, id: 1, clientInfo: info }),
    call(3, 900, "echo", { text: "hi" }, { id: 9, clientInfo: info }),
  ];
  for (const id of ["http-retry-backoff", "http-retry-bounded"]) {
    const check = (await runChecks(entries)).find((c) => c.id === id);
    assert.ok(check, id);
    CheckSchema.parse(check);
    assert.deepEqual(check.retries?.map((r) => [r.seq, r.retryOf, r.retryOrigin]), [[2, 1, "transport"], [3, 2, "application"]], id);
    assert.match(check.retries?.[0]?.reading ?? "", /same message sent again/);
  }
});

test("non-idempotent-not-replayed reports the resend's origin; a different session reads as unknown", async () => {
  const entries = [
    call(1, 0, "place_order", ORDER, { status: 503, headers: { "mcp-session-id": "s1" }, clientInfo: info, effects: "none" }),
    call(2, 500, "place_order", ORDER, { headers: { "mcp-session-id": "s2" }, clientInfo: info }),
  ];
  const check = (await runChecks(entries)).find((c) => c.id === "non-idempotent-not-replayed");
  assert.deepEqual(check?.retries?.map((r) => [r.seq, r.retryOf, r.retryOrigin]), [[2, 1, "unknown"]]);
});

test("checks that found no retry carry no retries member", async () => {
  const check = (await runChecks([call(1, 0, "echo", { text: "hi" }, { status: 503 })])).find((c) => c.id === "http-retry-backoff");
  assert.equal(check?.status, "info");
  assert.equal("retries" in (check ?? {}), false);
});
