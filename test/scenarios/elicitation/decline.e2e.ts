import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, legacySession, useServer } from "../../helpers/server.ts";
import { modern, call, toolText, driveLegacyStream, finalResult, type Json, type Seen } from "../../helpers/seen.ts";

// elicitation.decline: declines, cancels and repeated rounds, in both eras.
const server = useServer();

async function declineRound(mcpUrl: string, previous: Seen, id: number, key: string, answer: Json): Promise<Seen> {
  const params = { ...call("place_order", { item: "tea", quantity: 1 }), inputResponses: { [key]: answer }, requestState: previous.json?.result.requestState };
  return modern(mcpUrl, id, "tools/call", params, { capabilities: { elicitation: {} } });
}

const order = call("place_order", { item: "tea", quantity: 1 });

test("elicitation.decline reports a decline as isError with action decline", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"] });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  assert.equal(first.verdict.outcome, "INPUT_REQUIRED");
  assert.deepEqual(first.verdict.retry.inputKeys, ["approval"]);
  const seen = await declineRound(mcpUrl, first, 2, "approval", { action: "decline" });
  assert.equal(seen.json?.result.isError, true);
  assert.match(toolText(seen), /^Declined:/);
  assert.deepEqual(seen.json?.result.structuredContent, { tool: "place_order", action: "decline", rounds: 1 });
  assert.equal(seen.verdict.outcome, "TOOL_ERROR");
});

test("elicitation.decline reports a cancel differently from a decline", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"] });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  const seen = await declineRound(mcpUrl, first, 2, "approval", { action: "cancel" });
  assert.match(toolText(seen), /^Cancelled:/);
  assert.equal(seen.json?.result.structuredContent.action, "cancel");
});

test("elicitation.decline with repeat=1 asks again after a decline with a new input_required, then gives up", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"], repeat: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  const again = await declineRound(mcpUrl, first, 2, "approval", { action: "decline" });
  assert.equal(again.json?.result.resultType, "input_required");
  assert.match(again.json?.result.inputRequests["approval-2"].params.message, /declined 1 time/);
  assert.notEqual(again.json?.result.requestState, first.json?.result.requestState);
  assert.deepEqual(again.verdict.retry.inputKeys, ["approval-2"]);
  const last = await declineRound(mcpUrl, again, 3, "approval-2", { action: "decline" });
  assert.equal(last.json?.result.isError, true);
  assert.equal(last.json?.result.structuredContent.rounds, 2);
});

test("elicitation.decline with repeat=1 runs the tool when the second round is accepted", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"], repeat: 1 });
  const first = await modern(mcpUrl, 1, "tools/call", order, { capabilities: { elicitation: {} } });
  const again = await declineRound(mcpUrl, first, 2, "approval", { action: "decline" });
  const done = await declineRound(mcpUrl, again, 3, "approval-2", { action: "accept", content: { approved: true } });
  assert.match(toolText(done), /^Order #1 placed/);
});

test("elicitation.decline with repeat=1 asks twice on the legacy SSE stream", async () => {
  const { mcpUrl } = await createSession(server, "elicitation.decline", { tools: ["place_order"], repeat: 1 });
  const session = await legacySession(mcpUrl, "2025-11-25", { elicitation: {} });
  const res = await session.post({ id: 1, method: "tools/call", params: order });
  let asked = 0;
  const messages = await driveLegacyStream(session, res, () => (++asked === 1 ? { action: "decline" } : { action: "accept", content: { approved: true } }));
  assert.deepEqual(messages.map((m) => m.method ?? "result"), ["elicitation/create", "elicitation/create", "result"]);
  assert.match(finalResult(messages).content[0].text, /^Order #1 placed/);
});
