import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../../helpers/server.ts";
import { modern, call, toolText, driveLegacyStream, finalResult } from "../../helpers/seen.ts";

// elicitation.url_mode: URL-mode input requests and the capability they need, in both eras.
const server = useServer();

const order = call("place_order", { item: "tea", quantity: 1 });

const urlCapabilities = { elicitation: { form: {}, url: {} } };

test("elicitation.url_mode asks with a 2026-07-28 url input request without elicitationId", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: urlCapabilities });
  const request = first.json?.result.inputRequests.approval;
  assert.equal(request.method, "elicitation/create");
  assert.equal(request.params.mode, "url");
  assert.match(request.params.url, /^https:\/\//);
  assert.equal(request.params.elicitationId, undefined);
  assert.equal(first.verdict.outcome, "INPUT_REQUIRED");
  assert.deepEqual(first.verdict.retry.inputKeys, ["approval"]);
  const params = { ...order, inputResponses: { approval: { action: "accept" } }, requestState: first.json?.result.requestState };
  const done = await modern(mcpUrl, 2, "tools/call", params, { capabilities: urlCapabilities });
  assert.match(toolText(done), /^Order #1 placed/);
});

test("elicitation.url_mode answers a client without elicitation.url with -32021 naming elicitation.url", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const seen = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: { form: {} } } });
  assert.equal(seen.json?.error.code, -32021);
  assert.deepEqual(seen.json?.error.data, { requiredCapabilities: { elicitation: { url: {} } } });
  assert.equal(seen.verdict.code, -32021);
  assert.equal(seen.verdict.retry.decision, "renegotiate");
  // The spec sends -32021 with HTTP 400; a tool's RpcError travels with 200 until the endpoint checks elicitation.url itself.
});

test("elicitation.url_mode with pendingRounds=1 asks again after the first accept", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"], pendingRounds: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: urlCapabilities });
  const params = { ...order, inputResponses: { approval: { action: "accept" } }, requestState: first.json?.result.requestState };
  const again = await modern(mcpUrl, 2, "tools/call", params, { capabilities: urlCapabilities });
  assert.deepEqual(Object.keys(again.json?.result.inputRequests ?? {}), ["approval-2"]);
});

test("elicitation.url_mode sends legacy elicitation/create with mode url and an elicitationId, then elicitation/complete", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const session = await legacySession(mcpUrl, "2025-11-25", urlCapabilities);
  const res = await session.post({ id: 1, method: "tools/call", params: order });
  const messages = await driveLegacyStream(session, res, () => ({ action: "accept" }));
  assert.deepEqual(messages.map((m) => m.method ?? "result"), ["elicitation/create", "notifications/elicitation/complete", "result"]);
  const elicitationId = messages[0]?.params.elicitationId;
  assert.equal(messages[0]?.params.mode, "url");
  assert.equal(typeof elicitationId, "string");
  assert.equal(messages[1]?.params.elicitationId, elicitationId);
  assert.match(finalResult(messages).content[0].text, /^Order #1 placed/);
});

test("elicitation.url_mode refuses a legacy client without elicitation.url with -32600 naming elicitation.url, as 2026-07-28 does with -32021", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.url_mode", { tools: ["place_order"] });
  const session = await legacySession(mcpUrl, "2025-06-18", { elicitation: {} });
  const res = await session.post({ id: 1, method: "tools/call", params: order });
  const messages = await driveLegacyStream(session, res, () => ({ action: "accept" }));
  assert.deepEqual(messages.map((m) => m.method ?? "response"), ["response"]);
  const error = messages[0]?.error;
  assert.equal(error.code, -32600);
  assert.equal(error.message, "Missing required client capability: place_order needs URL-mode elicitation (elicitation.url) (declare it in initialize's capabilities)");
  assert.deepEqual(error.data, { requiredCapabilities: { elicitation: { url: {} } } });
});
