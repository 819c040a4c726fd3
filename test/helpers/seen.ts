import assert from "node:assert/strict";
import { classify, type Verdict } from "../../src/classify/index.ts";
import { legacySession, MODERN, modernMeta, postModern } from "./server.ts";
import { sseMessages } from "./sse.ts";

// Requests to a scenario's session over the wire, each answer read once and judged by the project's classifier:
// shared by the scenario tests under test/scenarios/ that need a server.

export type Json = Record<string, any>;
type Capabilities = Record<string, unknown>;

export interface Seen {
  status: number;
  headers: Headers;
  text: string;
  json: Json | undefined;
  verdict: Verdict;
}

/** Reads a response and runs it, with the request that caused it, through the project's classifier. */
export async function see(res: Response, request: { headers: Record<string, string>; body: Json }): Promise<Seen> {
  const text = await res.text();
  let json: Json | undefined;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = undefined;
  }
  const verdict = classify({ request, response: { status: res.status, headers: Object.fromEntries(res.headers), body: text } });
  return { status: res.status, headers: res.headers, text, json, verdict };
}

/** A 2026-07-28 request, seen. */
export async function modern(
  mcpUrl: string,
  id: number | string,
  method: string,
  params: Json = {},
  options: { capabilities?: Capabilities; headers?: Record<string, string> } = {},
): Promise<Seen> {
  const res = await postModern(mcpUrl, id, method, params, options);
  const headers = { "mcp-protocol-version": MODERN, "mcp-method": method, ...options.headers };
  return see(res, { headers, body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: modernMeta(options.capabilities) } } });
}

export const call = (name: string, args: Json = {}, extra: Json = {}) => ({ name, arguments: args, ...extra });

export type Legacy = Awaited<ReturnType<typeof legacySession>>;

/** A legacy request on an MCP session, seen. */
export async function legacy(session: Legacy, body: Json, headers: Record<string, string> = {}): Promise<Seen> {
  const res = await session.post(body, headers);
  return see(res, { headers: { "mcp-session-id": session.sessionId, ...headers }, body: { jsonrpc: "2.0", ...body } });
}

/** A legacy initialize with extra headers (legacySession() sends none). */
export function initialize(mcpUrl: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "faultline-test", version: "0.0.0" } },
    }),
  });
}

export function toolText(seen: Seen): string {
  return String(seen.json?.result?.content?.[0]?.text ?? "");
}

export function toolNames(seen: Seen): string[] {
  return (seen.json?.result?.tools ?? []).map((t: Json) => t.name as string);
}

/** Parses `Bearer a="b", c="d"` into its parameters. */
export function challenge(seen: Seen): Record<string, string> {
  const header = seen.headers.get("www-authenticate") ?? "";
  assert.match(header, /^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** Reads a legacy SSE response, answering each server request with `answer(request)`; returns every message. */
export async function driveLegacyStream(session: Legacy, res: Response, answer: (request: Json) => Json): Promise<Json[]> {
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const messages: Json[] = [];
  for await (const message of sseMessages(res.body as ReadableStream<Uint8Array>)) {
    messages.push(message);
    if (typeof message.method === "string" && message.id !== undefined) {
      const reply = await session.post({ id: message.id, result: answer(message) });
      assert.equal(reply.status, 202);
      await reply.arrayBuffer();
    }
    if ("result" in message || "error" in message) break;
  }
  return messages;
}

export const finalResult = (messages: Json[]) => messages.at(-1)?.result as Json;
