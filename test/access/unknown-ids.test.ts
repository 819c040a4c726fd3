import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { objectFiles, tablesIn } from "../helpers/state-files.ts";

// An unknown session id creates nothing: counted in the state folder of a real `npm start` server.

let dir: string;
let server: NpmServer;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "faultline-access-"));
  server = await npmStart(dir);
});
after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const json = { "content-type": "application/json" };

/** One request per session route, for a made-up id; each must be a 404. */
const ROUTES: Array<(id: string) => [string, RequestInit]> = [
  (id) => [`/api/sessions/${id}`, {}],
  (id) => [`/api/sessions/${id}/journal`, {}],
  (id) => [`/api/sessions/${id}/journal?format=har`, {}],
  (id) => [`/api/sessions/${id}/journal/stream`, {}],
  (id) => [`/api/sessions/${id}/checks`, {}],
  (id) => [`/api/sessions/${id}/reset`, { method: "POST" }],
  (id) => [`/api/sessions/${id}/scenario`, { method: "PUT", headers: json, body: JSON.stringify({ scenario: "baseline" }) }],
  (id) => [`/api/sessions/${id}`, { method: "DELETE" }],
  (id) => [`/s/${id}/mcp`, { method: "POST", headers: { ...json, accept: "application/json, text/event-stream" }, body: "{}" }],
  (id) => [`/sessions/${id}`, { headers: { accept: "text/html" } }],
];

test("1,000 lookups of made-up ids across every session route answer 404 and add no Durable Object file", async () => {
  // The index and the default session exist first, as they would on any used server.
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", id: "real-one" }) });
  assert.equal(created.status, 201);
  const before = await objectFiles(dir);
  assert.ok(before.size >= 2, `the index and the created session have files: ${[...before.keys()].join(", ")}`);
  const LOOKUPS = 1000;
  const statuses = new Map<number, number>();
  for (let start = 0; start < LOOKUPS; start += 25) {
    await Promise.all(
      Array.from({ length: 25 }, async (_, k) => {
        const n = start + k;
        const [path, init] = ROUTES[n % ROUTES.length]!(`made-up-${n}`);
        const res = await fetch(`${server.url}${path}`, init);
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }),
    );
  }
  assert.deepEqual([...statuses], [[404, LOOKUPS]]);
  assert.deepEqual([...(await objectFiles(dir)).keys()].sort(), [...before.keys()].sort());
});

test("deleting a session empties its storage and writes no schema back; its id can be created again", async () => {
  const filesBefore = await objectFiles(dir);
  const create = () => fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", id: "short-lived" }) });
  assert.equal((await create()).status, 201);
  const withSession = await objectFiles(dir);
  const added = [...withSession.keys()].filter((path) => !filesBefore.has(path));
  assert.equal(added.length, 1, "one file for the new session");
  assert.ok(tablesIn(added[0]!).includes("config"), "the check reads the session's tables while it exists");
  assert.equal((await fetch(`${server.url}/api/sessions/short-lived`, { method: "DELETE" })).status, 204);
  assert.equal((await fetch(`${server.url}/api/sessions/short-lived`)).status, 404);
  assert.deepEqual(tablesIn(added[0]!), [], "no schema is written back after the delete");
  assert.equal((await create()).status, 201, "the id is free again");
  assert.equal((await fetch(`${server.url}/api/sessions/short-lived`)).status, 200);
});
