import { test } from "node:test";
import assert from "node:assert/strict";
import { authChecks, MAX_AUTH_ATTEMPTS } from "../../src/checks/auth.ts";
import { timeline } from "../../src/checks/exchange.ts";
import type { GrantEvent } from "../../src/oauth/records.ts";
import { entry, T0 } from "../checks/entries.ts";

// The auth checks over hand-built journals and token-endpoint events: each reading, and each way it can go wrong.
const expired = (seq: number, at: number) =>
  entry({ seq, at, method: "tools/list", status: 401, responseHeaders: { "www-authenticate": 'Bearer error="invalid_token", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"' }, error: { code: -32600, message: "Unauthorized" } });
const forbidden = (seq: number, at: number) =>
  entry({ seq, at, params: { name: "place_order" }, status: 403, responseHeaders: { "www-authenticate": 'Bearer error="insufficient_scope", scope="faultline:read faultline:write"' }, error: { code: -32600, message: "Forbidden" } });
const ok = (seq: number, at: number) => entry({ seq, at, method: "tools/list", result: { tools: [] } });
const grant = (at: number, grantType: string, scope = "faultline:read", outcome = "issued"): GrantEvent => ({ at: T0 + at, grantType, scope, outcome });
const judge = (entries: ReturnType<typeof entry>[], grants: GrantEvent[] | undefined, id: string) => authChecks(timeline(entries), grants).find((c) => c.id === id);

test("auth-refreshed-on-expiry: a refresh passes, a new authorization warns, nothing fails", () => {
  const journal = [expired(1, 10), ok(2, 100)];
  // The token that expired was issued before the 401.
  const issued = grant(0, "authorization_code");
  assert.equal(judge(journal, [issued, grant(50, "refresh_token")], "auth-refreshed-on-expiry")?.status, "pass");
  assert.equal(judge(journal, [issued, grant(50, "authorization_code")], "auth-refreshed-on-expiry")?.status, "warning");
  assert.equal(judge([expired(1, 10)], [issued], "auth-refreshed-on-expiry")?.status, "fail");
  assert.equal(judge(journal, [issued, grant(50, "refresh_token", "", "invalid_grant")], "auth-refreshed-on-expiry")?.status, "fail");
});

test("auth-step-up-scope: a new authorization with the named scope passes; a refresh or a narrower one fails", () => {
  const journal = [forbidden(1, 0), ok(2, 100)];
  assert.equal(judge(journal, [grant(50, "authorization_code", "faultline:read faultline:write")], "auth-step-up-scope")?.status, "pass");
  const refreshed = judge(journal, [grant(50, "refresh_token", "faultline:read")], "auth-step-up-scope");
  assert.equal(refreshed?.status, "fail");
  assert.match(refreshed!.message, /a refresh cannot add scope/);
  assert.equal(judge(journal, [grant(50, "authorization_code", "faultline:read")], "auth-step-up-scope")?.status, "fail");
});

test("auth-bounded-attempts: a few refusals in a row pass; more than MAX_AUTH_ATTEMPTS fail", () => {
  const run = (n: number) => Array.from({ length: n }, (_, i) => expired(i + 1, i * 10));
  assert.equal(judge(run(MAX_AUTH_ATTEMPTS), [], "auth-bounded-attempts")?.status, "pass");
  assert.equal(judge(run(MAX_AUTH_ATTEMPTS + 1), [], "auth-bounded-attempts")?.status, "fail");
  // A success between refusals ends a run.
  assert.equal(judge([...run(3), ok(10, 500), expired(11, 600), expired(12, 700)], [], "auth-bounded-attempts")?.status, "pass");
});

test("without an authorization server (grants undefined) only the loop is judged", () => {
  const checks = authChecks(timeline([expired(1, 0), forbidden(2, 10)]), undefined);
  assert.deepEqual(checks.map((c) => c.id), ["auth-bounded-attempts"]);
});
