import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { postModern } from "../helpers/server.ts";
import { objectFiles, tablesIn } from "../helpers/state-files.ts";

// Idle expiry on a real `npm start` server with a state folder, FAULTLINE_SESSION_TTL_HOURS = 0.002 (7.2 s). The waits
// below poll for an outcome (with a deadline against hanging), they do not assert how long anything took.

const TTL_MS = 0.002 * 3_600_000;
/** Far below the TTL, so a used session is used many times per TTL even on a slow machine. */
const USE_EVERY_MS = 400;
/** A guard against hanging, not a timing assertion. */
const DEADLINE_MS = 120_000;

let dir: string;
let server: NpmServer;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "faultline-ttl-"));
  server = await npmStart(dir, { FAULTLINE_SESSION_TTL_HOURS: "0.002" });
});
after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const json = { "content-type": "application/json" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function create(body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", ...body }) });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text) as { id: string; mcpUrl: string; keep?: boolean };
}

/** The ids in GET /api/sessions (which touches no session, so listing is not a use). */
async function listed(): Promise<string[]> {
  const res = await fetch(`${server.url}/api/sessions?limit=1000`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id);
}

/** How many of the object files hold any table now. */
const withTables = (files: Map<string, number>) => [...files.keys()].filter((path) => tablesIn(path).length > 0).length;

/** One use of a session, alternately through the API and through its MCP endpoint. */
async function use(session: { id: string; mcpUrl: string }, n: number) {
  const res = n % 2 === 0 ? await fetch(`${server.url}/api/sessions/${session.id}/checks`) : await postModern(session.mcpUrl, n, "tools/list");
  await res.arrayBuffer();
  assert.equal(res.status, 200, `use ${n} of ${session.id}`);
}

/** Polls until `done()`, using `session` every USE_EVERY_MS meanwhile if given. */
async function until(done: () => Promise<boolean>, session?: { id: string; mcpUrl: string }) {
  const deadline = Date.now() + DEADLINE_MS;
  for (let n = 0; !(await done()); n++) {
    assert.ok(Date.now() < deadline, "the outcome did not come before the deadline");
    if (session) await use(session, n);
    await sleep(USE_EVERY_MS);
  }
}

test("an idle session is deleted by its alarm, index entry and storage both; a used one, a kept one and default stay", async () => {
  // The used session is created first, so its first alarm is due before the idle one's.
  const used = await create({ id: "ttl-used" });
  const filesBefore = await objectFiles(dir);
  const idle = await create({ id: "ttl-idle" });
  const idleFile = [...(await objectFiles(dir)).keys()].filter((path) => !filesBefore.has(path));
  assert.equal(idleFile.length, 1, "one file for the idle session");
  assert.ok(tablesIn(idleFile[0]!).includes("config"), "the idle session's tables exist while it does");
  const kept = await create({ id: "ttl-kept", keep: true });
  assert.equal(kept.keep, true, "the create answer shows keep");
  assert.equal(idle.keep, undefined, "keep shows only when set");
  await create({ id: "default" });
  const filesWithAll = await objectFiles(dir);
  const holdingData = withTables(filesWithAll);

  await until(async () => !(await listed()).includes(idle.id), used);
  // One more TTL of use: the used session's alarm has fired at least once by now and must have set itself again.
  const since = Date.now();
  await until(async () => Date.now() - since > TTL_MS, used);

  assert.deepEqual((await listed()).sort(), ["default", "ttl-kept", "ttl-used"]);
  assert.equal((await fetch(`${server.url}/api/sessions/${idle.id}`)).status, 404);
  assert.deepEqual(tablesIn(idleFile[0]!), [], "the idle session's storage is empty and no schema was written back");
  // workerd keeps an emptied object's database file (4 KiB, plus its WAL index), so what drops is the number of
  // files holding any table, and the bytes of the idle session's file.
  const filesAfter = await objectFiles(dir);
  assert.equal(withTables(filesAfter), holdingData - 1, "one object fewer holds data");
  assert.ok((filesAfter.get(idleFile[0]!) ?? 0) < filesWithAll.get(idleFile[0]!)!, "the idle session's file shrank");

  const audit = (await (await fetch(`${server.url}/api/audit`)).json()) as { lines: Array<{ who: string; action: string; session: string }> };
  assert.deepEqual(
    audit.lines.filter((line) => line.action === "expire").map(({ who, session }) => ({ who, session })),
    [{ who: "system", session: "ttl-idle" }],
    "the expiry is in the audit log",
  );

  const keptView = (await (await fetch(`${server.url}/api/sessions/ttl-kept`)).json()) as { keep: boolean };
  assert.equal(keptView.keep, true, "the session view shows keep");
});

test("a session that stops being used expires one TTL after its last use", async () => {
  assert.ok((await listed()).includes("ttl-used"));
  await until(async () => !(await listed()).includes("ttl-used"));
  assert.equal((await fetch(`${server.url}/api/sessions/ttl-used`)).status, 404);
  assert.deepEqual((await listed()).sort(), ["default", "ttl-kept"], "keep and default outlast several TTLs");
});

test("keep is set at creation only: PUT …/scenario with keep gets 400 naming the field", async () => {
  const res = await fetch(`${server.url}/api/sessions/ttl-kept/scenario`, { method: "PUT", headers: json, body: JSON.stringify({ scenario: "baseline", keep: false }) });
  const body = (await res.json()) as { error: { issues: Array<{ path: string; message: string }> } };
  assert.equal(res.status, 400);
  assert.equal(body.error.issues[0]!.path, "keep");
  assert.match(body.error.issues[0]!.message, /set when the session is created/);
  const wrongType = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", keep: "yes" }) });
  assert.equal(wrongType.status, 400);
  assert.equal(((await wrongType.json()) as { error: { issues: Array<{ path: string }> } }).error.issues[0]!.path, "keep");
});
