import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, startServer, type TestServer } from "../helpers/server.ts";
import { streamText } from "../helpers/sse.ts";
import { before, after } from "node:test";

// Redaction end to end: what a client sends and what the server answers, read back from every view of the journal
// (the page, JSONL, HAR and the live stream), and the checks still telling a changed password from a retry.

type Json = Record<string, any>;

let server: TestServer;
before(async () => {
  server = await startServer({ JOURNAL_REDACT_NAMES: "x-tenant-pin,tenantPin" });
});
after(() => server?.close());

const SECRETS = ["hunter2", "sk-live-ABCDEF123456", "sub-key-998877", "pin-4242", "k-apikey-1", "at-access-1", "sk-proj-RESULT0001"];

/** One request full of secrets, in headers and body, whose SSE answer echoes a credential-looking value. */
async function sendSecrets(mcpUrl: string, id: number, password: string) {
  const res = await postModern(
    mcpUrl,
    id,
    "tools/call",
    { name: "echo", arguments: { text: "my key sk-proj-RESULT0001", password, apiKey: "k-apikey-1", auth: { access_token: "at-access-1" }, tenantPin: "pin-4242" } },
    { headers: { "x-password": "hunter2 extra", "x-custom": "sk-live-ABCDEF123456", "ocp-apim-subscription-key": "sub-key-998877", "x-tenant-pin": "pin-4242" } },
  );
  await res.text();
  return res;
}

async function entries(id: string, count: number): Promise<Json[]> {
  for (let i = 0; i < 100; i++) {
    const page = (await (await fetch(`${server.url}/api/sessions/${id}/journal?limit=1000`)).json()) as { entries: Json[] };
    if (page.entries.length >= count) return page.entries;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("journal never filled");
}

function assertNoSecret(text: string, where: string) {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds ${secret}`);
}

test("the journal page, JSONL, HAR and the live stream hold no secret from headers, bodies or SSE data", async () => {
  const session = await createSession(server, "baseline", { responseMode: "sse" });
  await sendSecrets(session.mcpUrl, 1, "hunter2");
  const [entry] = await entries(session.id, 1);
  assert.ok(entry);
  // The protocol's own fields survive, the request is still readable.
  assert.equal(entry.rpc.id, 1);
  assert.equal(entry.request.headers["x-password"], "[redacted]");
  assert.equal(entry.request.headers["x-custom"], "[redacted]");
  assert.equal(entry.request.headers["ocp-apim-subscription-key"], "[redacted]");
  assert.equal(entry.request.headers["x-tenant-pin"], "[redacted]");
  const args = JSON.parse(entry.request.body.text).params.arguments;
  assert.deepEqual(args, { text: "my key [redacted]", password: "[redacted]", apiKey: "[redacted]", auth: "[redacted]", tenantPin: "[redacted]" });
  assert.ok(entry.response.sseEvents?.length > 0, "the answer came as SSE");
  assert.match(entry.response.sseEvents.map((e: Json) => e.data).join(""), /my key \[redacted\]/);
  assertNoSecret(JSON.stringify(entry), "the journal page");

  const jsonl = await (await fetch(`${server.url}/api/sessions/${session.id}/journal?format=jsonl`)).text();
  assert.match(jsonl, /\[redacted\]/);
  assertNoSecret(jsonl, "the JSONL export");

  const har = await (await fetch(`${server.url}/api/sessions/${session.id}/journal?format=har`)).text();
  assert.match(har, /\[redacted\]/);
  assertNoSecret(har, "the HAR export");

  const stop = new AbortController();
  const res = await fetch(`${server.url}/api/sessions/${session.id}/journal/stream?since=0`, { signal: stop.signal });
  const stream = streamText(res.body as ReadableStream<Uint8Array>);
  try {
    assert.ok(await stream.until("id: 1\n"), stream.text);
    await sendSecrets(session.mcpUrl, 2, "hunter2");
    assert.ok(await stream.until("id: 2\n"), stream.text);
    assert.match(stream.text, /\[redacted\]/);
    assertNoSecret(stream.text, "the live stream");
  } finally {
    await stream.cancel();
    stop.abort();
  }
});

test("a resend with a changed password is a different call for the checks, though both are stored redacted", async () => {
  const session = await createSession(server, "errors.http_status_sequence", { statusCodes: [503, 503, 200] });
  await sendSecrets(session.mcpUrl, 1, "first-password");
  await new Promise((r) => setTimeout(r, 150));
  await sendSecrets(session.mcpUrl, 2, "second-password");
  await new Promise((r) => setTimeout(r, 150));
  await sendSecrets(session.mcpUrl, 3, "second-password");
  const [first, second] = await entries(session.id, 3);
  assert.equal(JSON.parse(first!.request.body.text).params.arguments.password, "[redacted]");
  assert.equal(first!.request.body.text, second!.request.body.text.replace('"id":2', '"id":1'), "the stored bodies look the same");
  assert.notEqual(first!.callDigest, second!.callDigest);
  const checks = ((await (await fetch(`${server.url}/api/sessions/${session.id}/checks`)).json()) as { checks: Json[] }).checks;
  const bounded = checks.find((c) => c.id === "http-retry-bounded");
  assert.ok(bounded, JSON.stringify(checks));
  // One retry chain, 2 → 3 (same password); request 1 was followed by a different call, not a retry of it.
  assert.deepEqual(bounded.evidence, [2, 3]);
  assert.match(bounded.message, /retried 1 time after 503/);
});
