import { test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { journalOf } from "../helpers/journal.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// The real server journals, per tools/call, whether the tool ran (`effects`) and, for a retry of a failed call, the
// previous attempt and where the retry came from as the wire reads it (`retryOf`, `retryOrigin`).

const server = useServer();

const journal = (sessionId: string, count: number) => journalOf(server.url, sessionId, count);

async function checks(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

const order = (mcpUrl: string, id: number) => postModern(mcpUrl, id, "tools/call", { name: "place_order", arguments: { item: "widget", quantity: 1 } });
const calls = (entries: JournalEntry[]) => entries.filter((e) => e.rpc.method === "tools/call");

test("a stream cut after the handler ran journals effects: ran, and the resend is judged a blind replay with a new id", async () => {
  const session = await createSession(server, "streams.cut_before_response", { nth: 1 });
  await (await order(session.mcpUrl, 1)).text();
  assert.match(await (await order(session.mcpUrl, 2)).text(), /Order #2 placed/);
  const [cut, resend] = calls(await journal(session.id, 2));
  assert.equal(cut?.effects, "ran");
  assert.equal(resend?.effects, "ran");
  assert.equal(resend?.retryOf, cut?.seq);
  assert.equal(resend?.retryOrigin, "application");
  const replay = (await checks(session.id)).find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", replay?.message);
  assert.match(replay?.message ?? "", /the first attempt ran the tool/);
  assert.deepEqual(replay?.retries?.map((r) => r.retryOrigin), ["application"]);
});

test("an injected JSON-RPC error answers before the handler: effects none, and the resend is not a risky replay", async () => {
  const session = await createSession(server, "errors.jsonrpc_error", { code: -32603, nth: 1 });
  await (await order(session.mcpUrl, 1)).text();
  assert.match(await (await order(session.mcpUrl, 2)).text(), /Order #1 placed/);
  const [failed, resend] = calls(await journal(session.id, 2));
  assert.equal(failed?.effects, "none");
  assert.equal(resend?.effects, "ran");
  const replay = (await checks(session.id)).find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "pass", replay?.message);
});

test("an injected tool error stands for a tool that reported its own failure: effects possible", async () => {
  const session = await createSession(server, "errors.tool_error", { tools: ["place_order"] });
  await (await order(session.mcpUrl, 1)).text();
  const [failed] = calls(await journal(session.id, 1));
  assert.equal(failed?.effects, "possible");
});

test("a legacy retry with the same JSON-RPC id reads as transport, one with a new id as application; only tools/call has effects", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 503, 200], countMethods: ["tools/call"] });
  const { post } = await legacySession(session.mcpUrl);
  const body = (id: number) => ({ id, method: "tools/call", params: { name: "place_order", arguments: { item: "widget", quantity: 1 } } });
  assert.equal((await post(body(5))).status, 503);
  assert.equal((await post(body(5))).status, 503);
  assert.match(await (await post(body(6))).text(), /Order #1 placed/);
  const entries = await journal(session.id, 5);
  const [first, again, renewed] = calls(entries);
  assert.deepEqual([first?.effects, again?.effects, renewed?.effects], ["none", "none", "ran"]);
  assert.equal(first?.retryOrigin, undefined);
  assert.deepEqual([again?.retryOf, again?.retryOrigin], [first?.seq, "transport"]);
  assert.deepEqual([renewed?.retryOf, renewed?.retryOrigin], [again?.seq, "application"]);
  assert.ok(entries.filter((e) => e.rpc.method !== "tools/call").every((e) => e.effects === undefined && e.retryOrigin === undefined));
  const bounded = (await checks(session.id)).find((c) => c.id === "http-retry-bounded");
  assert.deepEqual(bounded?.retries?.map((r) => [r.seq, r.retryOrigin]), [[again?.seq, "transport"], [renewed?.seq, "application"]]);
});

test("a call repeated after a success is no retry: no retryOf, no retryOrigin", async () => {
  const session = await createSession(server, "baseline");
  await (await order(session.mcpUrl, 1)).text();
  await (await order(session.mcpUrl, 2)).text();
  const [, second] = calls(await journal(session.id, 2));
  assert.equal(second?.effects, "ran");
  assert.equal(second?.retryOf, undefined);
});
