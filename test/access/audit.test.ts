import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";

// The audit log on the real server without a token (every caller is "local"), keeping at most 6 lines.

const MAX_LINES = 6;
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_AUDIT_MAX_LINES: String(MAX_LINES) });
});
after(() => server?.close());

const json = { "content-type": "application/json" };
type Line = { seq: number; at: string; who: string; action: string; session: string; scenario?: string };

async function auditPage(query = ""): Promise<{ lines: Line[]; nextCursor?: string }> {
  const res = await fetch(`${server.url}/api/audit${query}`);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

async function send(path: string, method: string, body?: unknown): Promise<number> {
  const res = await fetch(`${server.url}${path}`, { method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
  await res.arrayBuffer();
  return res.status;
}

test("every state change through the API adds one line: who, what, when and the session, newest first", async () => {
  const started = Date.now();
  assert.equal(await send("/api/sessions", "POST", { scenario: "baseline", id: "audited" }), 201);
  assert.equal(await send("/api/sessions/audited/scenario", "PUT", { scenario: "errors.http_status_sequence", params: { statusCodes: [503] } }), 200);
  assert.equal(await send("/api/sessions/audited/reset", "POST"), 200);
  assert.equal(await send("/api/sessions/audited", "DELETE"), 204);
  const { lines } = await auditPage();
  assert.deepEqual(
    lines.map(({ who, action, session, scenario }) => ({ who, action, session, scenario })),
    [
      { who: "local", action: "delete", session: "audited", scenario: undefined },
      { who: "local", action: "reset", session: "audited", scenario: undefined },
      { who: "local", action: "scenario", session: "audited", scenario: "errors.http_status_sequence" },
      { who: "local", action: "create", session: "audited", scenario: "baseline" },
    ],
  );
  for (const line of lines) {
    const at = Date.parse(line.at);
    assert.ok(at >= started - 1000 && at <= Date.now() + 1000, `${line.at} is the time of the change`);
  }
  assert.ok(lines[0]!.seq > lines[1]!.seq);
});

test("refused requests change nothing and add no line", async () => {
  const before = (await auditPage()).lines.length;
  assert.equal(await send("/api/sessions/nobody/reset", "POST"), 404);
  assert.equal(await send("/api/sessions/nobody", "DELETE"), 404);
  assert.equal(await send("/api/sessions", "POST", { scenario: "no-such-scenario" }), 400);
  assert.equal((await auditPage()).lines.length, before);
});

test("the log keeps the newest FAULTLINE_AUDIT_MAX_LINES lines and pages through them with a cursor", async () => {
  for (let n = 0; n < MAX_LINES; n++) assert.equal(await send("/api/sessions", "POST", { scenario: "baseline", id: `many-${n}` }), 201);
  const all = (await auditPage()).lines;
  assert.equal(all.length, MAX_LINES, "older lines were dropped");
  assert.deepEqual(all.map((line) => line.session), Array.from({ length: MAX_LINES }, (_, n) => `many-${MAX_LINES - 1 - n}`));
  const seen: Line[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await auditPage(`?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
    assert.ok(page.lines.length <= 4);
    seen.push(...page.lines);
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  assert.equal(pages, 2);
  assert.deepEqual(seen, all, "the pages, joined, are the one-page log");
});

test("a bad cursor or limit on GET /api/audit gets 400 naming the query field", async () => {
  for (const [query, field] of [["?cursor=abc", "query.cursor"], ["?limit=0", "query.limit"], ["?limit=5000", "query.limit"], ["?since=1", "query.since"]] as const) {
    const res = await fetch(`${server.url}/api/audit${query}`);
    const body = (await res.json()) as { error: { issues: Array<{ path: string }> } };
    assert.equal(res.status, 400, query);
    assert.equal(body.error.issues[0]!.path, field, query);
  }
});
