import { test } from "node:test";
import assert from "node:assert/strict";
import { clientConfigs, shellQuote } from "../../src/dashboard/client-config.ts";

const URL_ = "http://127.0.0.1:8787/s/retry-test/mcp";
const byId = (id: string) => {
  const config = clientConfigs(URL_, "retry-test", "http://127.0.0.1:8787").find((c) => c.id === id);
  assert.ok(config, id);
  return config;
};

test("Claude Desktop goes through mcp-remote, since it speaks stdio", () => {
  assert.deepEqual(JSON.parse(byId("claude").code), { mcpServers: { "faultline-retry-test": { command: "npx", args: ["-y", "mcp-remote", URL_] } } });
});

test("mcp-remote is told to allow plain http to a host that is not loopback", () => {
  const claude = clientConfigs("http://faultline.internal/s/x/mcp", "x", "http://faultline.internal").find((c) => c.id === "claude");
  assert.deepEqual(JSON.parse(claude?.code ?? "{}").mcpServers["faultline-x"].args, ["-y", "mcp-remote", "http://faultline.internal/s/x/mcp", "--allow-http"]);
});

test("Cursor takes a url and VS Code an http server", () => {
  assert.deepEqual(JSON.parse(byId("cursor").code), { mcpServers: { "faultline-retry-test": { url: URL_ } } });
  assert.deepEqual(JSON.parse(byId("vscode").code), { servers: { "faultline-retry-test": { type: "http", url: URL_ } } });
});

test("the curl commands carry the 2026-07-28 headers and a matching _meta", () => {
  const code = byId("curl").code;
  assert.match(code, /"method":"initialize".*"protocolVersion":"2025-11-25"/);
  for (const header of ["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: echo", "Accept: application/json, text/event-stream"]) assert.ok(code.includes(`-H '${header}'`), header);
  assert.match(code, /"io\.modelcontextprotocol\/protocolVersion":"2026-07-28"/);
  assert.ok(code.includes("-H 'Content-Type: message/http' --data-binary @-"));
});

test("the SDK snippet uses the v2 client with the session URL", () => {
  const code = byId("sdk").code;
  assert.ok(code.includes('from "@modelcontextprotocol/client"'));
  assert.ok(code.includes(`new URL(${JSON.stringify(URL_)})`));
});

test("shell quoting keeps a hostile word inside one argument", () => {
  assert.equal(shellQuote("a'; rm -rf / #"), `'a'\\''; rm -rf / #'`);
});
