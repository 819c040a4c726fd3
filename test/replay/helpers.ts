import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { journalOf } from "../helpers/journal.ts";

export type Json = Record<string, any>;

/** POSTs a session with any create fields (record, faults, ...); returns the status and the JSON answer. */
export async function postSession(url: string, body: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Creates a session and fails the test unless it was created. */
export async function newSession(url: string, body: Json): Promise<{ id: string; mcpUrl: string }> {
  const { status, body: answer } = await postSession(url, body);
  assert.equal(status, 201, JSON.stringify(answer));
  return answer as { id: string; mcpUrl: string };
}

/** A replay session of a recorded session. */
export const replayOf = (url: string, from: string, params: Json = {}, extra: Json = {}) => newSession(url, { scenario: "replay", params: { from, timing: "fast", ...params }, ...extra });

/** The POSTs of a session's journal once it holds `count` of them (each is journalled after its body ended), oldest first. */
export async function posts(url: string, sessionId: string, count: number): Promise<JournalEntry[]> {
  for (let tries = 0; ; tries++) {
    const found = (await journalOf(url, sessionId, 0)).filter((e) => e.request.method === "POST");
    if (found.length >= count) return found;
    if (tries > 100) throw new Error(`the journal has ${found.length} POSTs, not ${count}`);
    await sleep(50);
  }
}

/**
 * What a client saw of each POST, in the order the requests came (the journal's is the order their answers ended): JSON-RPC
 * method, HTTP status and the classifier's outcome.
 */
export const verdicts = (entries: JournalEntry[]) =>
  entries.toSorted((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.seq - b.seq).map((e) => `${e.rpc.method ?? e.rpc.kind} ${e.response.status} ${e.verdict?.outcome ?? "-"}`);

/** The text of a tool result's first content block. */
export const textOf = (result: Json) => (result.content as Json[])[0]?.text as string;

