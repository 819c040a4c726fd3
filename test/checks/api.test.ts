import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Check } from "../../src/checks/index.ts";
import { NO_BACKOFF_MS } from "../../src/checks/retries.ts";
import { createSession, legacySession, MODERN, postModern, startServer, type TestServer } from "../helpers/server.ts";
import { checksOnceJournalled } from "../helpers/checks.ts";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

type Json = Record<string, any>;

/** Reads a response to the end, so that the exchange is journalled, and returns its JSON (or undefined). */
async function drained(res: Response): Promise<Json | undefined> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

const checksAfter = (sessionId: string, entries: number): Promise<Check[]> => checksOnceJournalled(server, sessionId, entries);

function find(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks, null, 1)}`);
  if (process.env.DEBUG_CHECKS) console.log(JSON.stringify(found));
  return found;
}

const echo = (mcpUrl: string, id: number, text = "hi") => postModern(mcpUrl, id, "tools/call", { name: "echo", arguments: { text } });
const order = (mcpUrl: string, id: number, quantity = 1) =>
  postModern(mcpUrl, id, "tools/call", { name: "place_order", arguments: { item: "widget", quantity } });

// ---- retries ----

test("a client that waits out Retry-After: 1 after a 503 passes http-retry-after-honoured", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], retryAfter: 1 });
  assert.equal((await echo(session.mcpUrl, 1)).status, 503);
  await sleep(1100);
  assert.equal((await echo(session.mcpUrl, 2)).status, 200);
  const checks = await checksAfter(session.id, 2);
  const honoured = find(checks, "http-retry-after-honoured");
  assert.equal(honoured.status, "pass", honoured.message);
  assert.match(honoured.message, /^Waited \d+ ms after a 503 to tools\/call echo that asked for Retry-After: 1 s \(1000 ms\)\.$/);
  assert.equal(honoured.evidence.length, 2);
  assert.equal(find(checks, "http-retry-bounded").status, "pass");
});

test("a client that retries at once after a 503 with Retry-After: 1 fails http-retry-after-honoured", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], retryAfter: 1 });
  await drained(await echo(session.mcpUrl, 1));
  await drained(await echo(session.mcpUrl, 2));
  const honoured = find(await checksAfter(session.id, 2), "http-retry-after-honoured");
  assert.equal(honoured.status, "fail", honoured.message);
  assert.match(honoured.message, /^Retried \d+ ms after a 503 to tools\/call echo that asked for Retry-After: 1 s \(1000 ms\)\.$/);
});

test("a client that retries at once after a 429 with Retry-After: 1 fails http-retry-after-honoured", async () => {
  const session = await createSession(server, "ratelimit.retry_after_seconds", { seconds: 1 });
  assert.equal((await echo(session.mcpUrl, 1)).status, 429);
  await drained(await echo(session.mcpUrl, 2));
  const honoured = find(await checksAfter(session.id, 2), "http-retry-after-honoured");
  assert.equal(honoured.status, "fail", honoured.message);
  assert.match(honoured.message, /after a 429 to tools\/call echo/);
});

test("a client that retries a 503 without Retry-After at once gets a http-retry-backoff warning", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
  await drained(await echo(session.mcpUrl, 1));
  await drained(await echo(session.mcpUrl, 2));
  const backoff = find(await checksAfter(session.id, 2), "http-retry-backoff");
  // "At once" on loopback is a few ms, under the 100 ms threshold; a loaded machine can stretch it, so the verdict
  // is compared with the gap the journal measured rather than assumed.
  const { entries } = (await (await fetch(`${server.url}/api/sessions/${session.id}/journal`)).json()) as { entries: Json[] };
  const [failed, retry] = entries as [Json, Json];
  const gap = Date.parse(retry.time) - (Date.parse(failed.time) + failed.durationMs);
  assert.equal(backoff.status, gap < NO_BACKOFF_MS ? "warning" : "pass", `${backoff.message} (gap ${gap} ms)`);
  if (gap < NO_BACKOFF_MS) assert.match(backoff.message, /no backoff/);
});

test("a client that backs off after a 503 without Retry-After passes http-retry-backoff", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
  await drained(await echo(session.mcpUrl, 1));
  await sleep(400);
  await drained(await echo(session.mcpUrl, 2));
  const backoff = find(await checksAfter(session.id, 2), "http-retry-backoff");
  assert.equal(backoff.status, "pass", backoff.message);
});

test("a client that retries a 503 five times in a row gets a http-retry-bounded warning", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 503, 503, 503, 503, 200] });
  for (let id = 1; id <= 6; id++) await drained(await echo(session.mcpUrl, id));
  const bounded = find(await checksAfter(session.id, 6), "http-retry-bounded");
  assert.equal(bounded.status, "warning", bounded.message);
  assert.match(bounded.message, /retried 5 times in a row/);
  assert.equal(bounded.evidence.length, 6);
});

test("a client that never retries a 503 gets info: no retry observed", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], retryAfter: 1 });
  await drained(await echo(session.mcpUrl, 1));
  const honoured = find(await checksAfter(session.id, 1), "http-retry-after-honoured");
  assert.equal(honoured.status, "info");
  assert.match(honoured.message, /No retry observed/);
});

// ---- non-idempotent-not-replayed ----

test("resending place_order unchanged after a 503 passes non-idempotent-not-replayed: the 503 came before the tool ran", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200] });
  assert.equal((await order(session.mcpUrl, 1)).status, 503);
  await sleep(150);
  const resent = await order(session.mcpUrl, 2);
  assert.equal(resent.status, 200);
  // The 503 never reached the tool: the resend places the first order, not a second one.
  assert.match(await resent.text(), /Order #1 placed/);
  const checks = await checksAfter(session.id, 2);
  const replay = find(checks, "non-idempotent-not-replayed");
  assert.equal(replay.status, "pass", replay.message);
  assert.equal(replay.evidence.length, 2);
  assert.match(replay.message, /^place_order was sent again with the same arguments \{"item":"widget","quantity":1\} \d+ ms after HTTP 503 to place_order: not a risky replay/);
});

test("resending place_order with changed arguments after a tool error passes non-idempotent-not-replayed", async () => {
  const session = await createSession(server, "errors.tool_error", { tools: ["place_order"], text: "Payment declined" });
  await drained(await order(session.mcpUrl, 1, 1));
  await drained(await order(session.mcpUrl, 2, 2));
  const replay = find(await checksAfter(session.id, 2), "non-idempotent-not-replayed");
  assert.equal(replay.status, "pass", replay.message);
  assert.match(replay.message, /resent with changed arguments after a tool error/);
});

// ---- mrtr-* ----

const APPROVAL_CAPS = { elicitation: {} };
const MRTR = ["mrtr-new-request-id", "mrtr-request-state-echoed", "mrtr-input-responses-complete", "mrtr-same-request"];

async function askForApproval(mcpUrl: string): Promise<{ requestState: string; inputRequests: Json }> {
  const res = await postModern(mcpUrl, 1, "tools/call", { name: "place_order", arguments: { item: "widget", quantity: 1 } }, { capabilities: APPROVAL_CAPS });
  const body = await drained(res);
  assert.equal(body?.result?.resultType, "input_required", JSON.stringify(body));
  return body?.result;
}

test("a raw client that retries input_required correctly passes every mrtr check", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl);
  const retry = await postModern(
    session.mcpUrl,
    2,
    "tools/call",
    {
      name: "place_order",
      arguments: { item: "widget", quantity: 1 },
      requestState,
      inputResponses: { approval: { action: "accept", content: { approved: true } } },
    },
    { capabilities: APPROVAL_CAPS },
  );
  assert.equal((await drained(retry))?.result?.resultType, "complete");
  const checks = await checksAfter(session.id, 2);
  for (const id of MRTR) assert.equal(find(checks, id).status, "pass", `${id}: ${find(checks, id).message}`);
});

test("a raw client that reuses the id, alters the state, answers nothing and changes the arguments fails every mrtr check", async () => {
  const session = await createSession(server, "elicitation.approval");
  const { requestState } = await askForApproval(session.mcpUrl);
  const tampered = `${requestState.slice(0, -1)}${requestState.endsWith("A") ? "B" : "A"}`;
  await drained(
    await postModern(session.mcpUrl, 1, "tools/call", { name: "place_order", arguments: { item: "widget", quantity: 9 }, requestState: tampered }, {
      capabilities: APPROVAL_CAPS,
    }),
  );
  const checks = await checksAfter(session.id, 2);
  for (const id of MRTR) assert.equal(find(checks, id).status, "fail", `${id}: ${find(checks, id).message}`);
  assert.match(find(checks, "mrtr-request-state-echoed").message, /differing from character \d+/);
});

test("the v2 SDK client pinned to 2026-07-28 passes every mrtr check when its elicitation handler accepts", async () => {
  const session = await createSession(server, "elicitation.approval");
  const client = new Client({ name: "checks-v2", version: "0.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { approved: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(session.mcpUrl)));
  try {
    const result = await client.callTool({ name: "place_order", arguments: { item: "widget", quantity: 1 } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
  } finally {
    await client.close();
  }
  // server/discover, the input_required call and its retry.
  const checks = await checksAfter(session.id, 3);
  for (const id of MRTR) assert.equal(find(checks, id).status, "pass", `${id}: ${find(checks, id).message}`);
});

// ---- invalid-params-fixed ----

test("resending the same arguments after -32602 fails invalid-params-fixed", async () => {
  const session = await createSession(server, "errors.jsonrpc_error", { code: -32602 });
  assert.equal((await drained(await echo(session.mcpUrl, 1, "bad")))?.error?.code, -32602);
  await drained(await echo(session.mcpUrl, 2, "bad"));
  const fixed = find(await checksAfter(session.id, 2), "invalid-params-fixed");
  assert.equal(fixed.status, "fail", fixed.message);
  assert.match(fixed.message, /^tools\/call echo was resent unchanged \{"text":"bad"\}/);
});

test("changing the arguments after -32602 passes invalid-params-fixed", async () => {
  const session = await createSession(server, "errors.jsonrpc_error", { code: -32602 });
  await drained(await echo(session.mcpUrl, 1, "bad"));
  await drained(await echo(session.mcpUrl, 2, "good"));
  const fixed = find(await checksAfter(session.id, 2), "invalid-params-fixed");
  assert.equal(fixed.status, "pass", fixed.message);
});

// ---- session-reinitialized ----

test("a raw client that initializes again after its session's 404 passes session-reinitialized", async () => {
  const session = await createSession(server, "session.expire_after", { requests: 1 });
  const first = await legacySession(session.mcpUrl);
  assert.equal((await first.post({ id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "a" } } })).status, 404);
  const second = await legacySession(session.mcpUrl);
  assert.notEqual(second.sessionId, first.sessionId);
  // initialize + initialized, the 404, initialize + initialized.
  const check = find(await checksAfter(session.id, 5), "session-reinitialized");
  assert.equal(check.status, "pass", check.message);
  assert.equal(check.evidence.length, 3);
});

test("a raw client that keeps the dead session id after a 404 fails session-reinitialized", async () => {
  const session = await createSession(server, "session.expire_after", { requests: 1 });
  const { post } = await legacySession(session.mcpUrl);
  await drained(await post({ id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "a" } } }));
  await drained(await post({ id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "a" } } }));
  const check = find(await checksAfter(session.id, 4), "session-reinitialized");
  assert.equal(check.status, "fail", check.message);
  assert.match(check.message, /kept sending the dead Mcp-Session-Id/);
});

test("the v1 SDK client fails session-reinitialized when the application calls again on the expired session", async () => {
  const session = await createSession(server, "session.expire_after", { requests: 1 });
  const client = new ClientV1({ name: "checks-v1", version: "0.0.0" });
  await client.connect(new TransportV1(new URL(session.mcpUrl)));
  try {
    await assert.rejects(client.callTool({ name: "echo", arguments: { text: "a" } }), /404|Session not found/);
    await assert.rejects(client.callTool({ name: "echo", arguments: { text: "b" } }), /404|Session not found/);
  } finally {
    await client.close();
  }
  const check = find(await checksAfter(session.id, 4), "session-reinitialized");
  assert.equal(check.status, "fail", check.message);
});

test("the v1 SDK client passes session-reinitialized when the application reconnects after the 404", async () => {
  const session = await createSession(server, "session.expire_after", { requests: 1 });
  const first = new ClientV1({ name: "checks-v1", version: "0.0.0" });
  await first.connect(new TransportV1(new URL(session.mcpUrl)));
  await assert.rejects(first.callTool({ name: "echo", arguments: { text: "a" } }), /404|Session not found/);
  await first.close();
  const second = new ClientV1({ name: "checks-v1", version: "0.0.0" });
  await second.connect(new TransportV1(new URL(session.mcpUrl)));
  await second.close();
  const check = find(await checksAfter(session.id, 5), "session-reinitialized");
  assert.equal(check.status, "pass", check.message);
});

// ---- version-renegotiated ----

async function modernThenNext(next: (mcpUrl: string) => Promise<Response>) {
  const session = await createSession(server, "version.unsupported");
  const refused = await drained(await echo(session.mcpUrl, 1));
  assert.equal(refused?.error?.code, -32022);
  await drained(await next(session.mcpUrl));
  return find(await checksAfter(session.id, 2), "version-renegotiated");
}

test("falling back to initialize with a listed version after -32022 passes version-renegotiated", async () => {
  const check = await modernThenNext((mcpUrl) =>
    fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "0" } },
      }),
    })
  );
  assert.equal(check.status, "pass", check.message);
  assert.match(check.message, /fell back to initialize with "2025-11-25", which is in data\.supported/);
});

test("repeating 2026-07-28 after -32022 fails version-renegotiated", async () => {
  const check = await modernThenNext((mcpUrl) => echo(mcpUrl, 2));
  assert.equal(check.status, "fail", check.message);
  assert.match(check.message, /repeated the unsupported version/);
});
