import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { createSession, useServer } from "../helpers/server.ts";
import { StandInProvider } from "./stand-in.ts";

// The official v2 client (@modelcontextprotocol/client 2.4.0) runs the OAuth flow against a builtin session, in the
// 2026-07-28 era it negotiates with Faultline.
const server = useServer();
type Json = Record<string, any>;

/** Runs `step`; when the server asks for authorization, completes it through the stand-in and runs `step` again. */
async function authorized<T>(transport: StreamableHTTPClientTransport, provider: StandInProvider, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !provider.callback) throw error;
  }
  await transport.finishAuth(provider.callback);
  provider.callback = undefined;
  return step();
}

/** Connects; when the server asks for authorization, finishAuth on that transport, then a fresh connection (a failed connect closes the client). */
async function connect(mcpUrl: string, provider: StandInProvider) {
  const open = () => ({ transport: new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }), client: new Client({ name: "oauth-v2", version: "0.0.0" }) });
  const first = open();
  try {
    await first.client.connect(first.transport);
    return first;
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !provider.callback) throw error;
  }
  await first.transport.finishAuth(provider.callback);
  provider.callback = undefined;
  const second = open();
  await second.client.connect(second.transport);
  return second;
}

const echo = async (client: Client, text: string) => ((await client.callTool({ name: "echo", arguments: { text } })) as Json).content[0].text;
const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];
const check = (checks: Json[], id: string) => checks.find((c) => c.id === id);

test("v2 completes the flow (DCR, PKCE, resource, iss) and calls echo", async () => {
  const { mcpUrl } = await createSession(server, "auth.unauthorized");
  const provider = new StandInProvider();
  const { client } = await connect(mcpUrl, provider);
  assert.equal(await echo(client, "hello"), "hello");
  assert.equal(provider.authorizations[0]!.searchParams.get("resource"), mcpUrl);
  await client.close();
});

test("v2 refreshes when its access token expires on the scenario's schedule, and the checks say so", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 3 });
  const provider = new StandInProvider();
  const { client } = await connect(mcpUrl, provider);
  for (let i = 0; i < 5; i++) assert.equal(await echo(client, `call ${i}`), `call ${i}`);
  assert.equal(provider.authorizations.length, 1, "no second authorization: the refresh did it");
  await client.close();
  const checks = await checksOf(id);
  assert.equal(check(checks, "auth-refreshed-on-expiry")?.status, "pass", JSON.stringify(checks));
  assert.equal(check(checks, "auth-bounded-attempts")?.status, "pass");
});

test("v2 steps up on 403 insufficient_scope: it authorizes again asking for the scope named, then the call passes", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.insufficient_scope");
  const provider = new StandInProvider();
  const { client, transport } = await connect(mcpUrl, provider);
  const order = () => client.callTool({ name: "place_order", arguments: { item: "tea", quantity: 1 } });
  const result = (await authorized(transport, provider, order)) as Json;
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(provider.authorizations.length, 2);
  assert.deepEqual(provider.authorizations[1]!.searchParams.get("scope")!.split(" ").sort(), ["faultline:read", "faultline:write"]);
  await client.close();
  const checks = await checksOf(id);
  assert.equal(check(checks, "auth-step-up-scope")?.status, "pass", JSON.stringify(checks));
  assert.equal(check(checks, "auth-bounded-attempts")?.status, "pass");
});
