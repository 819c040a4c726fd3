import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { npmRun, type NpmServer } from "../helpers/npm-start.ts";
import { postModern } from "../helpers/server.ts";
import { STORAGE_FORMAT } from "../../src/session/storage-format.ts";
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

test("state written without a storage-format marker (as before versioning) is read in full and then marked with the current format", async () => {
  const id = `serve-upgrade-${process.pid}`;
  assert.equal((await api("/sessions", "POST", { scenario: "baseline", id })).status, 201);
  await echo(`${current().url}/s/${id}/mcp`, 1, "kept");
  const before = await api(`/sessions/${id}`);
  const journal = await api(`/sessions/${id}/journal`);
  const listed = async () => (await api("/sessions")).json.sessions.map(({ mcpUrl: _, ...rest }: Record<string, unknown>) => rest);
  const list = await listed();

  await current().stop("SIGTERM");
  server = undefined;
  const formats = eachDatabase(stateDir, (db) => {
    const found = recordedFormat(db);
    db.exec("DROP TABLE faultline_storage_format");
    return found;
  });
  assert.ok(formats.length >= 2, "the index and at least this session are on disk");
  assert.deepEqual(new Set(formats), new Set([STORAGE_FORMAT]));

  server = await npmRun("serve", stateDir);
  assert.deepEqual(await listed(), list);
  assert.deepEqual((await api(`/sessions/${id}`)).json, { ...before.json, mcpUrl: `${current().url}/s/${id}/mcp` });
  assert.deepEqual((await api(`/sessions/${id}/journal`)).json, journal.json);

  // Every object that started again carries the marker; the ones nobody touched since stay unmarked until they start.
  await current().stop("SIGTERM");
  server = undefined;
  const marked = eachDatabase(stateDir, recordedFormat).filter((v) => v !== undefined);
  assert.ok(marked.length >= 2);
  assert.deepEqual(new Set(marked), new Set([STORAGE_FORMAT]));
  server = await npmRun("serve", stateDir);
});

test("state marked by a newer Faultline is refused with a message that names both formats, not read", async () => {
  const id = `serve-newer-${process.pid}`;
  assert.equal((await api("/sessions", "POST", { scenario: "baseline", id })).status, 201);
  await current().stop("SIGTERM");
  server = undefined;
  eachDatabase(stateDir, (db) => recordFormat(db, STORAGE_FORMAT + 1));
  server = await npmRun("serve", stateDir);
  const view = await api(`/sessions/${id}`);
  assert.equal(view.status, 500);
  assert.equal((await current().linesWith(`storage format ${STORAGE_FORMAT + 1}; this version reads up to ${STORAGE_FORMAT}`)).length > 0, true, current().log());
  await current().stop("SIGTERM");
  server = undefined;
  eachDatabase(stateDir, (db) => recordFormat(db, STORAGE_FORMAT));
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
