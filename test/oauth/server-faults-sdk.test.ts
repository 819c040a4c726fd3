import { test } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { createSession, useServer } from "../helpers/server.ts";
import { StandInProvider } from "./stand-in.ts";

// The official clients (v1 @modelcontextprotocol/sdk 1.32.2, v2 @modelcontextprotocol/client 2.4.0) under
// auth.server_faults. Neither retries a faulted authorization-server endpoint itself: connect or finishAuth throws
// the fault, and what happens next is the application's. Here the application reconnects at once, up to 3 times.
const server = useServer();
type Json = Record<string, any>;
const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];

type Open = (mcpUrl: string, provider: StandInProvider) => { transport: any; client: any };
const VERSIONS: [string, Open, (p: StandInProvider) => unknown][] = [
  ["v1", (u, p) => ({ transport: new TransportV1(new URL(u), { authProvider: p as any }), client: new ClientV1({ name: "oauth-v1", version: "0.0.0" }) }), (p) => p.takeCode()],
  ["v2", (u, p) => ({ transport: new TransportV2(new URL(u), { authProvider: p as any }), client: new ClientV2({ name: "oauth-v2", version: "0.0.0" }) }), (p) => p.callback],
];

/** Connects, finishing the authorization when the stand-in brought a code back; each failure is kept, then a fresh try. */
async function connectRetrying(open: Open, callback: (p: StandInProvider) => unknown, mcpUrl: string) {
  const provider = new StandInProvider();
  const errors: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const { transport, client } = open(mcpUrl, provider);
    try {
      await client.connect(transport);
      await client.close();
      return { connected: true, errors };
    } catch (error) {
      if (!provider.callback) errors.push(String(error));
    }
    try {
      await transport.finishAuth(callback(provider));
    } catch (error) {
      errors.push(String(error));
    }
    provider.callback = undefined;
  }
  return { connected: false, errors };
}

for (const [name, open, callback] of VERSIONS) {
  test(`${name} meets a token endpoint 503 as an error of finishAuth; reconnecting gets through, and auth-server-retry-bounded passes`, async () => {
    const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "5xx", times: 1 });
    const { connected, errors } = await connectRetrying(open, callback, mcpUrl);
    assert.ok(connected, errors.join(" | "));
    assert.deepEqual(errors.map((e) => /token request 1 is faulted \(5xx\)/.test(e)), [true]);
    const verdict = (await checksOf(id)).find((c) => c.id === "auth-server-retry-bounded");
    assert.equal(verdict?.status, "pass", JSON.stringify(verdict));
    assert.match(verdict!.message, /1 faulted answer in a row from the token endpoint \(503\).*then got the real answer \(HTTP 200\)/);
  });

  test(`${name} gives the application no wait after a token endpoint 429: reconnecting at once asks before Retry-After, and auth-server-retry-bounded fails`, async () => {
    const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "429", times: 1, retryAfter: 2 });
    const { connected, errors } = await connectRetrying(open, callback, mcpUrl);
    assert.ok(connected, errors.join(" | "));
    const verdict = (await checksOf(id)).find((c) => c.id === "auth-server-retry-bounded");
    assert.equal(verdict?.status, "fail", JSON.stringify(verdict));
    assert.match(verdict!.message, /After the 429 from the token endpoint at \S+ \(Retry-After: 2\), the client asked it again \d+ ms later, before the time the 429 asked for/);
  });

  test(`${name} meets flapping metadata as an error of connect; reconnecting reads the document, and auth-server-retry-bounded passes`, async () => {
    const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "metadata", fault: "flap", times: 1 });
    const { connected, errors } = await connectRetrying(open, callback, mcpUrl);
    assert.ok(connected, errors.join(" | "));
    assert.match(errors[0] ?? "", /HTTP 503 trying to load OAuth metadata/);
    assert.equal((await checksOf(id)).find((c) => c.id === "auth-server-retry-bounded")?.status, "pass");
  });
}
