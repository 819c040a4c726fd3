/** The requests the bench sends: tools/call echo in each era with the session set-up each needs, and POST /classify. */
import { parseSse } from "../src/classify/index.ts";
import type { Request } from "./load.ts";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";
const ACCEPT = "application/json, text/event-stream";

const echo = (meta?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, ...(meta ? { _meta: meta } : {}) } });

/** 2026-07-28: stateless, the version and client in _meta and the routing headers beside them. */
export function modernEcho(path: string): Request {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "faultline-bench", version: "0" },
  };
  return {
    method: "POST",
    path,
    headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" },
    body: echo(meta),
  };
}

/** A tools/call on an initialized 2025-11-25 session (or, with no session id, on a stateless server that speaks it). */
export function legacyEcho(path: string, sessionId?: string): Request {
  return {
    method: "POST",
    path,
    headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": LEGACY, ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
    body: echo(),
  };
}

/** The 2025-11-25 handshake (initialize, then notifications/initialized); returns the Mcp-Session-Id. */
export async function legacyHandshake(url: string): Promise<string> {
  const init = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "faultline-bench", version: "0" } } }),
  });
  const sessionId = init.headers.get("mcp-session-id");
  await init.arrayBuffer();
  if (!sessionId) throw new Error(`initialize at ${url} gave no Mcp-Session-Id (status ${init.status})`);
  const initialized = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": LEGACY, "mcp-session-id": sessionId },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.arrayBuffer();
  return sessionId;
}

/**
 * Creates a session through the sessions API (`extra`: its params or upstream, as the API takes them); returns its id
 * and the path of its MCP endpoint.
 */
export async function createSession(base: string, scenario = "baseline", extra: { params?: Record<string, unknown>; upstream?: string } = {}): Promise<{ id: string; path: string }> {
  const res = await fetch(`${base}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario, ...extra }) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`creating a session gave ${res.status}: ${text}`);
  const { id, mcpUrl } = JSON.parse(text) as { id: string; mcpUrl: string };
  return { id, path: new URL(mcpUrl).pathname };
}

/** POST /classify of a small successful tools/call exchange. */
export const classifyRequest: Request = {
  method: "POST",
  path: "/classify",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    request: { body: { jsonrpc: "2.0", id: 7, method: "tools/call" } },
    response: { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hello" }] } }) },
  }),
};

/** Sends one bench request (the shape autocannon is given) to `base`. */
export function send(base: string, request: Request): Promise<Response> {
  return fetch(`${base}${request.path}`, { method: request.method ?? "GET", headers: request.headers, body: request.body });
}

/**
 * Sends `request` once and throws unless the answer is echo's result ("hi"), as JSON or as an SSE event: a figure
 * measured on an error (a JSON-RPC error or a tool error answered 200 counts as answered for the load) would be false.
 */
export async function assertEcho(base: string, request: Request): Promise<void> {
  const res = await send(base, request);
  const text = await res.text();
  const sse = (res.headers.get("content-type") ?? "").includes("text/event-stream");
  const json = sse ? (parseSse(text).events.find((e) => e.data !== "")?.data ?? "") : text;
  let message: { result?: { isError?: boolean; content?: { text?: string }[] } } | undefined;
  try {
    message = JSON.parse(json) as typeof message;
  } catch {
    message = undefined;
  }
  if (res.status !== 200 || message?.result?.isError === true || message?.result?.content?.[0]?.text !== "hi") {
    throw new Error(`${request.path} did not answer echo's result (status ${res.status}): ${text.slice(0, 300)}`);
  }
}
