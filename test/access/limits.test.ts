import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";

// FAULTLINE_MAX_SESSIONS and the paged session list, on the real server with a cap of 5.

const CAP = 5;
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_MAX_SESSIONS: String(CAP) });
});
after(() => server?.close());

const json = { "content-type": "application/json" };
const create = (id: string) => fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", id }) });

async function bodyOf(res: Response, status: number) {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text);
}

test("GET /api/sessions pages with a cursor: every session once, newest first, and no cursor after the last page", async () => {
  for (const id of ["page-a", "page-b", "page-c", "page-d", "page-e"]) await bodyOf(await create(id), 201);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const body = await bodyOf(await fetch(`${server.url}/api/sessions?limit=2${cursor ? `&cursor=${cursor}` : ""}`), 200);
    assert.ok(body.sessions.length <= 2);
    seen.push(...body.sessions.map((s: { id: string }) => s.id));
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  assert.equal(pages, 3);
  assert.deepEqual([...seen].sort(), ["page-a", "page-b", "page-c", "page-d", "page-e"]);
  const all = await bodyOf(await fetch(`${server.url}/api/sessions`), 200);
  assert.deepEqual(all.sessions.map((s: { id: string }) => s.id), seen, "the pages, joined, are the one-page list in its order");
  assert.equal(all.nextCursor, undefined);
});

test("a bad cursor or limit gets 400 naming the query field", async () => {
  const cursor = await bodyOf(await fetch(`${server.url}/api/sessions?cursor=not-a-cursor`), 400);
  assert.equal(cursor.error.issues[0].path, "query.cursor");
  const limit = await bodyOf(await fetch(`${server.url}/api/sessions?limit=0`), 400);
  assert.equal(limit.error.issues[0].path, "query.limit");
});

test("creating past FAULTLINE_MAX_SESSIONS answers 429 with a JSON body; deleting one makes room", async () => {
  const list = await bodyOf(await fetch(`${server.url}/api/sessions`), 200);
  assert.equal(list.sessions.length, CAP, "the paging test filled the server to its cap");
  const refused = await bodyOf(await create("one-too-many"), 429);
  assert.equal(refused.error.code, "session_limit");
  assert.match(refused.error.message, /maximum of 5 sessions \(FAULTLINE_MAX_SESSIONS\)/);
  assert.equal((await fetch(`${server.url}/api/sessions/one-too-many`)).status, 404, "nothing was created");
  assert.equal((await fetch(`${server.url}/api/sessions/page-a`, { method: "DELETE" })).status, 204);
  await bodyOf(await create("one-too-many"), 201);
});
