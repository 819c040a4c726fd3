import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { postModern, useServer } from "../helpers/server.ts";
import { type Json, newSession, posts, replayOf, verdicts } from "./helpers.ts";

// The official v2 client (@modelcontextprotocol/client) in the legacy era and in 2026-07-28, where an approval is an
// input_required result whose requestState the client sends back with its answer.

const server = useServer();

const MODES: { label: string; mode: VersionNegotiationMode; era: "legacy" | "modern" }[] = [
  { label: "legacy", mode: "legacy", era: "legacy" },
  { label: "auto (2026-07-28)", mode: "auto", era: "modern" },
];

const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };
const textOf = (result: Json) => (result.content as Json[]).map((c) => c.text).join("");

async function connect(t: TestContext, mode: VersionNegotiationMode, mcpUrl: string) {
  const client = new Client({ name: "faultline-replay-v2", version: "0.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode } });
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { approved: true } }));
  t.after(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

/** An approved order and an echo, as the application saw them. */
async function approvalRun(t: TestContext, mode: VersionNegotiationMode, mcpUrl: string): Promise<string[]> {
  const client = await connect(t, mode, mcpUrl);
  const ordered = textOf(await client.callTool(ORDER));
  const echoed = textOf(await client.callTool({ name: "echo", arguments: { text: "after the order" } }));
  await client.close();
  return [ordered, echoed];
}

/** The requestState of every input_required answer in a journal's POSTs. */
function requestStates(entries: { response: { body: { text: string }; sseEvents?: { data: string }[] } }[]): string[] {
  return entries.flatMap((e) => {
    const texts = e.response.sseEvents ? e.response.sseEvents.map((s) => s.data) : [e.response.body.text];
    return texts.flatMap((text) => {
      try {
        const state = (JSON.parse(text) as Json).result?.requestState;
        return typeof state === "string" ? [state] : [];
      } catch {
        return [];
      }
    });
  });
}

for (const { label, mode, era } of MODES) {
  test(`v2 ${label}: a recorded elicitation.approval session replays to the same answers and the same sequence of verdicts`, async (t) => {
    const recorded = await newSession(server.url, { scenario: "elicitation.approval", record: true });
    const original = await approvalRun(t, mode, recorded.mcpUrl);
    assert.deepEqual(original, ["Order #1 placed: 2 x tea", "after the order"]);
    // legacy: initialize, initialized, the call, the client's elicitation answer, echo; 2026-07-28: discover, the
    // call, its retry with the answer, echo.
    const count = era === "legacy" ? 5 : 4;
    const recordedPosts = await posts(server.url, recorded.id, count);

    const replay = await replayOf(server.url, recorded.id);
    const replayed = await approvalRun(t, mode, replay.mcpUrl);
    const replayedPosts = await posts(server.url, replay.id, count);

    assert.deepEqual(replayed, original);
    assert.deepEqual(verdicts(replayedPosts), verdicts(recordedPosts));
    assert.deepEqual(replayedPosts.filter((e) => e.fault), []);
    if (era === "modern") {
      // The client got a requestState this replay issued, not the recorded one, and its retry carried it back.
      const [recordedState] = requestStates(recordedPosts);
      const [replayedState] = requestStates(replayedPosts);
      assert.ok(recordedState && replayedState);
      assert.notEqual(replayedState, recordedState);
      assert.match(replayedState, /^replay-[0-9a-f]{32}$/);
      const retry = replayedPosts.find((e) => e.request.body.text.includes("inputResponses"));
      assert.equal(JSON.parse(retry!.request.body.text).params.requestState, replayedState);
    }
  });
}

test("2026-07-28: a requestState the replay did not issue gets -32602, as a server that cannot verify it answers", async () => {
  const recorded = await newSession(server.url, { scenario: "elicitation.approval", record: true });
  const capabilities = { elicitation: {} };
  const first = (await (await postModern(recorded.mcpUrl, 1, "tools/call", ORDER, { capabilities })).json()) as Json;
  assert.equal(first.result.resultType, "input_required");
  await posts(server.url, recorded.id, 1);

  const replay = await replayOf(server.url, recorded.id);
  const forged = { ...ORDER, requestState: first.result.requestState, inputResponses: { approval: { action: "accept", content: { approved: true } } } };
  const answer = (await (await postModern(replay.mcpUrl, 2, "tools/call", forged, { capabilities })).json()) as Json;
  assert.equal(answer.error?.code, -32602);
  assert.match(answer.error?.message, /requestState was not issued by this replay/);
  // The recorded first call is still there for the request that starts the round.
  const started = (await (await postModern(replay.mcpUrl, 3, "tools/call", ORDER, { capabilities })).json()) as Json;
  assert.equal(started.id, 3);
  assert.equal(started.result.resultType, "input_required");
  assert.match(started.result.requestState, /^replay-/);
});
