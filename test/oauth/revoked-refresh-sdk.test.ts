import { test } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { createSession, useServer } from "../helpers/server.ts";
import { StandInProvider } from "./stand-in.ts";

// The official clients (v1 @modelcontextprotocol/sdk 1.32.2, v2 @modelcontextprotocol/client 2.4.0) under
// auth.token_expiry with refreshRevoked: every refresh is refused with invalid_grant. Both SDKs then call the
// provider's invalidateCredentials("tokens") and start the authorization again; a provider without that method keeps
// the dead tokens, and the client refreshes with them on and on.
const server = useServer();
type Json = Record<string, any>;
const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];

/** A provider that, as the SDKs' OAuthClientProvider allows, forgets its tokens when told they are dead. */
class DiscardingProvider extends StandInProvider {
  invalidateCredentials(scope: string) {
    if (scope === "tokens" || scope === "all") this.saveTokens(undefined);
  }
}

type Open = (mcpUrl: string, provider: StandInProvider) => { transport: any; client: any };
const VERSIONS: [string, Open, (p: StandInProvider) => unknown][] = [
  ["v1", (u, p) => ({ transport: new TransportV1(new URL(u), { authProvider: p as any }), client: new ClientV1({ name: "oauth-v1", version: "0.0.0" }) }), (p) => p.takeCode()],
  ["v2", (u, p) => ({ transport: new TransportV2(new URL(u), { authProvider: p as any }), client: new ClientV2({ name: "oauth-v2", version: "0.0.0" }) }), (p) => p.callback],
];

/**
 * Connects, then makes `calls` echo calls. When a step throws after the stand-in browser brought a code back, the user
 * has authorized: finishAuth and the step once more (a failed connect also needs a fresh transport).
 */
async function run(open: Open, callback: (p: StandInProvider) => unknown, mcpUrl: string, provider: StandInProvider, calls: number) {
  let { transport, client } = open(mcpUrl, provider);
  const finish = async () => {
    await transport.finishAuth(callback(provider));
    provider.callback = undefined;
  };
  try {
    await client.connect(transport);
  } catch {
    await finish();
    ({ transport, client } = open(mcpUrl, provider));
    await client.connect(transport);
  }
  const echo = () => client.callTool({ name: "echo", arguments: { text: "x" } });
  const outcomes: string[] = [];
  for (let i = 0; i < calls; i++) {
    try {
      await echo();
      outcomes.push("ok");
    } catch (error) {
      if (!provider.callback) {
        outcomes.push(String(error));
        continue;
      }
      await finish();
      await echo();
      outcomes.push("ok after authorizing again");
    }
  }
  await client.close();
  return outcomes;
}

for (const [name, open, callback] of VERSIONS) {
  test(`${name} with a provider that discards dead tokens authorizes again after invalid_grant, and auth-reauthorized-after-revoke passes`, async () => {
    const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 3, refreshRevoked: true });
    const provider = new DiscardingProvider();
    const outcomes = await run(open, callback, mcpUrl, provider, 4);
    assert.ok(outcomes.includes("ok after authorizing again"), outcomes.join(", "));
    assert.ok(provider.authorizations.length >= 2, "a second authorization");
    const checks = await checksOf(id);
    const verdict = checks.find((c) => c.id === "auth-reauthorized-after-revoke");
    assert.equal(verdict?.status, "pass", JSON.stringify(checks));
    assert.match(verdict!.message, /the client authorized again: an authorization_code grant at \S+ \(issued\)/);
    assert.equal(checks.find((c) => c.id === "auth-refreshed-on-expiry")?.status, "pass");
  });

  test(`${name} with a provider that keeps dead tokens refreshes with them call after call, and auth-reauthorized-after-revoke fails`, async () => {
    const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 3, refreshRevoked: true });
    const provider = new StandInProvider();
    const outcomes = await run(open, callback, mcpUrl, provider, 4);
    assert.ok(outcomes.some((o) => /revoked/.test(o)), outcomes.join(", "));
    assert.equal(provider.authorizations.length, 1, "never authorized again");
    const verdict = (await checksOf(id)).find((c) => c.id === "auth-reauthorized-after-revoke");
    assert.equal(verdict?.status, "fail", JSON.stringify(verdict));
    assert.match(verdict!.message, /refreshes in a row were refused with invalid_grant/);
  });
}
