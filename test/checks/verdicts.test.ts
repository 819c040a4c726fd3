import { test } from "node:test";
import assert from "node:assert/strict";
import { authChecks } from "../../src/checks/auth.ts";
import { summarize, observe } from "../../src/checks/check.ts";
import { timeline } from "../../src/checks/exchange.ts";
import { checksOf } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import type { GrantEvent } from "../../src/oauth/records.ts";
import { call, entry, MODERN, T0 } from "./entries.ts";

// Messages that agree with the journal (issue 24, item 4), and replay judged for every tool (item 5).

const ORDER = { item: "widget", quantity: 1 };
const INVALID = { error: { code: -32602, message: "Invalid params" } };
const find = (entries: JournalEntry[], id: string) => checksOf(entries).find((c) => c.id === id);

// ---- invalid-params-fixed ----

test("an unchanged initialize resent after -32602 and then answered names the answer a result to initialize, not a tool outcome", () => {
  const first = entry({ seq: 1, at: 0, method: "initialize", legacy: true, params: { capabilities: {} }, ...INVALID });
  const again = entry({ seq: 2, at: 30, method: "initialize", legacy: true, params: { capabilities: {} }, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } });
  assert.equal(again.verdict?.outcome, "TOOL_SUCCESS", "the classifier's outcome for any usable result (src/classify/result.ts)");
  const fixed = find([first, again], "invalid-params-fixed");
  assert.equal(fixed?.status, "fail");
  assert.match(fixed!.message, /the client did not fix them; the resend \(seq 2\) got a result to initialize\.$/);
  assert.doesNotMatch(fixed!.message, /fail again|failed again|tool/);
});

// ---- auth ----

const challenge = (error: string) => ({ "www-authenticate": `Bearer error="${error}", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"` });
const refused401 = (seq: number, at: number) => call(seq, at, "echo", { text: "hi" }, { status: 401, responseHeaders: challenge("invalid_token"), error: { code: -32600, message: "Unauthorized" } });
/** The 405 a GET without a stream to resume gets. */
const get405 = (seq: number, at: number): JournalEntry => ({
  seq,
  time: new Date(T0 + at).toISOString(),
  durationMs: 2,
  request: { method: "GET", url: "/s/test/mcp", headers: { accept: "text/event-stream" }, body: { text: "", bytes: 0, truncated: false } },
  response: { status: 405, headers: {}, body: { text: "", bytes: 0, truncated: false } },
  rpc: { kind: "invalid" },
  scenario: "test",
});
const grant = (at: number, grantType: string, outcome = "issued"): GrantEvent => ({ at: T0 + at, grantType, scope: "faultline:read", outcome });
const authOf = (entries: JournalEntry[], grants: GrantEvent[] | undefined, id: string) => authChecks(timeline(entries), grants).find((c) => c.id === id);

test("auth-bounded-attempts does not say the client succeeded when a 401 was followed only by a GET's 405", () => {
  const bounded = authOf([refused401(1, 0), get405(2, 50)], undefined, "auth-bounded-attempts");
  assert.equal(bounded?.status, "pass");
  assert.doesNotMatch(bounded!.message, /then succeeded|got through/);
  assert.equal(bounded!.message, "The client met 1 auth refusal (401/403) in a row, then no later exchange succeeded (the last, seq 2, got HTTP 405).");
});

test("auth-bounded-attempts names and cites the exchange that got through after the refusals", () => {
  const bounded = authOf([refused401(1, 0), refused401(2, 20), call(3, 50, "echo", { text: "hi" })], undefined, "auth-bounded-attempts");
  assert.equal(bounded?.message, "The client met 2 auth refusals (401/403) in a row, then got through: tools/call echo (seq 3) got HTTP 200.");
  assert.deepEqual(bounded?.evidence, [1, 2, 3]);
});

test("auth-bounded-attempts says once, with a count, what several episodes said alike", () => {
  const bounded = authOf([refused401(1, 0), get405(2, 10), refused401(3, 20)], undefined, "auth-bounded-attempts");
  assert.equal(bounded?.message, "The client met 2 auth refusals (401/403) in a row, then sent nothing more.");
  const alike = summarize("request-after-cut", [observe("pass", "Same.", 1), observe("pass", "Same.", 2), observe("pass", "Other.", 3)]);
  assert.equal(alike[0]?.message, "Same. (2 times) Other.");
  assert.deepEqual(alike[0]?.evidence, [1, 2, 3]);
});

test("auth-refreshed-on-expiry does not fail a static token the authorization server never issued: it says why it is not judged", () => {
  const refreshed = authOf([refused401(1, 100), refused401(2, 200)], [], "auth-refreshed-on-expiry");
  assert.equal(refreshed?.status, "info");
  assert.match(refreshed!.message, /^Not judged: .*never issued.*no token to refresh\.$/);
  // A grant refused before the 401 issued nothing either.
  assert.equal(authOf([refused401(1, 100)], [grant(50, "authorization_code", "invalid_grant")], "auth-refreshed-on-expiry")?.status, "info");
});

test("auth-refreshed-on-expiry still fails a client that let an issued token expire and asked for nothing", () => {
  const refreshed = authOf([refused401(1, 100)], [grant(50, "authorization_code")], "auth-refreshed-on-expiry");
  assert.equal(refreshed?.status, "fail");
  assert.match(refreshed!.message, /asked the token endpoint for nothing/);
});

// ---- non-idempotent-not-replayed: MCP's defaults for tools without annotations ----

const listed = (seq: number, tools: Record<string, unknown>[]) => entry({ seq, at: 0, method: "tools/list", result: { tools } });
const cutRan = { sse: true, cut: true, effects: "ran" as const };

test("a tool listed without annotations is judged with MCP's defaults: an identical resend after a cut once it ran is a blind replay", () => {
  const replay = find([listed(1, [{ name: "send_mail", inputSchema: { type: "object" } }]), call(2, 10, "send_mail", { to: "a" }, cutRan), call(3, 500, "send_mail", { to: "a" })], "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", replay?.message);
  assert.match(replay!.message, /^send_mail was sent again with the same arguments \{"to":"a"\} .* after a stream cut before the response to send_mail: a blind replay/);
});

test("a tool that leaves idempotentHint out is not idempotent, even when it says it is not destructive", () => {
  const tools = [{ name: "append", inputSchema: { type: "object" }, annotations: { readOnlyHint: false, destructiveHint: false } }];
  const replay = find([listed(1, tools), call(2, 10, "append", { line: "x" }, cutRan), call(3, 500, "append", { line: "x" })], "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", replay?.message);
});

test("a tool the journal never declared is judged with MCP's defaults", () => {
  const replay = find([call(1, 0, "unlisted_tool", { a: 1 }, cutRan), call(2, 500, "unlisted_tool", { a: 1 })], "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", replay?.message);
});

test("a proxied tool whose upstream declares no annotations is judged with MCP's defaults", () => {
  const proxied = (e: JournalEntry, tool: NonNullable<JournalEntry["proxied"]>["tool"]): JournalEntry => ({ ...e, proxied: { upstream: "http://127.0.0.1:1/mcp", mode: "alter", ...(tool ? { tool } : {}) } });
  const replay = find([proxied(call(1, 0, "notify", { a: 1 }, cutRan), { name: "notify" }), proxied(call(2, 500, "notify", { a: 1 }), { name: "notify" })], "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", replay?.message);
  // Behind a proxy, Faultline's own echo is not the upstream's: an upstream echo the journal knows nothing of (its
  // tools/list could not be read) is judged with the defaults, not with Faultline's read-only echo.
  const echo = find([proxied(call(1, 0, "echo", { text: "a" }, cutRan), undefined), proxied(call(2, 500, "echo", { text: "a" }), undefined)], "non-idempotent-not-replayed");
  assert.equal(echo?.status, "fail", echo?.message);
});

test("read-only and idempotent tools stay unjudged: Faultline's echo and a scenario's own read-only tool", () => {
  assert.equal(find([call(1, 0, "echo", { text: "a" }, cutRan), call(2, 500, "echo", { text: "a" })], "non-idempotent-not-replayed"), undefined);
  // catalog.mutation's retiring_tool is read-only; the client never listed it.
  const scenario = (e: JournalEntry): JournalEntry => ({ ...e, scenario: "catalog.mutation" });
  const entries = [scenario(call(1, 0, "retiring_tool", {}, cutRan)), scenario(call(2, 500, "retiring_tool", {}))];
  assert.equal(find(entries, "non-idempotent-not-replayed"), undefined, "the scenario declares retiring_tool read-only");
  assert.equal(find([call(1, 0, "retiring_tool", {}, cutRan), call(2, 500, "retiring_tool", {})], "non-idempotent-not-replayed")?.status, "fail", "unknown elsewhere");
});

test("the modern era's tools/list of an unannotated tool is read the same way", () => {
  const modernList = entry({ seq: 1, at: 0, method: "tools/list", headers: { "mcp-protocol-version": MODERN }, result: { tools: [{ name: "x", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "private" } });
  assert.equal(find([modernList, call(2, 10, "x", {}, cutRan), call(3, 500, "x", {})], "non-idempotent-not-replayed")?.status, "fail");
});
