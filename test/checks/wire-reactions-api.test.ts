import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Check } from "../../src/checks/index.ts";
import { createSession, MODERN, postModern, useServer } from "../helpers/server.ts";
import { checksOnceJournalled } from "../helpers/checks.ts";

// tools-relisted-after-change, cursor-not-looped and elicitation-answered as GET /api/sessions/{id}/checks gives them,
// for the official SDK clients (v1: 2025-11-25; v2 pinned: 2026-07-28) and fetch clients, one that passes and one that fails.

const server = useServer();
type Json = Record<string, any>;

const checksAfter = (sessionId: string, entries: number): Promise<Check[]> => checksOnceJournalled(server, sessionId, entries);

async function expectCheck(sessionId: string, entries: number, id: string, status: Check["status"], message: RegExp): Promise<void> {
  const checks = await checksAfter(sessionId, entries);
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks, null, 1)}`);
  assert.equal(found.status, status, found.message);
  assert.match(found.message, message);
}

/** A v1 (2025-11-25) client; with `answer` it declares elicitation and answers with it, with "no handler" it declares it and registers none. */
async function v1(t: TestContext, mcpUrl: string, elicitation?: Json | "no handler") {
  const client = new ClientV1({ name: "faultline-v1-test", version: "0.0.0" }, { capabilities: elicitation ? { elicitation: {} } : {} });
  if (elicitation && elicitation !== "no handler") client.setRequestHandler(ElicitRequestSchema, async () => elicitation);
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  return client;
}

async function v2(t: TestContext, mcpUrl: string) {
  const client = new Client({ name: "faultline-v2-test", version: "0.0.0" }, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } });
  t.after(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

/** The journal entries the v1 handshake writes (initialize, notifications/initialized) before the test's own. */
const V1_HANDSHAKE = 2;

// ---- catalog.mutation: tools-relisted-after-change (2026-07-28: test/checks/listen-change-api.test.ts) ----

test("a 2025-11-25 v1 client that lists the tools again after notifications/tools/list_changed passes tools-relisted-after-change", async (t) => {
  const session = await createSession(server, "catalog.mutation");
  const client = await v1(t, session.mcpUrl);
  await client.listTools();
  await client.callTool({ name: "trigger_tool_change", arguments: {} });
  assert.ok((await client.listTools()).tools.some((tool) => tool.name === "added_tool"));
  await client.callTool({ name: "added_tool", arguments: {} });
  await expectCheck(session.id, V1_HANDSHAKE + 4, "tools-relisted-after-change", "pass", /listed the tools again/);
});

test("a 2025-11-25 v1 client that calls the retired tool after notifications/tools/list_changed fails tools-relisted-after-change", async (t) => {
  const session = await createSession(server, "catalog.mutation");
  const client = await v1(t, session.mcpUrl);
  await client.listTools();
  await client.callTool({ name: "trigger_tool_change", arguments: {} });
  await assert.rejects(client.callTool({ name: "retiring_tool", arguments: {} }), /Unknown tool: retiring_tool/);
  await expectCheck(session.id, V1_HANDSHAKE + 3, "tools-relisted-after-change", "fail", /called retiring_tool, which the change retired, without listing the tools again/);
});

test("a 2025-11-25 v1 client whose second tools/list carries the change (afterListCalls=1) and calls the added tool passes tools-relisted-after-change", async (t) => {
  const session = await createSession(server, "catalog.mutation", { afterListCalls: 1 });
  const client = await v1(t, session.mcpUrl);
  await client.listTools();
  assert.ok((await client.listTools()).tools.some((tool) => tool.name === "added_tool"));
  await client.callTool({ name: "added_tool", arguments: {} });
  await expectCheck(session.id, V1_HANDSHAKE + 3, "tools-relisted-after-change", "pass", /came on the answer to tools\/list \(seq \d+\), which carried the changed list/);
});

// ---- pagination.bad_cursor: cursor-not-looped ----

const BOGUS = "not-a-cursor-this-server-issued";

test("a 2025-11-25 v1 client that restarts from the first page after a refused cursor passes cursor-not-looped", async (t) => {
  const session = await createSession(server, "pagination.bad_cursor");
  const client = await v1(t, session.mcpUrl);
  await assert.rejects(client.listTools({ cursor: BOGUS }), /-32602/);
  await client.listTools();
  await expectCheck(session.id, V1_HANDSHAKE + 2, "cursor-not-looped", "pass", /restarted from the first page/);
});

test("a 2025-11-25 v1 client that sends one refused cursor again and again fails cursor-not-looped", async (t) => {
  const session = await createSession(server, "pagination.bad_cursor");
  const client = await v1(t, session.mcpUrl);
  for (let i = 0; i < 5; i++) await assert.rejects(client.listTools({ cursor: BOGUS }), /-32602/);
  await expectCheck(session.id, V1_HANDSHAKE + 5, "cursor-not-looped", "fail", /sent the same refused cursor 4 more times \(more than 3\): it loops/);
});

// The v2 client's listTools() without a cursor follows every nextCursor itself, so each call restarts from the first page.
test("a 2026-07-28 v2 client whose list restarts from the first page after an expired cursor, then stops, passes cursor-not-looped", async (t) => {
  const session = await createSession(server, "pagination.bad_cursor", { pageSize: 1, expiredCursor: 1 });
  const client = await v2(t, session.mcpUrl);
  await assert.rejects(client.listTools(), /cursor has expired/);
  await assert.rejects(client.listTools(), /cursor has expired/);
  await expectCheck(session.id, 4, "cursor-not-looped", "pass", /"Invalid params: cursor has expired".*restarted from the first page .*sent the refused cursor 1 more time, within 3/);
});

test("a 2026-07-28 v2 client whose list is retried until the expired cursor has been sent five times fails cursor-not-looped", async (t) => {
  const session = await createSession(server, "pagination.bad_cursor", { pageSize: 1, expiredCursor: 1 });
  const client = await v2(t, session.mcpUrl);
  for (let i = 0; i < 5; i++) await assert.rejects(client.listTools(), /cursor has expired/);
  await expectCheck(session.id, 10, "cursor-not-looped", "fail", /sent the same refused cursor 4 more times \(more than 3\): it loops/);
});

// ---- elicitation: elicitation-answered (2025-11-25) and the mrtr checks (2026-07-28) ----

const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };

test("a 2025-11-25 v1 client that answers elicitation/create through its handler passes elicitation-answered", async (t) => {
  const session = await createSession(server, "elicitation.approval");
  const client = await v1(t, session.mcpUrl, { action: "accept", content: { approved: true } });
  const result = await client.callTool(ORDER);
  assert.equal(result.isError, undefined);
  await expectCheck(session.id, V1_HANDSHAKE + 2, "elicitation-answered", "pass", /with action accept/);
});

test("a 2025-11-25 v1 client that declares elicitation but has no handler (it answers -32601) fails elicitation-answered", async (t) => {
  const session = await createSession(server, "elicitation.approval");
  const client = await v1(t, session.mcpUrl, "no handler");
  await client.callTool(ORDER);
  await expectCheck(session.id, V1_HANDSHAKE + 2, "elicitation-answered", "fail", /JSON-RPC error -32601 .* although it declared the elicitation capability \{\} at initialize/);
});

test("a 2026-07-28 client that answers every input request on its retry passes mrtr-input-responses-complete", async () => {
  const session = await createSession(server, "elicitation.approval", { tools: ["place_order"] });
  const capabilities = { capabilities: { elicitation: {} } };
  const first = (await (await postModern(session.mcpUrl, 1, "tools/call", ORDER, capabilities)).json()) as Json;
  const retry = { ...ORDER, inputResponses: { approval: { action: "accept", content: { approved: true } } }, requestState: first.result.requestState };
  await (await postModern(session.mcpUrl, 2, "tools/call", retry, capabilities)).text();
  await expectCheck(session.id, 2, "mrtr-input-responses-complete", "pass", /answered every input request: approval/);
});

test("a 2026-07-28 client that retries without the input it was asked for fails mrtr-input-responses-complete", async () => {
  const session = await createSession(server, "elicitation.approval", { tools: ["place_order"] });
  const capabilities = { capabilities: { elicitation: {} } };
  const first = (await (await postModern(session.mcpUrl, 1, "tools/call", ORDER, capabilities)).json()) as Json;
  await (await postModern(session.mcpUrl, 2, "tools/call", { ...ORDER, requestState: first.result.requestState }, capabilities)).text();
  await expectCheck(session.id, 2, "mrtr-input-responses-complete", "fail", /left input request approval unanswered/);
});
