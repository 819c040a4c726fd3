import { test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { journalOf } from "../helpers/journal.ts";
import { startMcpRemote } from "../helpers/mcp-remote.ts";
import { createSession, useServer } from "../helpers/server.ts";

// mcp-remote 0.15.1, the stdio bridge Claude Desktop users run, between the official v1 SDK client (standing in for
// the desktop host) and a real Faultline: what the journal and the checks make of it. The journal sees mcp-remote's
// requests, not the host's.

const server = useServer();

type Json = Record<string, any>;
const ORDER = { name: "place_order", arguments: { item: "widget", quantity: 1 } };
const HOST = "faultline-host (via mcp-remote 0.15.1)";

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}
const statusOf = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.status]));
const calls = (entries: JournalEntry[]) => entries.filter((e) => e.request.method === "POST" && e.rpc.method === "tools/call");
/** Journal entries until the one that satisfies `done` is in (mcp-remote's start-up requests come first). */
async function journalUntil(sessionId: string, done: (entries: JournalEntry[]) => boolean): Promise<JournalEntry[]> {
  for (let count = 1; ; count++) {
    const entries = await journalOf(server.url, sessionId, count);
    if (done(entries)) return entries;
  }
}

test("by default mcp-remote speaks 2025-11-25: its own probe handshake, then the host's initialize passed through under the host's name", async () => {
  const session = await createSession(server, "baseline");
  const remote = await startMcpRemote(session.mcpUrl);
  const result = (await remote.client.callTool({ name: "echo", arguments: { text: "hi" } })) as Json;
  await remote.close();
  assert.equal(result.content[0].text, "hi");

  const entries = await journalUntil(session.id, (all) => calls(all).length === 1);
  const initializes = entries.filter((e) => e.rpc.method === "initialize");
  // mcp-remote connects once by itself at start-up (a client named mcp-remote-fallback-test), then forwards the host's.
  assert.deepEqual(
    initializes.map((e) => [e.clientInfo?.name, JSON.parse(e.request.body.text).params.protocolVersion]),
    [["mcp-remote-fallback-test", "2025-11-25"], [HOST, "2025-11-25"]],
  );
  const [call] = calls(entries);
  assert.deepEqual([call?.era, call?.protocolVersion, call?.request.headers["mcp-protocol-version"]], ["legacy", "2025-11-25", "2025-11-25"]);
  assert.equal(call?.clientInfo?.name, HOST);
  assert.equal(entries.some((e) => e.rpc.method === "server/discover"), false, "legacy mode probes nothing");
});

test("with --protocol auto mcp-remote finds 2026-07-28 by server/discover and sends every call stateless, without initialize", async () => {
  const session = await createSession(server, "baseline");
  const remote = await startMcpRemote(session.mcpUrl, { args: ["--protocol", "auto"] });
  const result = (await remote.client.callTool({ name: "echo", arguments: { text: "hi" } })) as Json;
  await remote.close();
  assert.equal(result.content[0].text, "hi");

  const entries = await journalUntil(session.id, (all) => calls(all).length === 1);
  assert.equal(entries.some((e) => e.rpc.method === "initialize"), false, JSON.stringify(entries.map((e) => e.rpc.method)));
  assert.ok(entries.some((e) => e.rpc.method === "server/discover" && e.protocolVersion === "2026-07-28"));
  const [call] = calls(entries);
  assert.deepEqual([call?.era, call?.protocolVersion, call?.request.headers["mcp-protocol-version"]], ["modern", "2026-07-28", "2026-07-28"]);
  assert.equal(call?.request.headers["mcp-session-id"], undefined);
  // The host's identity travels in each request's _meta.
  assert.equal(call?.clientInfo?.name, HOST);
});

test("mcp-remote re-initializes after session.expire_after's 404 and sends place_order once more with the same id: both checks pass", async () => {
  // Each MCP session is good for notifications/initialized and one call; the second call gets the 404.
  const session = await createSession(server, "session.expire_after", { requests: 2 });
  const remote = await startMcpRemote(session.mcpUrl);
  const first = (await remote.client.callTool(ORDER)) as Json;
  const second = (await remote.client.callTool(ORDER)) as Json;
  await remote.close();
  // The host never saw the 404, and the 404'd request never ran: the second call placed order #2, once.
  assert.deepEqual([first.structuredContent.orderNumber, second.structuredContent.orderNumber], [1, 2]);

  const entries = await journalUntil(session.id, (all) => calls(all).length === 3);
  const [, gone, resent] = calls(entries);
  assert.equal(gone?.response.status, 404);
  assert.equal(gone?.effects, "none");
  assert.equal(resent?.effects, "ran");
  // mcp-remote re-sends the same JSON-RPC message on a new session: the wire cannot tell who sent it again.
  assert.equal(resent?.rpc.id, gone?.rpc.id);
  assert.notEqual(resent?.request.headers["mcp-session-id"], gone?.request.headers["mcp-session-id"]);
  assert.deepEqual([resent?.retryOf, resent?.retryOrigin], [gone?.seq, "unknown"]);
  const reinit = entries.find((e) => e.rpc.method === "initialize" && e.seq > (gone?.seq ?? 0));
  assert.equal(reinit?.rpc.id, "mcp-remote-reinit-1");
  assert.equal(reinit?.request.headers["mcp-session-id"], undefined);

  const checks = await checksOf(session.id);
  const status = statusOf(checks);
  assert.equal(status["session-reinitialized"], "pass", JSON.stringify(checks));
  assert.equal(status["non-idempotent-not-replayed"], "pass", JSON.stringify(checks));
  assert.deepEqual(checks.filter((c) => c.status === "fail"), []);
});

test("mcp-remote resumes streams.cut_with_resume with GET and Last-Event-ID; the resumed GET carries the call's verdict; a second order is no replay", async () => {
  const session = await createSession(server, "streams.cut_with_resume", { retryMs: 300, nth: 1 });
  const remote = await startMcpRemote(session.mcpUrl);
  const first = (await remote.client.callTool(ORDER)) as Json;
  // The host got its answer through the resumed stream; it orders again, deliberately.
  const second = (await remote.client.callTool(ORDER)) as Json;
  await remote.close();
  assert.deepEqual([first.structuredContent.orderNumber, second.structuredContent.orderNumber], [1, 2]);

  const entries = await journalUntil(session.id, (all) => calls(all).length === 2);
  const [cut, again] = calls(entries);
  const resumed = entries.find((e) => e.request.method === "GET" && e.request.headers["last-event-id"] !== undefined);
  assert.equal(cut?.verdict?.outcome, "STREAM_INCOMPLETE");
  const primed = cut?.response.sseEvents?.find((e) => e.id !== undefined)?.id;
  assert.equal(resumed?.request.headers["last-event-id"], primed);
  // §3: the resumed stream belongs to its call.
  assert.deepEqual(
    [resumed?.rpc.kind, resumed?.rpc.method, resumed?.rpc.id, resumed?.era, resumed?.protocolVersion, resumed?.verdict?.outcome],
    ["request", "tools/call", cut?.rpc.id, "legacy", "2025-11-25", "TOOL_SUCCESS"],
  );
  const successes = (await (await fetch(`${server.url}/api/sessions/${session.id}/journal?outcome=TOOL_SUCCESS`)).json()) as { entries: JournalEntry[] };
  assert.ok(successes.entries.some((e) => e.seq === resumed?.seq), "journal?outcome=TOOL_SUCCESS lists the resumed GET");
  // The first call was answered (on the resumed stream), so the second is a new call, not a retry of the first.
  assert.equal(again?.retryOf, undefined);

  const checks = await checksOf(session.id);
  const status = statusOf(checks);
  assert.equal(status["stream-resumed"], "pass", JSON.stringify(checks));
  assert.equal(status["stream-retry-honoured"], "pass", JSON.stringify(checks));
  assert.equal(status["request-after-cut"], "pass", JSON.stringify(checks));
  const replay = checks.find((c) => c.id === "non-idempotent-not-replayed");
  assert.equal(replay?.status, "info", replay?.message);
  assert.match(replay?.message ?? "", /answered on the resumed stream/);
  assert.deepEqual(checks.filter((c) => c.status === "fail"), []);
});

test("after a 503 mcp-remote does not retry by itself: the host's new request is the retry, read from the wire as the application's", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 200], countMethods: ["tools/call"] });
  const remote = await startMcpRemote(session.mcpUrl);
  // mcp-remote answers the host with a JSON-RPC error of its own (-32001) that names no status: the 503 had no body.
  await assert.rejects(remote.client.callTool({ name: "echo", arguments: { text: "hi" } }), /-32001: mcp-remote: Error POSTing to endpoint/);
  const result = (await remote.client.callTool({ name: "echo", arguments: { text: "hi" } })) as Json;
  await remote.close();
  assert.equal(result.content[0].text, "hi");

  const entries = await journalUntil(session.id, (all) => calls(all).length === 2);
  const [refused, retry] = calls(entries);
  assert.deepEqual([refused?.response.status, retry?.response.status], [503, 200]);
  // Same MCP session, same clientInfo, a new JSON-RPC id: the host's SDK numbered a new request.
  assert.equal(retry?.request.headers["mcp-session-id"], refused?.request.headers["mcp-session-id"]);
  assert.notEqual(retry?.rpc.id, refused?.rpc.id);
  assert.deepEqual([retry?.retryOf, retry?.retryOrigin], [refused?.seq, "application"]);

  const checks = await checksOf(session.id);
  const backoff = checks.find((c) => c.id === "http-retry-backoff");
  assert.deepEqual(backoff?.retries?.map((r) => [r.seq, r.retryOf, r.retryOrigin]), [[retry?.seq, refused?.seq, "application"]], JSON.stringify(checks));
  const bounded = checks.find((c) => c.id === "http-retry-bounded");
  assert.equal(bounded?.status, "pass", bounded?.message);
});
