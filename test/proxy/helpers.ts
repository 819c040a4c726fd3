import { setTimeout as sleep } from "node:timers/promises";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { modernMeta, MODERN } from "../helpers/server.ts";

/** Creates a session with an upstream; returns the raw answer so a test can read a refusal. */
export async function createProxied(serverUrl: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${serverUrl}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

/** The session's journal once `ready` holds for it (an exchange is journalled after its body ends). */
export async function journalWhen(serverUrl: string, sessionId: string, ready: (entries: JournalEntry[]) => boolean): Promise<JournalEntry[]> {
  for (let tries = 0; ; tries++) {
    const { entries } = (await (await fetch(`${serverUrl}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (ready(entries)) return entries;
    if (tries > 200) throw new Error(`the journal never got there: ${JSON.stringify(entries.map((e) => [e.request.method, e.rpc]))}`);
    await sleep(50);
  }
}

/** A 2026-07-28 tools/call, with extra headers. */
export function call(mcpUrl: string, id: number, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: modernMeta() } }),
    // A 3xx from the proxy is the answer under test, not a place to go.
    redirect: "manual",
  });
}

/** The data of each SSE event in a body, parsed. */
export const events = (text: string) =>
  text.split(/\n\n/).flatMap((block) => block.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)) as Record<string, any>));
