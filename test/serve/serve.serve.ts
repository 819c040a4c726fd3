import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { npmRun, type NpmServer } from "../helpers/npm-start.ts";
import { postModern } from "../helpers/server.ts";
import type { DatabaseSync } from "node:sqlite";
import { INDEX_LAYOUT, SESSION_LAYOUT } from "../../src/session/layouts.ts";
import { formatOf } from "../../src/session/storage-format.ts";
import { eachDatabase, recordedFormat, recordFormat } from "./state-files.ts";

// `npm run serve` as a team runs it: the production bundle on workerd, state on disk, stopped by a signal, restarted.

let stateDir: string;
let server: NpmServer | undefined;

before(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "faultline-serve-"));
  server = await npmRun("serve", stateDir);
});

after(async () => {
  await server?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function current(): NpmServer {
  if (!server) throw new Error("no server");
  return server;
}

async function api(path: string, method = "GET", body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${current().url}/api${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

async function echo(mcpUrl: string, id: number, text: string): Promise<Record<string, any>> {
  const res = await postModern(mcpUrl, id, "tools/call", { name: "echo", arguments: { text } });
  assert.equal(res.status, 200);
  return (await res.json()) as Record<string, any>;
}

/** SIGTERM to the process group, then a new `npm run serve` on the same state folder. */
async function restart(signal: NodeJS.Signals = "SIGTERM"): Promise<boolean> {
  const killed = await current().stop(signal);
  server = undefined;
  server = await npmRun("serve", stateDir);
  return killed;
}

test("npm run serve prints one line with the dashboard URL and the /mcp URL once it answers", async () => {
  const lines = await current().linesWith("Faultline (npm run serve");
  assert.equal(lines.length, 1, current().log());
  assert.match(lines[0]!, new RegExp(`Dashboard: ${current().url}/ `));
  assert.match(lines[0]!, new RegExp(`MCP endpoint: ${current().url}/mcp$`));
});

test("npm run serve answers the v2 client at /mcp with the default baseline session", async () => {
  const client = new Client({ name: "faultline-serve", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${current().url}/mcp`)));
    const result = await client.callTool({ name: "echo", arguments: { text: "hello from npm run serve" } });
    assert.deepEqual(result.content, [{ type: "text", text: "hello from npm run serve" }]);
  } finally {
    await client.close();
  }
});

test("SIGTERM ends npm run serve without a SIGKILL, lets a slow exchange in flight finish, and a restart finds sessions, counters and journal entries", async () => {
  const id = `serve-${process.pid}`;
  assert.equal((await api("/sessions", "POST", { scenario: "errors.tool_error", id, params: { tools: ["echo"], nth: 2 } })).status, 201);
  const mcpUrl = `${current().url}/s/${id}/mcp`;
  assert.equal((await echo(mcpUrl, 1, "one")).result.isError, undefined);
  assert.equal((await echo(mcpUrl, 2, "two")).result.isError, true);
  const before = await api(`/sessions/${id}`);
  const journalBefore = await api(`/sessions/${id}/journal`);
  assert.equal(journalBefore.json.entries.length, 2);

  // A slow exchange (baseline with a delay) is in flight when SIGTERM arrives: workerd drains it before exiting.
  const slow = `serve-slow-${process.pid}`;
  assert.equal((await api("/sessions", "POST", { scenario: "baseline", id: slow, params: { delayMs: 1500 } })).status, 201);
  const inFlight = echo(`${current().url}/s/${slow}/mcp`, 7, "in flight");
  await new Promise((resolve) => setTimeout(resolve, 300));
  const killed = await restart("SIGTERM");
  assert.equal(killed, false, "npm run serve needed a SIGKILL after SIGTERM");
  assert.equal((await inFlight).result.content[0].text, "in flight");

  const after = await api(`/sessions/${id}`);
  assert.equal(after.status, 200);
  assert.equal(after.json.scenario, "errors.tool_error");
  assert.deepEqual(after.json.counters, before.json.counters);
  assert.equal(after.json.mcpUrl, `${current().url}/s/${id}/mcp`);
  const journalAfter = await api(`/sessions/${id}/journal`);
  assert.deepEqual(journalAfter.json.entries, journalBefore.json.entries);
  const slowJournal = await api(`/sessions/${slow}/journal`);
  assert.deepEqual(slowJournal.json.entries.map((e: Record<string, any>) => e.rpc.id), [7]);
  assert.ok((await api("/sessions")).json.sessions.some((s: Record<string, unknown>) => s.id === id));
  // The restored scenario is in effect: its counters went on from where they were (the third echo succeeds).
  assert.equal((await echo(`${current().url}/s/${id}/mcp`, 3, "three")).result.isError, undefined);
});

test("SIGINT ends npm run serve without a SIGKILL too", async () => {
  assert.equal(await restart("SIGINT"), false);
  assert.equal((await fetch(`${current().url}/health`)).status, 200);
});

/** Each class's current format, by the class folder's name. */
const FORMATS: Record<string, number> = { SessionObject: formatOf(SESSION_LAYOUT), SessionIndex: formatOf(INDEX_LAYOUT) };

/**
 * What each migration after the first added, undone (index: the migration's), written here by hand, apart from the
 * migrations, so the test cannot share their mistakes. Format k is the first k migrations; format 0 is the first
 * release's tables with no marker, as state written before the marker existed.
 */
const UNDO: Record<string, readonly (string | undefined)[]> = {
  SessionObject: [
    undefined,
    "DROP INDEX journal_call; ALTER TABLE journal DROP COLUMN call_key; ALTER TABLE journal DROP COLUMN attempt",
    "DROP TABLE oauth_clients; DROP TABLE oauth_codes; DROP TABLE oauth_tokens; DROP TABLE oauth_events",
    "DROP TABLE recording; DROP TABLE recording_meta; DROP TABLE replay; DROP TABLE replay_state",
    "ALTER TABLE oauth_clients DROP COLUMN used_at",
    "DROP INDEX tasks_by_created; DROP TABLE tasks",
    "ALTER TABLE oauth_events DROP COLUMN presented; DROP TABLE oauth_requests",
  ],
  SessionIndex: [undefined, "DROP TABLE audit", "DROP TABLE uploads", "ALTER TABLE sessions DROP COLUMN proxied"],
};

/** Turns an object of the current format into what the release of `format` left (a class with fewer formats: its last older one). */
function storeAt(db: DatabaseSync, className: string, format: number): void {
  const undo = UNDO[className]!;
  assert.equal(undo.length, FORMATS[className], `an undo for each of ${className}'s migrations`);
  const target = Math.min(format, undo.length - 1);
  for (let step = undo.length - 1; step >= Math.max(target, 1); step--) db.exec(undo[step]!);
  if (target === 0) db.exec("DROP TABLE faultline_storage_format");
  else recordFormat(db, target);
}

test("state stored at each older format, the marker-less one included, wakes up migrated with every session and journal entry", async () => {
  const id = `serve-upgrade-${process.pid}`;
  assert.equal((await api("/sessions", "POST", { scenario: "baseline", id })).status, 201);
  await echo(`${current().url}/s/${id}/mcp`, 1, "kept");
  let before = await api(`/sessions/${id}`);
  let journal = await api(`/sessions/${id}/journal`);
  const listed = async () => (await api("/sessions")).json.sessions.map(({ mcpUrl: _, ...rest }: Record<string, unknown>) => rest);
  const list = await listed();
  // Faultline's tables (workerd keeps its own, _cf_*, in some objects: an alarm's, for one).
  const tables = (db: DatabaseSync) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as { name: string }[]).map((t) => t.name);
  const layoutTables = new Map<string, string[]>();

  for (let format = 0; format < FORMATS.SessionObject!; format++) {
    await current().stop("SIGTERM");
    server = undefined;
    const found = eachDatabase(stateDir, (db, className) => {
      const marked = recordedFormat(db);
      if (marked === undefined) return undefined; // an object that never held a session (none here, so far)
      // Every object woke since the last round (each session is read below), so each holds every table of its
      // class; the first round learns the set.
      if (!layoutTables.has(className)) layoutTables.set(className, tables(db));
      else assert.deepEqual(new Set(tables(db)), new Set(layoutTables.get(className)), `${className} after waking at format ${format - 1}`);
      storeAt(db, className, format);
      return `${className} ${marked}`;
    }).filter((v) => v !== undefined);
    assert.ok(found.length >= 2, "the index and at least this session are on disk");
    assert.deepEqual(new Set(found), new Set(Object.entries(FORMATS).map(([name, n]) => `${name} ${n}`)), "every object was at its current format before this round");

    server = await npmRun("serve", stateDir);
    assert.deepEqual(await listed(), list, `format ${format}`);
    for (const session of list) assert.equal((await api(`/sessions/${session.id}`)).status, 200, `${session.id} at format ${format}`);
    assert.deepEqual((await api(`/sessions/${id}`)).json, { ...before.json, mcpUrl: `${current().url}/s/${id}/mcp` }, `format ${format}`);
    assert.deepEqual((await api(`/sessions/${id}/journal`)).json, journal.json, `format ${format}`);
    // A new exchange writes through the migrated tables (the journal's call keys among them).
    assert.equal((await echo(`${current().url}/s/${id}/mcp`, 10 + format, `after format ${format}`)).result.content[0].text, `after format ${format}`);
    before = await api(`/sessions/${id}`);
    journal = await api(`/sessions/${id}/journal`);
    assert.equal(journal.json.entries.at(-1).rpc.id, 10 + format, "the journal lists the new exchange last");
  }
  // After the last round too, every object carries its class's current marker and every table of its class.
  await current().stop("SIGTERM");
  server = undefined;
  const marked = eachDatabase(stateDir, (db, className) => {
    if (recordedFormat(db) === undefined) return undefined;
    assert.deepEqual(new Set(tables(db)), new Set(layoutTables.get(className)), className);
    return `${className} ${recordedFormat(db)}`;
  }).filter((v) => v !== undefined);
  assert.ok(marked.length >= 2);
  assert.deepEqual(new Set(marked), new Set(Object.entries(FORMATS).map(([name, n]) => `${name} ${n}`)));
  server = await npmRun("serve", stateDir);
});

test("state marked by a newer Faultline is refused with a message that names the class and both formats, not read", async () => {
  const id = `serve-newer-${process.pid}`;
  assert.equal((await api("/sessions", "POST", { scenario: "baseline", id })).status, 201);
  await current().stop("SIGTERM");
  server = undefined;
  eachDatabase(stateDir, (db, className) => recordFormat(db, FORMATS[className]! + 1));
  server = await npmRun("serve", stateDir);
  const view = await api(`/sessions/${id}`);
  assert.equal(view.status, 500);
  const refusals = Object.entries(FORMATS).map(([name, n]) => `${name} storage format ${n + 1}; this version reads up to ${n}`);
  // The line reaches the log through the redacting pipe (scripts/server-hygiene.ts), a moment after the answer.
  await current().linesWith("this version reads up to");
  assert.match(current().log(), new RegExp(refusals.join("|")));
  await current().stop("SIGTERM");
  server = undefined;
  eachDatabase(stateDir, (db, className) => recordFormat(db, FORMATS[className]!));
  server = await npmRun("serve", stateDir);
  assert.equal((await api(`/sessions/${id}`)).status, 200);
});

/** A GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "GET", headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once("error", reject);
    req.end();
  });
}

test("FAULTLINE_PUBLIC_URL drives the URLs npm run serve prints and returns, and wrangler.toml's vars are overridden from the environment", async () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-serve-public-"));
  // Published beyond loopback, the server needs the admin token (without it the API is off: 503).
  const token = "public-admin-token-0123456789";
  const publicServer = await npmRun("serve", dir, { FAULTLINE_PUBLIC_URL: "https://faultline.example.test/", ALLOWED_HOSTS: "faultline.example.test", FAULTLINE_ADMIN_TOKEN: token });
  const auth = { authorization: `Bearer ${token}` };
  const capability = (id: string) => new RegExp(`^https://faultline\\.example\\.test/s/${id}\\.[A-Za-z0-9_-]{22}/mcp$`);
  try {
    const ready = (await publicServer.linesWith("Faultline (npm run serve"))[0]!;
    assert.match(ready, /Dashboard: https:\/\/faultline\.example\.test\/ {2}MCP endpoint: /);
    assert.match(ready.split("MCP endpoint: ")[1]!, capability("default"));
    const created = await fetch(`${publicServer.url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ scenario: "auth.unauthorized", id: "behind-proxy" }),
    });
    const mcpUrl = String(((await created.json()) as Record<string, unknown>).mcpUrl);
    assert.match(mcpUrl, capability("behind-proxy"));
    const path = new URL(mcpUrl).pathname;
    const metadata = (await (await fetch(`${publicServer.url}/.well-known/oauth-protected-resource${path}`)).json()) as Record<string, unknown>;
    assert.equal(metadata.resource, mcpUrl);
    assert.deepEqual(metadata.authorization_servers, [mcpUrl.replace(/\/mcp$/, "/oauth")]);
    assert.ok((await (await fetch(`${publicServer.url}/sessions/behind-proxy`, { headers: auth })).text()).includes(mcpUrl));
    // ALLOWED_HOSTS from the environment replaced wrangler.toml's empty list: the public name is served, others are not.
    assert.notEqual(await getWithHost(`${publicServer.url}/mcp`, "faultline.example.test"), 403);
    assert.equal(await getWithHost(`${publicServer.url}/mcp`, "elsewhere.example.test"), 403);
  } finally {
    await publicServer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
