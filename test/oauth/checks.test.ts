import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_AUTH_ATTEMPTS } from "../../src/checks/auth.ts";
import { MAX_REFUSED_REFRESHES } from "../../src/checks/auth-refresh.ts";
import { checksOf, runChecks } from "../../src/checks/index.ts";
import { MAX_SERVER_RETRIES } from "../../src/checks/auth-server.ts";
import type { GrantEvent } from "../../src/oauth/records.ts";
import { entry, T0 } from "../checks/entries.ts";

// The auth checks, through the one composition of the checks (runChecks), over hand-built journals and token-endpoint
// events: each reading, and each way it can go wrong.
const expired = (seq: number, at: number) =>
  entry({ seq, at, method: "tools/list", status: 401, responseHeaders: { "www-authenticate": 'Bearer error="invalid_token", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"' }, error: { code: -32600, message: "Unauthorized" } });
const forbidden = (seq: number, at: number) =>
  entry({ seq, at, params: { name: "place_order" }, status: 403, responseHeaders: { "www-authenticate": 'Bearer error="insufficient_scope", scope="faultline:read faultline:write"' }, error: { code: -32600, message: "Forbidden" } });
const ok = (seq: number, at: number) => entry({ seq, at, method: "tools/list", result: { tools: [] } });
const grant = (at: number, grantType: string, scope = "faultline:read", outcome = "issued"): GrantEvent => ({ at: T0 + at, grantType, scope, outcome });
const judge = async (entries: ReturnType<typeof entry>[], grants: GrantEvent[] | undefined, id: string) =>
  (await runChecks(entries, grants ? { grantsSince: () => grants } : {})).find((c) => c.id === id);

test("auth-refreshed-on-expiry: a refresh passes, a new authorization warns, nothing fails", async () => {
  const journal = [expired(1, 10), ok(2, 100)];
  // The token that expired was issued before the 401.
  const issued = grant(0, "authorization_code");
  assert.equal((await judge(journal, [issued, grant(50, "refresh_token")], "auth-refreshed-on-expiry"))?.status, "pass");
  assert.equal((await judge(journal, [issued, grant(50, "authorization_code")], "auth-refreshed-on-expiry"))?.status, "warning");
  assert.equal((await judge([expired(1, 10)], [issued], "auth-refreshed-on-expiry"))?.status, "fail");
  assert.equal((await judge(journal, [issued, grant(50, "refresh_token", "", "invalid_grant")], "auth-refreshed-on-expiry"))?.status, "fail");
});

test("auth-step-up-scope: a new authorization with the named scope passes; a refresh or a narrower one fails", async () => {
  const journal = [forbidden(1, 0), ok(2, 100)];
  assert.equal((await judge(journal, [grant(50, "authorization_code", "faultline:read faultline:write")], "auth-step-up-scope"))?.status, "pass");
  const refreshed = await judge(journal, [grant(50, "refresh_token", "faultline:read")], "auth-step-up-scope");
  assert.equal(refreshed?.status, "fail");
  assert.match(refreshed!.message, /a refresh cannot add scope/);
  assert.equal((await judge(journal, [grant(50, "authorization_code", "faultline:read")], "auth-step-up-scope"))?.status, "fail");
});

test("auth-bounded-attempts: a few refusals in a row pass; more than MAX_AUTH_ATTEMPTS fail", async () => {
  const run = (n: number) => Array.from({ length: n }, (_, i) => expired(i + 1, i * 10));
  assert.equal((await judge(run(MAX_AUTH_ATTEMPTS), [], "auth-bounded-attempts"))?.status, "pass");
  assert.equal((await judge(run(MAX_AUTH_ATTEMPTS + 1), [], "auth-bounded-attempts"))?.status, "fail");
  // A success between refusals ends a run.
  assert.equal((await judge([...run(3), ok(10, 500), expired(11, 600), expired(12, 700)], [], "auth-bounded-attempts"))?.status, "pass");
});

test("without an authorization server (grants undefined) only the loop is judged", async () => {
  const checks = await runChecks([expired(1, 0), forbidden(2, 10)]);
  assert.deepEqual(checks.map((c) => c.id).filter((id) => id.startsWith("auth-")), ["auth-bounded-attempts"]);
});

test("runChecks asks for every grant event the server kept and lists the auth checks after the journal's own", async () => {
  const asked: number[] = [];
  // The token was issued before the first request the journal holds; the 401 (seq 2) was journalled after seq 1.
  const checks = await runChecks([ok(1, 200), expired(2, 10)], { grantsSince: (since) => (asked.push(since), [grant(-50, "authorization_code"), grant(100, "refresh_token")]) });
  assert.deepEqual(asked, [0]);
  const ids = checks.map((c) => c.id);
  assert.equal(checks.find((c) => c.id === "auth-refreshed-on-expiry")?.status, "pass");
  const firstAuth = ids.findIndex((id) => id.startsWith("auth-"));
  assert.ok(firstAuth >= 0 && ids.slice(firstAuth).every((id) => id.startsWith("auth-")), ids.join(", "));
});

const refresh = (at: number, presented: string, outcome = "issued"): GrantEvent => ({ ...grant(at, "refresh_token", "faultline:read", outcome), presented });

test("auth-one-refresh-per-token: refreshes that each present a new token pass; a second presentation of a spent one fails, naming both", async () => {
  const journal = [expired(1, 10), ok(2, 100)];
  const issued = grant(0, "authorization_code");
  const once = await judge(journal, [issued, refresh(50, "k1"), refresh(150, "k2")], "auth-one-refresh-per-token");
  assert.equal(once?.status, "pass");
  assert.match(once!.message, /Each of the 2 refreshes/);
  const twice = await judge(journal, [issued, refresh(50, "k1"), refresh(52, "k1", "invalid_grant")], "auth-one-refresh-per-token");
  assert.equal(twice?.status, "fail");
  // Both refreshes are named, by time and outcome.
  assert.ok(twice!.message.includes(`${new Date(T0 + 50).toISOString().slice(11)} (issued)`), twice!.message);
  assert.ok(twice!.message.includes(`${new Date(T0 + 52).toISOString().slice(11)} (refused: invalid_grant)`), twice!.message);
  // Three presentations of one token are one finding, naming all three.
  const thrice = await judge(journal, [issued, refresh(50, "k1"), refresh(52, "k1", "invalid_grant"), refresh(53, "k1", "invalid_grant")], "auth-one-refresh-per-token");
  assert.match(thrice!.message, /^3 refreshes presented the same refresh token: at \S+ \(issued\), then at \S+ \(refused: invalid_grant\), at \S+ \(refused: invalid_grant\)\./);
});

test("auth-one-refresh-per-token: presenting again a token whose refresh was refused is no reuse, and no refresh means no check", async () => {
  const journal = [expired(1, 10), ok(2, 100)];
  const issued = grant(0, "authorization_code");
  // The first presentation spent nothing (refused for another reason), so presenting the same token again is a retry.
  assert.equal((await judge(journal, [issued, refresh(50, "k1", "invalid_target"), refresh(60, "k1")], "auth-one-refresh-per-token"))?.status, "pass");
  assert.equal(await judge(journal, [issued], "auth-one-refresh-per-token"), undefined);
  // Grant events kept before the server recorded what was presented are not judged.
  assert.equal(await judge(journal, [issued, grant(50, "refresh_token"), grant(60, "refresh_token")], "auth-one-refresh-per-token"), undefined);
});

test("auth-reauthorized-after-revoke: a new authorization after a refused refresh passes; nothing more, or refresh after refresh, fails", async () => {
  const journal = [expired(1, 10), ok(2, 100)];
  const issued = grant(0, "authorization_code");
  const dead = (at: number) => refresh(at, "k1", "invalid_grant");
  const again = await judge(journal, [issued, dead(50), grant(80, "authorization_code")], "auth-reauthorized-after-revoke");
  assert.equal(again?.status, "pass");
  assert.match(again!.message, /the client authorized again: an authorization_code grant at \S+ \(issued\)/);
  const gaveUp = await judge(journal, [issued, dead(50)], "auth-reauthorized-after-revoke");
  assert.equal(gaveUp?.status, "fail");
  assert.match(gaveUp!.message, /asked the token endpoint for nothing more/);
  const loop = Array.from({ length: MAX_REFUSED_REFRESHES + 1 }, (_, i) => dead(50 + i));
  const looped = await judge(journal, [issued, ...loop, grant(90, "authorization_code")], "auth-reauthorized-after-revoke");
  assert.equal(looped?.status, "fail");
  assert.match(looped!.message, new RegExp(`^${MAX_REFUSED_REFRESHES + 1} refreshes in a row were refused with invalid_grant`));
  // A few refusals (parallel refreshes of one dead token), then an authorization: one episode, a pass.
  const few = Array.from({ length: MAX_REFUSED_REFRESHES }, (_, i) => dead(50 + i));
  assert.equal((await judge(journal, [issued, ...few, grant(90, "authorization_code")], "auth-reauthorized-after-revoke"))?.status, "pass");
  // Refusals for other reasons (the client's own request was wrong) are not this check's.
  assert.equal(await judge(journal, [issued, refresh(50, "k1", "invalid_request")], "auth-reauthorized-after-revoke"), undefined);
});

test("auth-refreshed-on-expiry: a refresh refused with invalid_grant, then a new authorization, is a pass (the client did refresh first)", async () => {
  const journal = [expired(1, 10), ok(2, 100)];
  const verdict = await judge(journal, [grant(0, "authorization_code"), refresh(50, "k1", "invalid_grant"), grant(80, "authorization_code")], "auth-refreshed-on-expiry");
  assert.equal(verdict?.status, "pass");
  assert.match(verdict!.message, /the client refreshed and the token endpoint refused the refresh token \(invalid_grant\); the token endpoint then answered a authorization_code request \(issued, scope "faultline:read"\): it authorized again\.$/);
});

test("auth-server-retry-bounded: judged per endpoint from the recorded requests; a client that stops after a few faults passes, saying so; none recorded, no check", async () => {
  const req = (at: number, endpoint: string, status: number, fault?: string) => ({ at: T0 + at, end: T0 + at + 5, endpoint, status, ...(fault ? { fault } : {}) });
  const judgeRequests = (requests: ReturnType<typeof req>[]) => checksOf([ok(1, 0)], [], requests).find((c) => c.id === "auth-server-retry-bounded");
  const stopped = judgeRequests([req(10, "token", 503, "5xx"), req(20, "token", 503, "5xx")]);
  assert.equal(stopped?.status, "pass");
  assert.match(stopped!.message, /2 faulted answers in a row from the token endpoint \(503, 503\) from \S+, then asked it nothing more\.$/);
  // Requests to another endpoint neither end nor lengthen the token endpoint's run.
  const mixed = Array.from({ length: MAX_SERVER_RETRIES + 1 }, (_, i) => [req(i * 10, "token", 503, "5xx"), req(i * 10 + 1, "metadata", 200)]).flat();
  assert.equal(judgeRequests(mixed)?.status, "fail");
  assert.equal(judgeRequests([]), undefined);
});
