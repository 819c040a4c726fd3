import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createSession, useServer } from "../helpers/server.ts";
import { StandInProvider } from "./stand-in.ts";

// The official v1 client (@modelcontextprotocol/sdk 1.32.2, client/auth) runs the OAuth flow against a builtin session.
const server = useServer();
type Json = Record<string, any>;

/** Connects, running the authorization flow when the server asks: the UnauthorizedError, the stand-in's redirect, finishAuth, a new connection. */
async function connect(mcpUrl: string, provider: StandInProvider) {
  const open = () => {
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    return { transport, client: new Client({ name: "oauth-v1", version: "0.0.0" }) };
  };
  const first = open();
  try {
    await first.client.connect(first.transport);
    return first.client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  await first.transport.finishAuth(provider.takeCode());
  const second = open();
  await second.client.connect(second.transport);
  return second.client;
}

const echo = async (client: Client, text: string) => ((await client.callTool({ name: "echo", arguments: { text } })) as Json).content[0].text;
const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];
const check = (checks: Json[], id: string) => checks.find((c) => c.id === id);

test("v1 completes the flow (DCR, PKCE, resource) and calls echo", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const provider = new StandInProvider();
  const client = await connect(mcpUrl, provider);
  assert.equal(await echo(client, "hello"), "hello");
  const asked = provider.authorizations[0]!.searchParams;
  assert.equal(asked.get("resource"), mcpUrl);
  assert.equal(asked.get("code_challenge_method"), "S256");
  assert.equal(provider.tokens().token_type, "Bearer");
  await client.close();
});

test("v1 refreshes when its access token expires on the scenario's schedule, and the checks say so", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 3 });
  const provider = new StandInProvider();
  const client = await connect(mcpUrl, provider);
  const firstRefresh = provider.tokens().refresh_token;
  for (let i = 0; i < 5; i++) assert.equal(await echo(client, `call ${i}`), `call ${i}`);
  assert.notEqual(provider.tokens().refresh_token, firstRefresh, "the refresh token rotated");
  assert.equal(provider.authorizations.length, 1, "no second authorization: the refresh did it");
  await client.close();
  const checks = await checksOf(id);
  assert.equal(check(checks, "auth-refreshed-on-expiry")?.status, "pass", JSON.stringify(checks));
  assert.equal(check(checks, "auth-bounded-attempts")?.status, "pass");
});

test("v1 meets a 403 insufficient_scope by refreshing, which cannot add scope: the call fails and the step-up check fails", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.insufficient_scope");
  const provider = new StandInProvider();
  const client = await connect(mcpUrl, provider);
  assert.equal(provider.tokens().scope, "faultline:read", "the 401 named faultline:read, so that is what was asked for");
  await assert.rejects(client.callTool({ name: "place_order", arguments: { item: "tea", quantity: 1 } }), /403/);
  await client.close();
  const checks = await checksOf(id);
  const stepUp = check(checks, "auth-step-up-scope");
  assert.equal(stepUp?.status, "fail", JSON.stringify(checks));
  assert.match(stepUp!.message, /refresh_token/);
  assert.equal(check(checks, "auth-bounded-attempts")?.status, "pass", "it gave up after one retry");
});
