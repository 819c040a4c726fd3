import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { proxyRefusal } from "../../src/proxy/support.ts";
import { findScenario } from "../../scenarios/index.ts";
import { createSession, legacySession, postModern, startServer, useServer } from "../helpers/server.ts";

// results.structured_mismatch on the real server, judged by GET /api/sessions/{id}/checks: what the official SDK
// clients do with structuredContent that breaks the tool's outputSchema (v1 at 2025-11-25, v2 at 2026-07-28), and
// fetch clients that resend blindly, change their arguments, move on or stop, in both eras.

const server = useServer();
const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };
const ECHO = { name: "echo", arguments: { text: "hi" } };

/** The session's journal once it holds `calls` tools/call entries. */
async function journalWithCalls(sessionId: string, calls: number): Promise<JournalEntry[]> {
  for (let tries = 0; tries < 200; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (entries.filter((e) => e.rpc.method === "tools/call").length >= calls) return entries;
    await sleep(50);
  }
  throw new Error(`the journal never held ${calls} tools/call entries`);
}

async function checksOf(sessionId: string, calls: number): Promise<Check[]> {
  await journalWithCalls(sessionId, calls);
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

function check(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks.map((c) => c.id))}`);
  return found;
}

/** The finding codes the classifier gave the first tools/call entry. */
async function callFindings(sessionId: string): Promise<{ outcome: string | undefined; codes: string[] }> {
  const entries = await journalWithCalls(sessionId, 1);
  const call = entries.filter((e) => e.rpc.method === "tools/call").sort((a, b) => a.seq - b.seq)[0]!;
  return { outcome: call.verdict?.outcome, codes: (call.verdict?.findings ?? []).map((f) => `${f.severity}:${f.code}`) };
}

async function v1(t: TestContext, mcpUrl: string) {
  const client = new ClientV1({ name: "structured-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new ClientV2({ name: "structured-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  return client;
}

/** A 2026-07-28 tools/call by fetch; returns the JSON-RPC result. */
async function callModern(mcpUrl: string, id: number, params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>> {
  const res = await postModern(mcpUrl, id, "tools/call", params);
  assert.equal(res.status, 200);
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}

test("tools/list declares an outputSchema for echo and place_order under results.structured_mismatch, and the scenario is refused in front of an upstream", async () => {
  const { mcpUrl } = await createSession(server, "results.structured_mismatch");
  const res = await postModern(mcpUrl, 1, "tools/list");
  const { tools } = ((await res.json()) as { result: { tools: { name: string; outputSchema?: { required?: string[] } }[] } }).result;
  assert.deepEqual(tools.find((t) => t.name === "place_order")?.outputSchema?.required, ["orderNumber", "item", "quantity"]);
  assert.deepEqual(tools.find((t) => t.name === "echo")?.outputSchema?.required, ["text"]);
  assert.match(proxyRefusal(findScenario("results.structured_mismatch")!) ?? "", /serves tools of its own/);
});

test("bad params are refused with a 400 naming the field", async () => {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "results.structured_mismatch", params: { variant: "wrong", tool: "run_configured_test_scenario" } }),
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { error: { issues: { path: string }[] } };
  assert.deepEqual(body.error.issues.map((i) => i.path).sort(), ["params.tool", "params.variant"]);
});

test("the SDK v1 client rejects a place_order result whose structuredContent breaks the outputSchema, and does not resend it: both checks pass at 2025-11-25", async (t) => {
  const { id, mcpUrl } = await createSession(server, "results.structured_mismatch", { variant: "mismatch", tool: "place_order", times: 1 });
  const client = await v1(t, mcpUrl);
  await client.listTools();
  await assert.rejects(client.callTool(ORDER), /Structured content does not match the tool's output schema/);
  assert.deepEqual((await client.callTool(ECHO)).content, [{ type: "text", text: "hi" }]);
  const found = await callFindings(id);
  assert.equal(found.outcome, "INVALID_TOOL_RESULT");
  assert.ok(found.codes.includes("error:STRUCTURED_CONTENT_MISMATCH"), found.codes.join(", "));
  const checks = await checksOf(id, 2);
  assert.equal(check(checks, "bad-answer-handled").status, "pass");
  assert.match(check(checks, "bad-answer-handled").message, /moved on to tools\/call echo/);
  assert.equal(check(checks, "non-idempotent-not-replayed").status, "pass");
});

test("the SDK v2 client rejects a place_order result without structuredContent when an outputSchema is declared, at 2026-07-28", async (t) => {
  const { id, mcpUrl } = await createSession(server, "results.structured_mismatch", { variant: "missing", tool: "place_order" });
  const client = await v2(t, mcpUrl);
  await client.listTools();
  await assert.rejects(client.callTool(ORDER), /has an output schema but did not return structured content/);
  const found = await callFindings(id);
  assert.equal(found.outcome, "INVALID_TOOL_RESULT");
  assert.ok(found.codes.includes("error:STRUCTURED_CONTENT_MISSING"), found.codes.join(", "));
  const checks = await checksOf(id, 1);
  assert.equal(check(checks, "non-idempotent-not-replayed").status, "pass");
});

test("the SDK v1 client rejects a result without structuredContent too, and the SDK v2 client rejects a mismatched echo result", async (t) => {
  const missing = await createSession(server, "results.structured_mismatch", { variant: "missing", tool: "echo" });
  const clientV1 = await v1(t, missing.mcpUrl);
  await clientV1.listTools();
  await assert.rejects(clientV1.callTool(ECHO), /has an output schema but did not return structured content/);
  const mismatch = await createSession(server, "results.structured_mismatch", { variant: "mismatch", tool: "echo" });
  const clientV2 = await v2(t, mismatch.mcpUrl);
  await clientV2.listTools();
  await assert.rejects(clientV2.callTool(ECHO), /Structured content does not match the tool's output schema/);
});

test("an isError result with non-conforming structuredContent: the SDK v1 client rejects it as a schema mismatch, the SDK v2 client returns the tool error", async (t) => {
  const legacy = await createSession(server, "results.structured_mismatch", { variant: "error_with_structured", tool: "echo" });
  const clientV1 = await v1(t, legacy.mcpUrl);
  await clientV1.listTools();
  await assert.rejects(clientV1.callTool(ECHO), /Structured content does not match the tool's output schema/);
  const found = await callFindings(legacy.id);
  assert.equal(found.outcome, "TOOL_ERROR");
  assert.ok(found.codes.includes("warning:ERROR_STRUCTURED_CONTENT_MISMATCH"), found.codes.join(", "));
  const modern = await createSession(server, "results.structured_mismatch", { variant: "error_with_structured", tool: "echo" });
  const clientV2 = await v2(t, modern.mcpUrl);
  await clientV2.listTools();
  const result = await clientV2.callTool(ECHO);
  assert.equal(result.isError, true);
  assert.deepEqual(result.structuredContent, { error: { code: "UPSTREAM_UNAVAILABLE", message: "The tool failed after it ran: the upstream did not confirm (injected by Faultline)." } });
  // Neither SDK repeats the call on its own: the client that gave up passes tool-error-next-step.
  assert.equal(check(await checksOf(modern.id, 1), "tool-error-next-step").status, "pass");
});

test("a legacy fetch client that resends place_order unchanged after a mismatched result fails bad-answer-handled and non-idempotent-not-replayed: the order ran twice", async () => {
  const { id, mcpUrl } = await createSession(server, "results.structured_mismatch", { variant: "mismatch", tool: "place_order" });
  const { post } = await legacySession(mcpUrl);
  for (const n of [1, 2]) {
    const res = await post({ id: n, method: "tools/call", params: ORDER });
    const body = (await res.json()) as { result: { structuredContent: unknown } };
    assert.deepEqual(body.result.structuredContent, { faultline: "structuredContent that does not match the tool's outputSchema (injected by Faultline)" });
  }
  const checks = await checksOf(id, 2);
  assert.equal(check(checks, "bad-answer-handled").status, "fail");
  assert.match(check(checks, "bad-answer-handled").message, /a blind resend of place_order, which is not idempotent \(the first attempt ran the tool/);
  assert.equal(check(checks, "non-idempotent-not-replayed").status, "fail");
});

test("the same unchanged resend of echo, which is read-only, passes bad-answer-handled at 2026-07-28", async () => {
  const { id, mcpUrl } = await createSession(server, "results.structured_mismatch", { variant: "mismatch", tool: "echo" });
  for (const n of [1, 2]) await callModern(mcpUrl, n, ECHO);
  const checks = await checksOf(id, 2);
  assert.equal(check(checks, "bad-answer-handled").status, "pass");
  assert.match(check(checks, "bad-answer-handled").message, /a safe resend, since echo is declared read-only or idempotent/);
});

test("after an isError place_order result, an identical repeat fails tool-error-next-step at 2026-07-28", async () => {
  const { id, mcpUrl } = await createSession(server, "results.structured_mismatch", { variant: "error_with_structured", tool: "place_order", times: 1 });
  assert.equal((await callModern(mcpUrl, 1, ORDER)).isError, true);
  assert.equal((await callModern(mcpUrl, 2, ORDER)).isError, undefined);
  const checks = await checksOf(id, 2);
  assert.equal(check(checks, "tool-error-next-step").status, "fail");
  assert.match(check(checks, "tool-error-next-step").message, /repeated the identical call .*place_order is not idempotent and the tool ran before it reported the error/);
});

test("after an isError echo result, an identical repeat is only a warning in a legacy session, since echo is read-only", async () => {
  const { id, mcpUrl } = await createSession(server, "results.structured_mismatch", { variant: "error_with_structured", tool: "echo", times: 1 });
  const { post } = await legacySession(mcpUrl);
  for (const n of [1, 2]) await (await post({ id: n, method: "tools/call", params: ECHO })).arrayBuffer();
  const checks = await checksOf(id, 2);
  assert.equal(check(checks, "tool-error-next-step").status, "warning");
  assert.match(check(checks, "tool-error-next-step").message, /echo is declared read-only or idempotent, so it is harmless/);
});

test("after an isError place_order result, changed arguments pass tool-error-next-step, and so does moving on to another tool", async () => {
  const changed = await createSession(server, "results.structured_mismatch", { variant: "error_with_structured", tool: "place_order", times: 1 });
  await callModern(changed.mcpUrl, 1, ORDER);
  await callModern(changed.mcpUrl, 2, { name: "place_order", arguments: { item: "tea", quantity: 1 } });
  const one = check(await checksOf(changed.id, 2), "tool-error-next-step");
  assert.equal(one.status, "pass");
  assert.match(one.message, /changed the arguments: \{"item":"tea","quantity":2\} then \{"item":"tea","quantity":1\}/);
  const other = await createSession(server, "results.structured_mismatch", { variant: "error_with_structured", tool: "place_order", times: 1 });
  const { post } = await legacySession(other.mcpUrl);
  await (await post({ id: 1, method: "tools/call", params: ORDER })).arrayBuffer();
  await (await post({ id: 2, method: "tools/call", params: ECHO })).arrayBuffer();
  const two = check(await checksOf(other.id, 2), "tool-error-next-step");
  assert.equal(two.status, "pass");
  assert.match(two.message, /moved on to tools\/call echo/);
});

test("errors.tool_error is judged by tool-error-next-step too: an identical repeat of the failed place_order fails", async () => {
  const { id, mcpUrl } = await createSession(server, "errors.tool_error", { tools: ["place_order"], nth: 1 });
  await callModern(mcpUrl, 1, ORDER);
  await callModern(mcpUrl, 2, ORDER);
  assert.equal(check(await checksOf(id, 2), "tool-error-next-step").status, "fail");
});

test("an isError result longer than the journal keeps is still judged: the classifier's verdict says TOOL_ERROR, and the identical repeat fails", async (t) => {
  // A server of its own whose journal keeps 1 KiB of each body, so a 4 KB error text is cut.
  const small = await startServer({ JOURNAL_BODY_CAP: "1024" });
  t.after(() => small.close());
  const { id, mcpUrl } = await createSession(small, "errors.tool_error", { tools: ["place_order"], nth: 1, text: "Payment declined. ".repeat(250) });
  await callModern(mcpUrl, 1, ORDER);
  await callModern(mcpUrl, 2, ORDER);
  let entries: JournalEntry[] = [];
  for (let tries = 0; tries < 200 && entries.length < 2; tries++) {
    entries = ((await (await fetch(`${small.url}/api/sessions/${id}/journal`)).json()) as { entries: JournalEntry[] }).entries.filter((e) => e.rpc.method === "tools/call");
    await sleep(50);
  }
  const first = entries.sort((a, b) => a.seq - b.seq)[0]!;
  assert.equal(first.response.body.truncated, true, "the journal cut the error's body");
  assert.equal(first.verdict?.outcome, "TOOL_ERROR");
  const { checks } = (await (await fetch(`${small.url}/api/sessions/${id}/checks`)).json()) as { checks: Check[] };
  assert.equal(check(checks, "tool-error-next-step").status, "fail");
});

test("the SDK v1 client gets an injected tool error on place_order and moves on to echo: tool-error-next-step passes at 2025-11-25", async (t) => {
  const { id, mcpUrl } = await createSession(server, "errors.tool_error", { tools: ["place_order"], nth: 1, text: "Payment declined" });
  const client = await v1(t, mcpUrl);
  const result = await client.callTool(ORDER);
  assert.equal(result.isError, true);
  await client.callTool(ECHO);
  const found = check(await checksOf(id, 2), "tool-error-next-step");
  assert.equal(found.status, "pass");
  assert.match(found.message, /did not call place_order again and moved on to tools\/call echo/);
});
