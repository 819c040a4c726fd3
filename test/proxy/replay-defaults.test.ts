import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import { createSession, useServer } from "../helpers/server.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";

// Replay judged for every tool (issue 24, item 5): a cut stream while the tool ran, then the identical call again,
// is a blind replay of a tool that is not idempotent, whether the tool declares so or declares nothing (MCP's
// defaults: not read-only, not idempotent). Over the real server, behind the proxy and with the built-in tools.

const server = useServer();
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream({ responseMode: "sse", unannotated: true });
});
after(() => upstream.close());

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

/** The first call's stream is cut after the tool ran; the client sends the identical call again, never listing tools. */
async function cutThenResend(mcpUrl: string, id: string, tool: string, args: Record<string, unknown>) {
  await (await call(mcpUrl, 1, tool, args)).text();
  await (await call(mcpUrl, 2, tool, args)).text();
  return journalWhen(server.url, id, (all) => all.length === 2);
}

test("behind the proxy, an identical resend after a cut of an upstream tool without annotations that ran fails non-idempotent-not-replayed", async () => {
  const { status, json } = await createProxied(server.url, { scenario: "streams.cut_before_response", params: { nth: 1 }, upstream: upstream.url });
  assert.equal(status, 201, JSON.stringify(json));
  const before = upstream.calls.notify ?? 0;
  const entries = await cutThenResend(json.mcpUrl, json.id, "notify", { to: "ops" });
  assert.equal((upstream.calls.notify ?? 0) - before, 2, "the upstream ran the tool both times");
  const first = entries.find((e) => e.rpc.id === 1)!;
  assert.deepEqual(first.proxied?.tool, { name: "notify" }, "the upstream's tools/list declares no annotations for notify");
  assert.equal(first.effects, "ran");
  assert.equal(first.verdict?.outcome, "STREAM_INCOMPLETE");
  const checks = await checksOf(json.id);
  const replay = checks.find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", JSON.stringify(checks));
  assert.match(replay!.message, /^notify was sent again with the same arguments \{"to":"ops"\} \d+ ms after a stream cut before the response to notify: a blind replay of a tool that is not idempotent \(the first attempt ran the tool/);
  assert.deepEqual(replay!.evidence, [first.seq, entries.find((e) => e.rpc.id === 2)!.seq]);
  // The cut is still judged as a cut, and not as a call that was safe to resend.
  assert.ok(checks.some((c) => c.id === "request-after-cut"));
  assert.equal(checks.find((c) => c.id === "cut-call-resent"), undefined);
});

test("behind the proxy, the upstream's read-only tool resent after a cut is not judged a replay", async () => {
  const { json } = await createProxied(server.url, { scenario: "streams.cut_before_response", params: { nth: 1 }, upstream: upstream.url });
  await cutThenResend(json.mcpUrl, json.id, "lookup", { key: "k" });
  const checks = await checksOf(json.id);
  assert.equal(checks.find((c) => c.id === "non-idempotent-not-replayed"), undefined, JSON.stringify(checks));
  assert.equal(checks.find((c) => c.id === "cut-call-resent")?.status, "pass", JSON.stringify(checks));
});

test("with the built-in tools, an identical place_order after a cut once it ran fails non-idempotent-not-replayed", async () => {
  const session = await createSession(server, "streams.cut_before_response", { nth: 1 });
  const entries = await cutThenResend(session.mcpUrl, session.id, "place_order", { item: "widget", quantity: 1 });
  const first = entries.find((e) => e.rpc.id === 1)!;
  assert.equal(first.effects, "ran");
  const replay = (await checksOf(session.id)).find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "fail", JSON.stringify(replay));
  assert.match(replay!.message, /^place_order was sent again with the same arguments .* a blind replay of a tool that is not idempotent \(the first attempt ran the tool/);
});
