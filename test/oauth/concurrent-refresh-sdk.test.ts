import { test } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError as UnauthorizedV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2 } from "@modelcontextprotocol/client";
import { createSession, useServer } from "../helpers/server.ts";
import { StandInProvider } from "./stand-in.ts";

// The official clients (v1 @modelcontextprotocol/sdk 1.32.2, v2 @modelcontextprotocol/client 2.4.0) with parallel
// calls whose token expires under them (auth.token_expiry): each call that meets the 401 runs its own refresh.
const server = useServer();
type Json = Record<string, any>;
const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];

async function connectV1(mcpUrl: string, provider: StandInProvider) {
  const open = () => ({ transport: new TransportV1(new URL(mcpUrl), { authProvider: provider as any }), client: new ClientV1({ name: "oauth-v1", version: "0.0.0" }) });
  const first = open();
  try { await first.client.connect(first.transport); return first.client; } catch (error) { if (!(error instanceof UnauthorizedV1)) throw error; }
  await first.transport.finishAuth(provider.takeCode());
  const second = open();
  await second.client.connect(second.transport);
  return second.client;
}
async function connectV2(mcpUrl: string, provider: StandInProvider) {
  const open = () => ({ transport: new TransportV2(new URL(mcpUrl), { authProvider: provider as any }), client: new ClientV2({ name: "oauth-v2", version: "0.0.0" }) });
  const first = open();
  try { await first.client.connect(first.transport); return first.client; } catch (error) { if (!(error instanceof UnauthorizedV2)) throw error; }
  await first.transport.finishAuth(provider.callback!);
  provider.callback = undefined;
  const second = open();
  await second.client.connect(second.transport);
  return second.client;
}

for (const [name, connect] of [["v1", connectV1], ["v2", connectV2]] as const) {
  test(`${name} refreshes once per parallel call that met the expiry: the refreshes present one refresh token, the grant is revoked, and auth-one-refresh-per-token fails naming them`, async () => {
    const { id, mcpUrl } = await createSession(server, "auth.token_expiry", { uses: 3 });
    const provider = new StandInProvider();
    const client: any = await connect(mcpUrl, provider);
    // Four calls at once: the token's last uses go to some, the rest meet the expiry together.
    const results = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => client.callTool({ name: "echo", arguments: { text: `c${i}` } })));
    await client.close();
    assert.ok(results.some((r) => r.status === "rejected"), "a call failed: the reuse revoked the grant");
    assert.equal(provider.authorizations.length, 1, "it never authorized again");
    const checks = await checksOf(id);
    const verdict = checks.find((c) => c.id === "auth-one-refresh-per-token");
    assert.equal(verdict?.status, "fail", JSON.stringify(checks));
    assert.match(verdict!.message, /^\d refreshes presented the same refresh token: at \S+ \(issued\), then at \S+ \(refused: invalid_grant\)/);
  });
}
