import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, ProtocolError, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { createSession, useServer } from "../helpers/server.ts";

// The official v1 client (2025-11-25) and v2 client (legacy and auto negotiation) against a few of MCP Test
// Kitchen's ids, created with Test Kitchen's params.
const server = useServer();

interface AnyClient {
  listResources(params?: { cursor?: string }): Promise<{ resources: Array<{ uri: string }>; nextCursor?: string }>;
  listPrompts(): Promise<{ prompts: unknown[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ content: unknown }>;
}

const CLIENTS = [
  {
    label: "v1",
    methodNotFound: (error: unknown) => error instanceof McpError && error.code === -32601,
    connect: async (t: TestContext, mcpUrl: string): Promise<AnyClient> => {
      const client = new V1Client({ name: "faultline-tk-v1", version: "0.0.0" });
      t.after(() => client.close());
      await client.connect(new V1Transport(new URL(mcpUrl)));
      return client as unknown as AnyClient;
    },
  },
  ...(["legacy", "auto"] as const).map((mode) => ({
    label: `v2 ${mode}`,
    methodNotFound: (error: unknown) => error instanceof ProtocolError && error.code === -32601,
    connect: async (t: TestContext, mcpUrl: string): Promise<AnyClient> => {
      const client = new V2Client({ name: "faultline-tk-v2", version: "0.0.0" }, { versionNegotiation: { mode } });
      t.after(() => client.close());
      await client.connect(new V2Transport(new URL(mcpUrl)));
      return client as unknown as AnyClient;
    },
  })),
];

for (const sdk of CLIENTS) {
  test(`catalog.facet_unavailable: ${sdk.label} listResources rejects with -32601 and listPrompts answers`, async (t) => {
    const { mcpUrl } = await createSession(server, "catalog.facet_unavailable", { unavailableFacets: ["resources"] });
    const client = await sdk.connect(t, mcpUrl);
    await assert.rejects(client.listResources(), (error) => sdk.methodNotFound(error));
    assert.deepEqual((await client.listPrompts()).prompts, []);
  });

  test(`catalog.pagination: ${sdk.label} reads all 10 resources, 3 a page, over 4 resources/list calls`, async (t) => {
    const { id, mcpUrl } = await createSession(server, "catalog.pagination", { totalItems: 10, pageSize: 3, facet: "resources", fault: "none", faultAtPage: 2 });
    const client = await sdk.connect(t, mcpUrl);
    const uris: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    // v1 returns one page per call; v2 follows nextCursor itself when no cursor is given.
    do {
      const page = await client.listResources(cursor === undefined ? undefined : { cursor });
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined && ++calls < 10);
    assert.deepEqual(uris, Array.from({ length: 10 }, (_, i) => `test://resource/${i}`));
    const view = (await (await fetch(`${server.url}/api/sessions/${id}`)).json()) as { counters: Record<string, number> };
    assert.equal(view.counters["method:resources/list"], 4, JSON.stringify(view.counters));
  });

  test(`auth.token_lifecycle: ${sdk.label} fails to connect on the bare 401, and a second connect succeeds`, async (t) => {
    const { mcpUrl } = await createSession(server, "auth.token_lifecycle", { rejectUntilInvocation: 1, rejectForever: false });
    await assert.rejects(sdk.connect(t, mcpUrl));
    const client = await sdk.connect(t, mcpUrl);
    assert.deepEqual((await client.callTool({ name: "echo", arguments: { text: "after 401" } })).content, [{ type: "text", text: "after 401" }]);
  });

  test(`timeout.late_response: ${sdk.label} waits out delayMs and gets the result`, async (t) => {
    const { mcpUrl } = await createSession(server, "timeout.late_response", { delayMs: 50 });
    const client = await sdk.connect(t, mcpUrl);
    assert.deepEqual((await client.callTool({ name: "echo", arguments: { text: "late" } })).content, [{ type: "text", text: "late" }]);
  });
}
