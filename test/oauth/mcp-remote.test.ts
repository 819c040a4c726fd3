import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, useServer } from "../helpers/server.ts";
import { startMcpRemote } from "../helpers/mcp-remote.ts";

// mcp-remote 0.15.1 (the stdio bridge Claude Desktop users run) meets a builtin authorization server headless: its
// own `open` → xdg-open → the stand-in $BROWSER of test/helpers/mcp-remote.ts follows the authorization URL, the
// session approves at once, and the redirect reaches mcp-remote's callback on localhost.
const server = useServer();
type Json = Record<string, any>;

const echo = async (remote: Awaited<ReturnType<typeof startMcpRemote>>, text: string) =>
  ((await remote.client.callTool({ name: "echo", arguments: { text } })) as Json).content[0].text;

test("mcp-remote completes the builtin OAuth flow headless and calls echo with the token it got", { timeout: 120_000 }, async () => {
  const { id, mcpUrl } = await createSession(server, "auth.unauthorized");
  const remote = await startMcpRemote(mcpUrl);
  try {
    assert.equal(await echo(remote, "through mcp-remote"), "through mcp-remote");
    const visited = await remote.visited();
    // The browser went to this session's /authorize, for this session's MCP URL as the resource, and was sent back
    // to mcp-remote's callback with a code and the issuer (RFC 9207).
    const authorize = new URL(visited[0]!.split(" ")[1]!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, mcpUrl.replace(/\/mcp$/, "/oauth/authorize"));
    assert.equal(authorize.searchParams.get("resource"), mcpUrl);
    assert.equal(authorize.searchParams.get("code_challenge_method"), "S256");
    const callback = new URL(visited.at(-1)!.split(" ")[1]!);
    assert.equal(callback.hostname, "localhost");
    assert.ok(callback.searchParams.get("code"), visited.join("\n"));
    assert.equal(callback.searchParams.get("iss"), mcpUrl.replace(/\/mcp$/, "/oauth"));
    // The journal: 401s before the flow, then the call, made with the token, succeeded.
    const entries = ((await (await fetch(`${server.url}/api/sessions/${id}/journal?order=asc&limit=100`)).json()) as Json).entries as Json[];
    const call = entries.findIndex((e) => e.rpc?.method === "tools/call");
    assert.ok(entries.slice(0, call).some((e) => e.response.status === 401), JSON.stringify(entries.map((e) => e.response.status)));
    assert.equal(entries[call]!.response.status, 200);
    assert.equal(entries[call]!.verdict.outcome, "TOOL_SUCCESS");
  } finally {
    await remote.close();
  }
});

test("mcp-remote refreshes when its access token expires on the scenario's schedule, without a second authorization", { timeout: 120_000 }, async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 2 });
  const remote = await startMcpRemote(mcpUrl);
  try {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      try {
        answers.push(await echo(remote, `call ${i}`));
      } catch (error) {
        answers.push(`error: ${(error as Error).message}`);
      }
    }
    const authorizations = (await remote.visited()).filter((line) => line.includes("/oauth/authorize"));
    const checks = ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];
    const refreshed = checks.find((c) => c.id === "auth-refreshed-on-expiry");
    const entries = ((await (await fetch(`${server.url}/api/sessions/${id}/journal?order=asc&limit=200`)).json()) as Json).entries as Json[];
    const expired = entries.filter((e) => e.response.status === 401 && /invalid_token/.test(e.response.headers?.["www-authenticate"] ?? ""));
    assert.ok(expired.length >= 1, "the scenario expired the token at least once");
    assert.ok(refreshed, JSON.stringify(checks.map((c) => c.id)));
    // mcp-remote 0.15.1 refreshes: every call answered, one authorization only, and the check reads it so.
    assert.deepEqual(answers, ["call 0", "call 1", "call 2", "call 3"]);
    assert.equal(authorizations.length, 1, authorizations.join("\n"));
    assert.equal(refreshed.status, "pass", JSON.stringify(refreshed));
  } finally {
    await remote.close();
  }
});
