import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createTestHarness } from "wrangler";
import { MODERN, modernMeta } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";
import { startUpstream } from "../helpers/upstream.ts";

// Issue 23: one request's body is parsed once, by the read stage, whatever happens after it (the journal's append
// with its call digests, redaction and the checks' projection, the recording, the exports). The real Worker runs
// with JSON.parse counted (test/fixtures/parse-count/worker.js), in workerd as always.

const PROBE = "faultline-parse-probe";
let url = "";
let close: () => Promise<void> = async () => undefined;
let dir = "";

before(async () => {
  // wrangler.toml as it is, serving the counting entry instead of src/worker.ts.
  dir = mkdtempSync(join(tmpdir(), "faultline-parse-count-"));
  const config = readFileSync("wrangler.toml", "utf8").replace(/^main = .*$/m, `main = ${JSON.stringify(resolve("test/fixtures/parse-count/worker.js"))}`);
  writeFileSync(join(dir, "wrangler.toml"), config);
  const harness = createTestHarness({ workers: [{ configPath: join(dir, "wrangler.toml") }] });
  url = String((await harness.listen()).url).replace(/\/$/, "");
  close = () => harness.close();
});
after(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (mcpUrl: string, body: string) =>
  fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" },
    body,
  });

async function parsesOf(text: string): Promise<{ count: number; all: [string, number][] }> {
  const all = (await (await fetch(`${url}/__parses`)).json()) as [string, number][];
  return { count: all.find(([t]) => t === text)?.[1] ?? 0, all };
}

test("a tools/call's body is parsed exactly once, and its JSON answer once, through the journal's append, its projection, the recording, the exports and a replay (whose own request is parsed once too)", async () => {
  const res = await fetch(`${url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", record: true }) });
  assert.equal(res.status, 201, await res.clone().text());
  const { id, mcpUrl } = (await res.json()) as { id: string; mcpUrl: string };
  // Longer than the projection keeps whole (4,096 characters), so the checks' projection reduces it, and with a
  // secret-named field, so redaction changes it.
  const text = `${PROBE} ${"x".repeat(6_000)}`;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text }, _meta: { ...modernMeta(), apiKey: "k-1234" } } });
  const answer = await post(mcpUrl, body);
  assert.equal(answer.status, 200, await answer.clone().text());
  assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
  const answerText = await answer.text();

  const [entry] = await journalOf(url, id, 1);
  assert.equal(entry!.rpc.toolName, "echo");
  assert.equal(entry!.verdict?.outcome, "TOOL_SUCCESS");
  assert.ok(entry!.callDigest, "the call digests were taken");
  assert.ok(!entry!.request.body.text.includes("k-1234"), "the body was redacted");
  // Everything else that reads an exchange: the checks (their projection), the exports, and a replay of the recording.
  assert.equal((await fetch(`${url}/api/sessions/${id}/checks`)).status, 200);
  for (const format of ["jsonl", "har"]) assert.equal((await (await fetch(`${url}/api/sessions/${id}/journal?format=${format}`)).text()).includes(PROBE), true, format);
  // The answer, parsed by no stage before the journal, is parsed once there, for the classifier, redaction and projection.
  const answerParses = await parsesOf(answerText);
  assert.equal(answerParses.count, 1, `JSON.parse calls with the answer: ${answerParses.count}`);
  const replay = await fetch(`${url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "replay", params: { from: id, timing: "fast" } }) });
  assert.equal(replay.status, 201, await replay.clone().text());
  const replayUrl = ((await replay.json()) as { mcpUrl: string }).mcpUrl;
  const replayed = await post(replayUrl, body.replace('"id":7', '"id":8'));
  assert.equal(replayed.status, 200);
  assert.ok((await replayed.text()).includes(PROBE), "the recording answered the call");

  const replayParses = await parsesOf(body.replace('"id":7', '"id":8'));
  assert.equal(replayParses.count, 1, `JSON.parse calls with the replayed request's body: ${replayParses.count}`);
  const { count, all } = await parsesOf(body);
  assert.equal(count, 1, `JSON.parse calls with the request's body: ${count}; every counted text: ${JSON.stringify(all.map(([t, n]) => [t.slice(0, 60), t.length, n]))}`);
});

test("a proxied tools/call's body is parsed exactly once: the upstream answer source forwards the text it was read from", async () => {
  const upstream = await startUpstream({ responseMode: "json" });
  try {
    const res = await fetch(`${url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", upstream: upstream.url, record: true }) });
    assert.equal(res.status, 201, await res.clone().text());
    const { id, mcpUrl } = (await res.json()) as { id: string; mcpUrl: string };
    const text = `${PROBE} proxied ${"y".repeat(6_000)}`;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text }, _meta: { ...modernMeta(), apiKey: "k-5678" } } });
    const answer = await post(mcpUrl, body);
    assert.equal(answer.status, 200, await answer.clone().text());
    await answer.text();
    const [entry] = await journalOf(url, id, 1);
    assert.equal(entry!.proxied?.mode, "forward");
    assert.ok(entry!.callDigest, "the call digests were taken");
    assert.equal((await fetch(`${url}/api/sessions/${id}/checks`)).status, 200);
    const { count } = await parsesOf(body);
    assert.equal(count, 1, `JSON.parse calls with the proxied request's body: ${count}`);
  } finally {
    await upstream.close();
  }
});
