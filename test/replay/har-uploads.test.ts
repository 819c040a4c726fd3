import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { modernMeta, postModern, startServer, type TestServer } from "../helpers/server.ts";
import { harRecording, HarSchema } from "../../src/recording/har.ts";
import { replayHeaders } from "../../src/recording/replay.ts";
import type { MessageFacts } from "../../src/mcp/facts.ts";
import type { SessionRuntime } from "../../src/mcp/runtime.ts";
import { type Json, newSession } from "./helpers.ts";

// Issue 27, finding 10: HAR uploads were unbounded in number, absent from the audit log, stored their requests'
// credentials in clear, and took any header value (a CR in one made every replay answer 500). Over a real server
// with FAULTLINE_MAX_UPLOADS=3, and harRecording in process for what is stored.

let server: TestServer;
before(async () => void (server = await startServer({ FAULTLINE_MAX_UPLOADS: "3" })));
after(() => server.close());

const SECRETS = ["sk-live-abcdefgh12345678", "cookie-secret-value", "apikey-secret-value", "query-secret-value", "body-secret-value"];

function harOf(overrides: { responseHeaders?: readonly { name: string; value: string }[]; requestHeaders?: readonly { name: string; value: string }[] } = {}): Json {
  const request = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, _meta: { ...modernMeta(), password: SECRETS[4] } } };
  return {
    log: {
      entries: [
        {
          startedDateTime: "2026-01-01T00:00:00.000Z",
          time: 3,
          request: {
            method: "POST",
            url: `http://127.0.0.1:9/mcp?api_key=${SECRETS[3]}`,
            headers: overrides.requestHeaders ?? [
              { name: "Content-Type", value: "application/json" },
              { name: "Authorization", value: `Bearer ${SECRETS[0]}` },
              { name: "Cookie", value: `sid=${SECRETS[1]}` },
              { name: "X-Api-Key", value: SECRETS[2] },
            ],
            postData: { mimeType: "application/json", text: JSON.stringify(request) },
          },
          response: {
            status: 200,
            headers: overrides.responseHeaders ?? [{ name: "Content-Type", value: "application/json" }],
            content: { mimeType: "application/json", text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } }) },
          },
        },
      ],
    },
  };
}

async function upload(har: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/api/recordings`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(har) });
  return { status: res.status, body: (await res.json()) as Json };
}

const remove = (id: string) => fetch(`${server.url}/api/recordings/${id}`, { method: "DELETE" });

test("an uploaded HAR's request credentials are stored redacted: headers, secret body fields, and no URL or query", () => {
  const { recording } = harRecording(HarSchema.parse(harOf()));
  const stored = JSON.stringify(recording);
  for (const secret of SECRETS) assert.ok(!stored.includes(secret), `${secret} is stored: ${stored}`);
  const headers = recording.exchanges[0]!.request.headers;
  assert.equal(headers.authorization, "Bearer [redacted]");
  assert.equal(headers.cookie, "[redacted]");
  assert.equal(headers["x-api-key"], "[redacted]");
  assert.ok(recording.exchanges[0]!.match, "the match digest was taken before the redaction");
});

test("a replayed entry with a CR in a header value or a bad header name is refused with a 400 naming the entry and header", async () => {
  for (const [headers, side, rule] of [
    [{ responseHeaders: [{ name: "Content-Type", value: "application/json" }, { name: "X-Note", value: "one\rtwo" }] }, "response", "header_value"],
    [{ requestHeaders: [{ name: "Bad Name", value: "x" }] }, "request", "header_name"],
    [{ responseHeaders: [{ name: "X-Wide", value: "caf\u0113" }] }, "response", "header_value"],
  ] as const) {
    const res = await upload(harOf(headers));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "invalid_header");
    const issue = res.body.error.issues[0];
    assert.match(issue.path, new RegExp(`^log\\.entries\\[0\\]\\.${side}\\.headers\\[\\d\\]$`));
    assert.equal(issue.rule, rule);
    assert.match(issue.message, /^entry 0, /);
  }
});

test("a HAR with HTTP/2 pseudo-headers uploads, and its replay answers 200 without them", async () => {
  const pseudo = { responseHeaders: [{ name: ":status", value: "200" }, { name: "content-type", value: "application/json" }] };
  assert.deepEqual(harRecording(HarSchema.parse(harOf(pseudo))).recording.exchanges[0]!.response.headers, { "content-type": "application/json" }, "not stored");
  const res = await upload(harOf(pseudo));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const replay = await newSession(server.url, { scenario: "replay", params: { har: res.body.id, timing: "fast" } });
  const answer = await postModern(replay.mcpUrl, 7, "tools/call", { name: "echo", arguments: { text: "hi" } });
  assert.equal(answer.status, 200, await answer.clone().text());
  assert.equal(((await answer.json()) as Json).result.content[0].text, "hi");
  assert.equal((await remove(res.body.id)).status, 204);
});

test("uploads past FAULTLINE_MAX_UPLOADS answer 429, a delete makes room, and each upload and delete is in the audit log", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await upload(harOf());
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids.push(res.body.id);
  }
  const refused = await upload(harOf());
  assert.equal(refused.status, 429);
  assert.equal(refused.body.error.code, "upload_limit");
  assert.match(refused.body.error.message, /maximum of 3 uploaded HARs \(FAULTLINE_MAX_UPLOADS\)/);
  assert.equal((await remove(ids[0]!)).status, 204);
  const again = await upload(harOf());
  assert.equal(again.status, 201, "the delete made room");

  const { lines } = (await (await fetch(`${server.url}/api/audit?limit=1000`)).json()) as { lines: Json[] };
  const of = (id: string) => lines.filter((l) => l.session === `upload:${id}`).map((l) => l.action).reverse();
  assert.deepEqual(of(ids[0]!), ["upload", "delete-upload"]);
  assert.deepEqual(of(again.body.id), ["upload"]);
  assert.deepEqual(lines.filter((l) => l.action === "upload").length, 5, "the refused upload is not logged; the pseudo-header one is");
  for (const id of [...ids.slice(1), again.body.id]) await remove(id);
});

test("a stored recording's header that no Worker can send (kept before uploads were checked) is left out of its replay", () => {
  const { recording } = harRecording(HarSchema.parse(harOf()));
  const exchange = { ...recording.exchanges[0]!, response: { ...recording.exchanges[0]!.response, headers: { "content-type": "application/json", "x-note": "one\rtwo", "bad name": "x" } } };
  const message = { request: {} } as unknown as MessageFacts;
  assert.deepEqual(replayHeaders(exchange, message, {} as SessionRuntime), { "content-type": "application/json" });
});
