import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, MODERN, useServer } from "../../helpers/server.ts";
import { modern, call, legacy, toolText, driveLegacyStream, finalResult, type Json } from "../../helpers/seen.ts";

// compat.sdk_v2: its three tools, the Mcp-Param-Region header and MRTR, in both eras.
const server = useServer();

test("compat.sdk_v2 show_negotiated_mcp_protocol reports the modern era and 2026-07-28", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("show_negotiated_mcp_protocol"));
  assert.equal(seen.status, 200, seen.text);
  assert.deepEqual(seen.json?.result.structuredContent, { era: "modern", protocolVersion: MODERN, clientCapabilities: [] });
  assert.equal(seen.json?.result.resultType, "complete");
  assert.equal(seen.verdict.outcome, "TOOL_SUCCESS");
});

test("compat.sdk_v2 show_negotiated_mcp_protocol reports the legacy era and the version initialize negotiated", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const session = await legacySession(mcpUrl, "2025-06-18");
  const seen = await legacy(session, { id: 1, method: "tools/call", params: call("show_negotiated_mcp_protocol") });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.json?.result.structuredContent.era, "legacy");
  assert.equal(seen.json?.result.structuredContent.protocolVersion, "2025-06-18");
  assert.equal(seen.json?.result.resultType, undefined);
});

test("compat.sdk_v2 lists its tools with truthful annotations and x-mcp-header Region on the region argument", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/list");
  const tools = seen.json?.result.tools as Json[];
  const byName = (name: string) => tools.find((t) => t.name === name) as Json;
  const region = byName("verify_order_region_param_header");
  assert.equal(region.inputSchema.properties.region["x-mcp-header"], "Region");
  assert.deepEqual(region.inputSchema.required, ["region"]);
  assert.equal(region.annotations.readOnlyHint, true);
  assert.equal(byName("show_negotiated_mcp_protocol").annotations.readOnlyHint, true);
  const close = byName("simulate_ticket_close_mrtr").annotations;
  assert.deepEqual([close.readOnlyHint, close.destructiveHint, close.idempotentHint, close.openWorldHint], [false, false, true, false]);
});

test("compat.sdk_v2 verify_order_region_param_header reports a matching Mcp-Param-Region header", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "eu-west" }), { headers: { "mcp-param-region": "eu-west" } });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.json?.result.structuredContent.matched, true);
  assert.equal(seen.json?.result.isError, undefined);
});

test("compat.sdk_v2 verify_order_region_param_header decodes a base64-encoded non-ASCII header before comparing", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const encoded = `=?base64?${Buffer.from("Zürich", "utf8").toString("base64")}?=`;
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "Zürich" }), { headers: { "mcp-param-region": encoded } });
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.json?.result.structuredContent.matched, true);
});

test("compat.sdk_v2 answers a mismatched Mcp-Param-Region with 400 and HeaderMismatch -32020 before the tool runs", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "eu-west" }), { headers: { "mcp-param-region": "us-east" } });
  assert.equal(seen.status, 400);
  assert.equal(seen.json?.error.code, -32020);
  assert.match(seen.json?.error.message, /Mcp-Param-Region/);
  assert.equal(seen.verdict.code, -32020);
  assert.equal(seen.verdict.retry.decision, "fix-input");
});

test("compat.sdk_v2 answers a missing Mcp-Param-Region with 400 and -32020 in 2026-07-28", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("verify_order_region_param_header", { region: "eu-west" }));
  assert.equal(seen.status, 400);
  assert.equal(seen.json?.error.code, -32020);
});

test("compat.sdk_v2 verify_order_region_param_header expects no header in the legacy era", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const session = await legacySession(mcpUrl);
  const seen = await legacy(session, { id: 1, method: "tools/call", params: call("verify_order_region_param_header", { region: "eu-west" }) });
  assert.equal(seen.status, 200, seen.text);
  assert.deepEqual(seen.json?.result.structuredContent, { era: "legacy", region: "eu-west", header: null, matched: false, headerRequired: false });
});

test("compat.sdk_v2 simulate_ticket_close_mrtr asks for confirmation with input_required and closes the ticket on accept", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const capabilities = { elicitation: {} };
  const params = call("simulate_ticket_close_mrtr", { ticketId: "TCK-7" });
  const first = await modern(mcpUrl, 1, "tools/call", params, { capabilities });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json?.result.resultType, "input_required");
  assert.equal(first.json?.result.inputRequests.confirm.method, "elicitation/create");
  assert.equal(first.verdict.outcome, "INPUT_REQUIRED");
  assert.deepEqual(first.verdict.retry.inputKeys, ["confirm"]);

  const retry = { ...params, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: first.json?.result.requestState };
  const second = await modern(mcpUrl, 2, "tools/call", retry, { capabilities });
  assert.equal(second.json?.result.resultType, "complete");
  assert.equal(toolText(second), "Ticket TCK-7 closed.");
  assert.equal(second.verdict.outcome, "TOOL_SUCCESS");
});

test("compat.sdk_v2 simulate_ticket_close_mrtr gives isError when the confirmation is declined", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const capabilities = { elicitation: {} };
  const params = call("simulate_ticket_close_mrtr");
  const first = await modern(mcpUrl, 1, "tools/call", params, { capabilities });
  const retry = { ...params, inputResponses: { confirm: { action: "decline" } }, requestState: first.json?.result.requestState };
  const second = await modern(mcpUrl, 2, "tools/call", retry, { capabilities });
  assert.equal(second.json?.result.isError, true);
  assert.match(toolText(second), /not closed \(decline\)/);
  assert.equal(second.verdict.outcome, "TOOL_ERROR");
});

test("compat.sdk_v2 simulate_ticket_close_mrtr needs the elicitation capability in 2026-07-28 (400, -32021)", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const seen = await modern(mcpUrl, 1, "tools/call", call("simulate_ticket_close_mrtr"));
  assert.equal(seen.status, 400);
  assert.equal(seen.json?.error.code, -32021);
  assert.equal(seen.verdict.retry.decision, "renegotiate");
});

test("compat.sdk_v2 simulate_ticket_close_mrtr sends elicitation/create on the legacy SSE stream and closes on accept", async () => {
  const { mcpUrl } = await createSession(server, "compat.sdk_v2");
  const session = await legacySession(mcpUrl, "2025-11-25", { elicitation: {} });
  const res = await session.post({ id: 1, method: "tools/call", params: call("simulate_ticket_close_mrtr", { ticketId: "TCK-9" }) });
  const messages = await driveLegacyStream(session, res, () => ({ action: "accept", content: { confirm: true } }));
  assert.equal(messages[0]?.method, "elicitation/create");
  assert.equal(finalResult(messages).content[0].text, "Ticket TCK-9 closed.");
});
