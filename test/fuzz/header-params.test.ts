import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// Scenario params that become header values are checked at session creation: a 400 naming the field, never a 500
// when the fault is performed, never raw UTF-8 in a header.

const server = useServer();
type Json = Record<string, any>;

async function create(scenario: string, params: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario, params }) });
  return { status: res.status, body: (await res.json()) as Json };
}

const refused: [string, Record<string, unknown>, string][] = [
  ["errors.http_status_sequence", { retryAfter: "1\r\nX-Injected: yes" }, "params.retryAfter"],
  ["errors.http_status_sequence", { retryAfter: "Tue, 01 Dec 2026 \u00e9" }, "params.retryAfter"],
  ["errors.http_status_sequence", { retryAfter: " 1" }, "params.retryAfter"],
  ["auth.unauthorized", { scope: "r\u00e9ad" }, "params.scope"],
  ["auth.unauthorized", { scope: 'read" error="x' }, "params.scope"],
  ["auth.token_expiry", { scope: "a\nb" }, "params.scope"],
  ["auth.insufficient_scope", { scope: "orders:write\u0000" }, "params.scope"],
  ["script", { rules: [{ fault: { kind: "rate_limited", retryAfter: "2\nX: y" } }] }, "params.rules"],
  ["timeouts.slow_drip", { chunkBytes: 1, intervalMs: 60_000 }, "params.intervalMs"],
];

for (const [scenario, params, field] of refused) {
  test(`${scenario} with ${JSON.stringify(params)} is refused at creation with 400 naming ${field}`, async () => {
    const { status, body } = await create(scenario, params);
    assert.equal(status, 400, JSON.stringify(body));
    assert.ok(body.error.issues.some((i: Json) => i.path.startsWith(field)), JSON.stringify(body.error.issues));
    assert.match(body.error.message, new RegExp(field.replace(".", "\\.")));
  });
}

test("header-safe values are still accepted and sent as they are", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503], retryAfter: "Tue, 01 Dec 2026 10:00:00 GMT" });
  const res = await postModern(session.mcpUrl, 1, "tools/call", { name: "echo", arguments: { text: "x" } });
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("retry-after"), "Tue, 01 Dec 2026 10:00:00 GMT");
  await res.text();
  const auth = await createSession(server, "auth.unauthorized", { scope: "files:read files:write" });
  const challenge = await postModern(auth.mcpUrl, 1, "tools/call", { name: "echo", arguments: { text: "x" } });
  assert.equal(challenge.status, 401);
  assert.match(challenge.headers.get("www-authenticate") ?? "", /scope="files:read files:write"/);
  await challenge.text();
});
