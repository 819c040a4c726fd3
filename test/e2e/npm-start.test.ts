import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";

// The real `npm start` (wrangler dev with a persistent state dir), as a user runs it.

/** Shared by both starts, so that the second finds what the first stored. */
let stateDir: string;
let first: NpmServer;
let second: NpmServer | undefined;

before(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "faultline-state-"));
  first = await npmStart(stateDir);
});

after(async () => {
  await Promise.all([first?.close(), second?.close()]);
  rmSync(stateDir, { recursive: true, force: true });
});

async function api(base: string, path: string, method = "GET", body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

test("npm start serves the default baseline session at /mcp, and the v2 client calls echo there", async () => {
  const client = new Client({ name: "faultline-e2e", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${first.url}/mcp`)));
    assert.equal(client.getProtocolEra(), "modern");
    const result = await client.callTool({ name: "echo", arguments: { text: "hello from npm start" } });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.content, [{ type: "text", text: "hello from npm start" }]);
  } finally {
    await client.close();
  }
  const view = await api(first.url, "/sessions/default");
  assert.equal(view.status, 200);
  assert.equal(view.json.scenario, "baseline");
});

test("npm start prints one line with the dashboard URL and the /mcp URL once it answers", async () => {
  const lines = await first.linesWith("Faultline (npm start");
  assert.equal(lines.length, 1, first.log());
  assert.match(lines[0]!, new RegExp(`Dashboard: ${first.url}/  MCP endpoint: ${first.url}/mcp$`));
});

test("a slug session and its changed scenario survive a restart of npm start on the same state dir", async () => {
  const id = `e2e-${process.pid}`;
  assert.equal((await api(first.url, "/sessions", "POST", { scenario: "baseline", id })).status, 201);
  const changed = await api(first.url, `/sessions/${id}/scenario`, "PUT", { scenario: "errors.tool_error", params: { tools: ["echo"], nth: 2 } });
  assert.equal(changed.status, 200, JSON.stringify(changed.json));

  await first.close();
  second = await npmStart(stateDir);
  assert.notEqual(second.url, first.url);

  const view = await api(second.url, `/sessions/${id}`);
  assert.equal(view.status, 200, JSON.stringify(view.json));
  assert.equal(view.json.scenario, "errors.tool_error");
  assert.deepEqual(view.json.params, { nth: 2, tools: ["echo"], text: "The tool failed: upstream inventory service is unavailable (injected by Faultline).", responseMode: "json" });
  assert.equal(view.json.mcpUrl, `${second.url}/s/${id}/mcp`);
  const list = await api(second.url, "/sessions");
  assert.equal(list.json.sessions.find((s: Record<string, unknown>) => s.id === id)?.scenario, "errors.tool_error");

  // The restored scenario is the one in effect: the second echo fails as configured.
  const client = new Client({ name: "faultline-e2e", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${second.url}/s/${id}/mcp`)));
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "one" } })).isError, undefined);
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "two" } })).isError, true);
  } finally {
    await client.close();
  }
});
