import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// CORS headers on real MCP answers, faults included, from the real server (preflights: cors-preflight.test.ts).

const PAGE = "http://localhost:5173";
const ECHO = { name: "echo", arguments: { text: "hello" } };

const server = useServer();

function assertCors(res: Response, what: string) {
  assert.equal(res.headers.get("access-control-allow-origin"), PAGE, what);
  const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/);
  for (const name of ["mcp-session-id", "mcp-protocol-version", "retry-after", "retry-after-ms", "www-authenticate"]) {
    assert.ok(exposed.includes(name), `${what}: exposes ${name}`);
  }
}

test("faulted MCP answers carry the CORS headers: 401 with its challenge, 429, 503 and a cut stream", async () => {
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ["auth.unauthorized", { when: "always" }, 401],
    ["ratelimit.retry_after_seconds", { times: 1, seconds: 3 }, 429],
    ["errors.status_per_method", { statuses: { "tools/call": 503 } }, 503],
    ["streams.cut_before_response", {}, 200],
  ];
  for (const [scenario, params, status] of cases) {
    const { mcpUrl } = await createSession(server, scenario, params);
    const res = await postModern(mcpUrl, 1, "tools/call", ECHO, { headers: { origin: PAGE } });
    const body = await res.text();
    assert.equal(res.status, status, `${scenario}: ${body}`);
    assertCors(res, scenario);
    if (status === 401) assert.ok(res.headers.get("www-authenticate"), "the challenge a browser client now can read");
    if (status === 429) assert.equal(res.headers.get("retry-after"), "3");
    if (scenario.startsWith("streams.")) assert.doesNotMatch(body, /"result"/, "the stream was cut before the response");
  }
});

test("a plain MCP answer to an allowed origin carries the CORS headers, one to a request with no Origin none", async () => {
  const { mcpUrl } = await createSession(server, "baseline");
  const withOrigin = await postModern(mcpUrl, 1, "tools/list", {}, { headers: { origin: PAGE } });
  assert.equal(withOrigin.status, 200, await withOrigin.text());
  assertCors(withOrigin, "baseline");
  const without = await postModern(mcpUrl, 2, "tools/list");
  await without.text();
  assert.equal(without.headers.get("access-control-allow-origin"), null);
});
