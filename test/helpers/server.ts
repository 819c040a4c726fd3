import { after, before } from "node:test";
import { createTestHarness } from "wrangler";

export interface TestServer {
  /** http://127.0.0.1:<random port> */
  url: string;
  close(): Promise<void>;
}

/** Starts the worker in process (workerd on 127.0.0.1, random port, ephemeral storage); `vars` override wrangler.toml's. */
export async function startServer(vars: Record<string, string> = {}): Promise<TestServer> {
  const harness = createTestHarness({ workers: [{ configPath: "./wrangler.toml", vars }] });
  const { url } = await harness.listen();
  return { url: String(url).replace(/\/$/, ""), close: () => harness.close() };
}

/**
 * One server for the whole test file: started in a `before` hook, then `setup` (in the same hook, since
 * top-level hooks do not wait for each other), and closed in an `after` hook. Its `url` can be read once the hook has run.
 */
export function useServer(setup?: (server: TestServer) => Promise<void>): Pick<TestServer, "url"> {
  let server: TestServer | undefined;
  before(async () => {
    // FAULTLINE_TEST_URL: run the file against a server started elsewhere (test/serve/ runs the SDK client tests against `npm run serve`).
    const external = process.env.FAULTLINE_TEST_URL;
    server = external ? { url: external, close: async () => {} } : await startServer();
    await setup?.(server);
  });
  after(() => server?.close());
  return {
    get url() {
      if (!server) throw new Error("the server is not started yet: read url inside a test or a hook");
      return server.url;
    },
  };
}

/** Creates a session through the API and returns its MCP URL. */
export async function createSession(
  server: Pick<TestServer, "url">,
  scenario: string,
  params: Record<string, unknown> = {},
): Promise<{ id: string; mcpUrl: string; params: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario, params }),
  });
  if (res.status !== 201) throw new Error(`creating a ${scenario} session gave ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string; mcpUrl: string; params: Record<string, unknown> };
}

export const MODERN = "2026-07-28";

/** The _meta every 2026-07-28 request carries. */
export function modernMeta(capabilities: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "faultline-test", version: "0.0.0" },
  };
}

/** POSTs a 2026-07-28 request with matching headers; `meta` adds _meta keys (logLevel, progressToken) over modernMeta's. */
export function postModern(
  mcpUrl: string,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  options: { capabilities?: Record<string, unknown>; headers?: Record<string, string>; meta?: Record<string, unknown>; signal?: AbortSignal } = {},
): Promise<Response> {
  const name = (method === "resources/read" ? params.uri : params.name) as string | undefined;
  return fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...(name !== undefined ? { "mcp-name": name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...modernMeta(options.capabilities), ...options.meta } } }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Runs the legacy handshake and returns a poster bound to the new Mcp-Session-Id. */
export async function legacySession(mcpUrl: string, protocolVersion = "2025-11-25", capabilities: Record<string, unknown> = {}) {
  const init = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities, clientInfo: { name: "faultline-test", version: "0.0.0" } },
    }),
  });
  const sessionId = init.headers.get("mcp-session-id");
  if (!sessionId) throw new Error(`initialize gave no Mcp-Session-Id (status ${init.status}): ${await init.text()}`);
  await init.arrayBuffer().catch(() => undefined);
  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": protocolVersion,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...body }),
    });
  await post({ method: "notifications/initialized" });
  return { sessionId, post };
}
