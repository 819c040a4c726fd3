import { test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { useServer } from "../helpers/server.ts";

// Finding 4 of issue 27 over loopback, on the Worker in workerd: the raw bytes of the request line are sent as
// written (node:http does not normalise the path), as `curl --path-as-is` and Chromium send them.

const server = useServer();

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("over loopback, /%61pi/sessions/{id}/reset and /%6dcp from a foreign Origin get 403, and the session is not reset", async () => {
  const id = `victim-${process.pid}`;
  assert.equal((await send("POST", "/api/sessions", { "content-type": "application/json" }, JSON.stringify({ id, scenario: "baseline" }))).status, 201);
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
  const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const first = await send("POST", `/s/${id}/mcp`, mcpHeaders, ping);
  assert.equal(first.status, 200, first.text);

  for (const path of [`/%61pi/sessions/${id}/reset`, `/%61%70%69/sessions/${id}/reset`, `/api/sessions/${id}/%72eset`]) {
    const res = await send("POST", path, { origin: "https://evil.example" });
    assert.equal(res.status, 403, `${path}: ${res.text}`);
    assert.equal(JSON.parse(res.text).error.code, "forbidden_origin");
  }
  for (const path of ["/%6dcp", "/%6Dcp", `/s/${id}/%6dcp`]) {
    const res = await send("POST", path, { ...mcpHeaders, origin: "https://evil.example" }, ping);
    assert.equal(res.status, 403, `${path}: ${res.text}`);
    assert.equal(JSON.parse(res.text).error.code, -32600);
  }
  const double = await send("POST", `/%2561pi/sessions/${id}/reset`, { origin: "https://evil.example" });
  assert.equal(double.status, 400, double.text);
  assert.equal(JSON.parse(double.text).error.code, "invalid_path");

  const journal = JSON.parse((await send("GET", `/api/sessions/${id}/journal`, {})).text) as { entries: unknown[] };
  assert.equal(journal.entries.length, 1, "the session was not reset (its journal still holds the initialize)");
});
