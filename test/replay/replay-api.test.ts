import { test } from "node:test";
import assert from "node:assert/strict";
import { postModern, useServer } from "../helpers/server.ts";
import { type Json, newSession, postSession, posts, replayOf, verdicts } from "./helpers.ts";

// Record and replay over raw 2026-07-28 requests (no MCP session, so each POST stands alone): timing, the HAR round
// trip, the refusals at creation and faults on top of a replay.

const server = useServer();

const echo = (text: string) => ({ name: "echo", arguments: { text } });

/** A tools/call of echo, answered as JSON or SSE; returns the status, the answer message and the raw body. */
async function callEcho(mcpUrl: string, id: number, text: string): Promise<{ status: number; message: Json | undefined; body: string }> {
  const res = await postModern(mcpUrl, id, "tools/call", echo(text));
  const body = await res.text();
  const data = (res.headers.get("content-type") ?? "").includes("text/event-stream") ? body.split("\n").filter((l) => l.startsWith("data: {")).at(-1)?.slice(6) : body;
  let message: Json | undefined;
  try {
    message = data ? (JSON.parse(data) as Json) : undefined;
  } catch {
    message = undefined;
  }
  return { status: res.status, message, body };
}

async function recordedEchoes(texts: string[], scenario: Json = { scenario: "baseline" }): Promise<{ id: string; mcpUrl: string }> {
  const session = await newSession(server.url, { ...scenario, record: true });
  for (const [i, text] of texts.entries()) await callEcho(session.mcpUrl, i + 1, text);
  await posts(server.url, session.id, texts.length);
  return session;
}

async function uploadHar(har: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/api/recordings`, { method: "POST", headers: { "content-type": "application/json" }, body: har });
  return { status: res.status, body: (await res.json()) as Json };
}

const exportHar = async (sessionId: string) => (await fetch(`${server.url}/api/sessions/${sessionId}/journal?format=har`)).text();

// ---- timing ----

const STALL_MS = 3000;

test("timing recorded replays an SSE event when it was recorded, and timing fast replays it at once, with the same bytes", async () => {
  // The answer's event went out STALL_MS after the stream's first comment.
  const recorded = await recordedEchoes(["slow"], { scenario: "timeouts.stall_mid_stream", params: { ms: STALL_MS } });
  const [original] = await posts(server.url, recorded.id, 1);
  assert.ok(original!.durationMs >= STALL_MS);

  for (const timing of ["recorded", "fast"] as const) {
    const replay = await replayOf(server.url, recorded.id, { timing });
    const { status, message, body } = await callEcho(replay.mcpUrl, 1, "slow");
    assert.equal(status, 200);
    assert.equal(message?.result.content[0].text, "slow");
    assert.match(body, /^: faultline stall begins\n\n/);
    const [entry] = await posts(server.url, replay.id, 1);
    assert.deepEqual(entry!.response.sseEvents, original!.response.sseEvents);
    // A lower bound for the recorded timing; fast skips the whole recorded silence.
    if (timing === "recorded") assert.ok(entry!.durationMs >= STALL_MS, `recorded: ${entry!.durationMs} ms`);
    else assert.ok(entry!.durationMs < STALL_MS, `fast: ${entry!.durationMs} ms`);
  }
});

// ---- HAR ----

test("Faultline's own HAR export uploads back and replays to the same answers and verdicts", async () => {
  const recorded = await recordedEchoes(["first", "second", "third"], { scenario: "baseline", params: { responseMode: "sse" } });
  const upload = await uploadHar(await exportHar(recorded.id));
  assert.equal(upload.status, 201, JSON.stringify(upload.body));
  assert.equal(upload.body.exchanges, 3);
  assert.deepEqual(upload.body.replay, { scenario: "replay", params: { har: upload.body.id } });

  const replay = await newSession(server.url, { ...upload.body.replay, params: { ...upload.body.replay.params, timing: "fast" } });
  const answers: string[] = [];
  for (const [i, text] of ["third", "first", "second"].entries()) answers.push((await callEcho(replay.mcpUrl, 10 + i, text)).message?.result.content[0].text);
  assert.deepEqual(answers, ["third", "first", "second"]);
  assert.deepEqual(verdicts(await posts(server.url, replay.id, 3)), verdicts(await posts(server.url, recorded.id, 3)));

  // Deleting the upload leaves the replay its own copy; a replay of the deleted upload is refused.
  assert.equal((await fetch(`${server.url}/api/recordings/${upload.body.id}`, { method: "DELETE" })).status, 204);
  assert.equal((await fetch(`${server.url}/api/recordings/${upload.body.id}`, { method: "DELETE" })).status, 404);
  const refused = await postSession(server.url, { scenario: "replay", params: { har: upload.body.id } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.issues[0].rule, "no_recording");
});

test("a HAR whose body the journal cut at its display cap is refused at upload with a 400 that names the entry", async () => {
  const recorded = await recordedEchoes(["x".repeat(70 * 1024)]);
  const upload = await uploadHar(await exportHar(recorded.id));
  assert.equal(upload.status, 400);
  assert.equal(upload.body.error.code, "recording_truncated");
  assert.match(upload.body.error.message, /entry 0: a body was cut at the journal's display cap/);
});

test("a HAR whose request arguments were redacted is refused at upload, since no real request could match them", async () => {
  const recorded = await recordedEchoes(["my key is sk-abcdefghijklmnop"]);
  const upload = await uploadHar(await exportHar(recorded.id));
  assert.equal(upload.status, 400);
  assert.equal(upload.body.error.code, "recording_truncated");
  assert.match(upload.body.error.message, /entry 0: the request's arguments were redacted/);
  // The session's own recording took its digests before redaction: it replays.
  const replay = await replayOf(server.url, recorded.id);
  assert.equal((await callEcho(replay.mcpUrl, 1, "my key is sk-abcdefghijklmnop")).message?.result.content[0].text, "my key is sk-abcdefghijklmnop");
});

test("a HAR with nothing to replay, or not a HAR, is refused with a 400, and one over 8 MiB with a 413", async () => {
  const unanswered = { request: { method: "POST", postData: { text: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) } }, response: { status: 0 } };
  const empty = await uploadHar(JSON.stringify({ log: { entries: [{ request: { method: "GET", url: "http://x/" }, response: { status: 200 } }, unanswered] } }));
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.code, "nothing_to_replay");
  // The unanswered POST is reported, not replayed as a response no server can send.
  const one = await uploadHar(JSON.stringify({ log: { entries: [unanswered, { ...unanswered, response: { status: 200, content: { text: "{}" } } }] } }));
  assert.equal(one.status, 201);
  assert.deepEqual([one.body.exchanges, one.body.skipped], [1, [{ index: 0, reason: "no response was recorded (status 0)" }]]);
  const notHar = await uploadHar(JSON.stringify({ entries: [] }));
  assert.equal(notHar.status, 400);
  assert.equal(notHar.body.error.issues[0].path, "log");
  const large = await uploadHar(JSON.stringify({ log: { entries: [], pad: "x".repeat(8 * 1024 * 1024) } }));
  assert.equal(large.status, 413);
});

// ---- refusals at creation ----

test("a recording with a request body past the recording's own limit is refused at replay creation with a 400 that says why", async () => {
  // Only the request is long: echo answers the short text and ignores the padding.
  const recorded = await newSession(server.url, { scenario: "baseline", record: true });
  const answer = await postModern(recorded.mcpUrl, 1, "tools/call", { name: "echo", arguments: { text: "short", padding: "y".repeat(600 * 1024) } });
  assert.equal(answer.status, 200);
  await answer.text();
  await posts(server.url, recorded.id, 1);
  const refused = await postSession(server.url, { scenario: "replay", params: { from: recorded.id } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, "recording_truncated");
  assert.match(refused.body.error.message, /exchange 1: a body was cut at the recording's limit of 524288 characters/);
  assert.equal(refused.body.error.issues[0].path, "params.from");
});

test("a replay needs exactly one existing source, and faults go only on a replay", async () => {
  const neither = await postSession(server.url, { scenario: "replay" });
  assert.deepEqual([neither.status, neither.body.error.issues[0].path, neither.body.error.issues[0].rule], [400, "params.from", "one_source"]);
  const both = await postSession(server.url, { scenario: "replay", params: { from: "abc", har: "0".repeat(32) } });
  assert.deepEqual([both.status, both.body.error.issues[0].rule], [400, "one_source"]);
  const unrecorded = await newSession(server.url, { scenario: "baseline" });
  const nothing = await postSession(server.url, { scenario: "replay", params: { from: unrecorded.id } });
  assert.deepEqual([nothing.status, nothing.body.error.issues[0].rule], [400, "no_recording"]);
  const misplaced = await postSession(server.url, { scenario: "baseline", faults: { scenario: "errors.tool_error" } });
  assert.deepEqual([misplaced.status, misplaced.body.error.issues[0].path, misplaced.body.error.issues[0].rule], [400, "faults", "replay_only"]);
  const recorded = await recordedEchoes(["a"]);
  const unknown = await postSession(server.url, { scenario: "replay", params: { from: recorded.id }, faults: { scenario: "errors.nope" } });
  assert.deepEqual([unknown.status, unknown.body.error.issues[0].path], [400, "faults.scenario"]);
  const badParams = await postSession(server.url, { scenario: "replay", params: { from: recorded.id }, faults: { scenario: "envelope.wrong_id", params: { nth: 0 } } });
  assert.deepEqual([badParams.status, badParams.body.error.issues[0].path], [400, "faults.params.nth"]);
});

// ---- faults on top ----

test("a fault on top of a replay shapes the recorded answer where it would shape the handler's", async () => {
  const recorded = await recordedEchoes(["kept"]);
  const replay = await replayOf(server.url, recorded.id, {}, { faults: { scenario: "envelope.wrong_id" } });
  const { message } = await callEcho(replay.mcpUrl, 7, "kept");
  assert.equal(message?.id, 1007);
  assert.equal(message?.result.content[0].text, "kept");
  const [entry] = await posts(server.url, replay.id, 1);
  assert.equal(entry!.fault?.kind, "envelope");
  assert.equal(entry!.scenario, "replay");
  assert.equal(entry!.verdict?.outcome, "INVALID_ENVELOPE");
});

test("a transport fault on top of a replay answers before the recording, so the retry still gets the recorded answer", async () => {
  const recorded = await recordedEchoes(["once"]);
  const faults = { scenario: "errors.http_status_sequence", params: { statusCodes: [503, 200], countMethods: ["tools/call"] } };
  const replay = await replayOf(server.url, recorded.id, {}, { faults });
  const first = await callEcho(replay.mcpUrl, 1, "once");
  const retry = await callEcho(replay.mcpUrl, 2, "once");
  assert.equal(first.status, 503);
  assert.deepEqual([retry.status, retry.message?.id, retry.message?.result.content[0].text], [200, 2, "once"]);
  // The session's reset starts the replay over, faults included.
  await fetch(`${server.url}/api/sessions/${replay.id}/reset`, { method: "POST" });
  assert.equal((await callEcho(replay.mcpUrl, 3, "once")).status, 503);
  assert.equal((await callEcho(replay.mcpUrl, 4, "once")).message?.result.content[0].text, "once");
});

// ---- changing a session's scenario to replay ----

const putScenario = async (id: string, body: Json) => {
  const res = await fetch(`${server.url}/api/sessions/${id}/scenario`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
};

test("a switch to replay whose recording cannot be loaded is refused and leaves the old scenario live and answering", async () => {
  const unrecorded = await newSession(server.url, { scenario: "baseline" });
  const session = await newSession(server.url, { scenario: "errors.tool_error", params: { tools: ["echo"], nth: 2 } });
  assert.equal((await callEcho(session.mcpUrl, 1, "one")).message?.result?.isError, undefined);
  const refused = await putScenario(session.id, { scenario: "replay", params: { from: unrecorded.id } });
  assert.deepEqual([refused.status, refused.body.error.issues[0].rule], [400, "no_recording"]);
  const view = (await (await fetch(`${server.url}/api/sessions/${session.id}`)).json()) as Json;
  assert.deepEqual([view.scenario, view.params.nth, view.counters["tool-calls:echo"]], ["errors.tool_error", 2, 1]);
  // Still the old scenario, its counters going on: the second echo is its injected tool error.
  assert.equal((await callEcho(session.mcpUrl, 2, "two")).message?.result?.isError, true);
});

test("a switch to replay answers its very first request from the recording", async () => {
  const recorded = await recordedEchoes(["from the recording"]);
  const session = await newSession(server.url, { scenario: "baseline" });
  const switched = await putScenario(session.id, { scenario: "replay", params: { from: recorded.id, timing: "fast" } });
  assert.equal(switched.status, 200, JSON.stringify(switched.body));
  const first = await callEcho(session.mcpUrl, 1, "from the recording");
  assert.equal(first.message?.result?.content?.[0]?.text, "from the recording");
  const entry = (await posts(server.url, session.id, 1))[0]!;
  assert.equal(entry.scenario, "replay");
});
