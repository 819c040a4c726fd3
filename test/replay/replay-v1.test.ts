import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { useServer } from "../helpers/server.ts";
import { type Json, newSession, posts, replayOf, textOf, verdicts } from "./helpers.ts";

// The official v1 client (@modelcontextprotocol/sdk, 2025-11-25) against a recorded session, then against its replay.

const server = useServer();

async function connect(mcpUrl: string): Promise<Client> {
  const client = new Client({ name: "faultline-replay-v1", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

const echo = (text: string) => ({ name: "echo", arguments: { text } });

/** Four calls under a script: a success, an isError result, a 503 and a success, answered on SSE streams. */
const SCRIPTED = {
  scenario: "script",
  params: {
    responseMode: "sse",
    rules: [
      { match: { method: "tools/call", nth: 2 }, fault: { kind: "tool_error", text: "scripted failure" } },
      { match: { method: "tools/call", nth: 3 }, fault: { kind: "http_status", status: 503 } },
    ],
  },
};

/** What a v1 application does against SCRIPTED: what each call gave, as it saw it. */
async function scriptedRun(mcpUrl: string): Promise<string[]> {
  const client = await connect(mcpUrl);
  const seen: string[] = [];
  for (const text of ["one", "two", "three", "four"]) {
    try {
      const result = (await client.callTool(echo(text))) as Json;
      seen.push(`${result.isError ? "isError" : "ok"}: ${textOf(result)}`);
    } catch (error) {
      seen.push(`threw: ${String(error)}`);
    }
  }
  await client.close();
  return seen;
}

test("a recorded script session replayed to the same v1 client gives it the same answers and the journal the same sequence of verdicts", async () => {
  const recorded = await newSession(server.url, { ...SCRIPTED, record: true });
  const original = await scriptedRun(recorded.mcpUrl);
  // initialize, notifications/initialized and the four calls.
  const recordedPosts = await posts(server.url, recorded.id, 6);

  const replay = await replayOf(server.url, recorded.id);
  const replayed = await scriptedRun(replay.mcpUrl);
  const replayedPosts = await posts(server.url, replay.id, 6);

  assert.deepEqual(replayed, original);
  assert.match(original[1]!, /^isError: scripted failure/);
  assert.match(original[2]!, /^threw: .*Error POSTing to endpoint/);
  assert.deepEqual(verdicts(replayedPosts), verdicts(recordedPosts));
  assert.equal(verdicts(recordedPosts)[4], "tools/call 503 HTTP_ERROR");
  // The replay decided nothing itself: every answer came from the recording.
  assert.deepEqual(replayedPosts.filter((e) => e.fault), []);
});

test("the replayed initialize opens a new MCP session under a new Mcp-Session-Id, which the v1 client's later requests use", async () => {
  const recorded = await newSession(server.url, { scenario: "baseline", record: true });
  const first = await connect(recorded.mcpUrl);
  await first.callTool(echo("hello"));
  await first.close();
  const recordedPosts = await posts(server.url, recorded.id, 3);

  const replay = await replayOf(server.url, recorded.id);
  const second = await connect(replay.mcpUrl);
  assert.equal(textOf((await second.callTool(echo("hello"))) as Json), "hello");
  await second.close();
  const replayedPosts = await posts(server.url, replay.id, 3);

  const recordedId = recordedPosts[0]!.response.headers["mcp-session-id"];
  const replayedId = replayedPosts[0]!.response.headers["mcp-session-id"];
  assert.ok(recordedId && replayedId);
  assert.notEqual(replayedId, recordedId);
  assert.deepEqual(replayedPosts.slice(1).map((e) => [e.request.headers["mcp-session-id"], e.response.status]), [[replayedId, 202], [replayedId, 200]]);
});

test("distinct calls replayed out of order each get their own recorded answer", async () => {
  const recorded = await newSession(server.url, { scenario: "baseline", record: true });
  const first = await connect(recorded.mcpUrl);
  for (const text of ["alpha", "beta", "gamma"]) await first.callTool(echo(text));
  await first.close();
  await posts(server.url, recorded.id, 5);

  const replay = await replayOf(server.url, recorded.id);
  const second = await connect(replay.mcpUrl);
  const answers: string[] = [];
  for (const text of ["gamma", "alpha", "beta"]) answers.push(textOf((await second.callTool(echo(text))) as Json));
  await second.close();
  assert.deepEqual(answers, ["gamma", "alpha", "beta"]);
});

test("a call recorded twice replays its two answers in order, and a third gets a JSON-RPC error saying all were replayed", async () => {
  const recorded = await newSession(server.url, { scenario: "baseline", record: true });
  const order = { name: "place_order", arguments: { item: "tea", quantity: 1 } };
  const first = await connect(recorded.mcpUrl);
  const orders = [((await first.callTool(order)) as Json).structuredContent.orderNumber, ((await first.callTool(order)) as Json).structuredContent.orderNumber];
  await first.close();
  assert.deepEqual(orders, [1, 2]);
  await posts(server.url, recorded.id, 4);

  const replay = await replayOf(server.url, recorded.id);
  const second = await connect(replay.mcpUrl);
  const replayed = [((await second.callTool(order)) as Json).structuredContent.orderNumber, ((await second.callTool(order)) as Json).structuredContent.orderNumber];
  assert.deepEqual(replayed, [1, 2]);
  await assert.rejects(second.callTool(order), /-32600.*recorded 2 times, and every one was replayed already/);
  await second.close();

  const entries = await posts(server.url, replay.id, 5);
  // The replayed calls stand for calls whose tool ran; the third ran nothing.
  assert.deepEqual(entries.slice(2).map((e) => e.effects), ["ran", "ran", "none"]);
});

test("an unrecorded call gets a JSON-RPC error saying nothing was recorded for it, and the journal names it as the replay's finding", async () => {
  const recorded = await newSession(server.url, { scenario: "baseline", record: true });
  const first = await connect(recorded.mcpUrl);
  await first.callTool(echo("recorded"));
  await first.close();
  await posts(server.url, recorded.id, 3);

  const replay = await replayOf(server.url, recorded.id);
  const second = await connect(replay.mcpUrl);
  await assert.rejects(second.callTool(echo("never recorded")), /-32600.*nothing was recorded for tools\/call of tool 'echo' with these arguments/);
  // The same tool with its recorded arguments still finds its answer.
  assert.equal(textOf((await second.callTool(echo("recorded"))) as Json), "recorded");
  await second.close();

  const [unmatched] = (await posts(server.url, replay.id, 4)).filter((e) => e.fault);
  assert.equal(unmatched?.rpc.toolName, "echo");
  assert.equal(unmatched?.fault?.kind, "jsonrpc_error");
  assert.match(unmatched?.fault?.rule ?? "", /^replay: no recorded exchange left for tools\/call of tool 'echo'/);
  assert.equal(unmatched?.verdict?.outcome, "JSONRPC_ERROR");
});
