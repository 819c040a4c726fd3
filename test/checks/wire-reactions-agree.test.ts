import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Exchange, targetOf, timeline } from "../../src/checks/exchange.ts";
import { type Check, checksOf } from "../../src/checks/index.ts";
import { requestMessage } from "../../src/checks/stream-messages.ts";
import { capture } from "../../src/journal/capture.ts";
import { type JournalEntry, JournalEntrySchema } from "../../src/journal/entry.ts";
import { call, entry, type EntryInput, SESSION, T0 } from "./entries.ts";

// The property of test/checks/messages-agree.test.ts for tools-relisted-after-change, cursor-not-looped and
// elicitation-answered: over generated 2025-11-25 journals (tools lists before and after a change, the
// list_changed notice, calls of changed and unchanged tools, pages with refused and good cursors, elicitation/create
// asks and the client's answers, initializes with and without the capability), no message states a fact that the
// entries it names contradict.

const SEED = Number(process.env.FUZZ_SEED ?? "20261202");
const RUNS = Number(process.env.FUZZ_CASES ?? "300");
type Json = Record<string, unknown>;

const KINDS = ["list-before", "list-after", "notice", "retiring", "added", "echo", "page", "bad-cursor", "good-cursor", "init-caps", "init-none", "ask", "accept", "decline", "error", "bad-answer"] as const;
type Kind = (typeof KINDS)[number];
// Refused cursors come often enough that some journals send one more than the bound allows.
const kind: fc.Arbitrary<Kind> = fc.oneof({ arbitrary: fc.constantFrom(...KINDS), weight: 3 }, { arbitrary: fc.constant("bad-cursor" as const), weight: 1 });
const step = fc.record({ kind, gapMs: fc.integer({ min: 0, max: 50 }), durationMs: fc.integer({ min: 1, max: 40 }), refused: fc.boolean() });
type Step = { kind: Kind; gapMs: number; durationMs: number; refused: boolean };

const legacy: Partial<EntryInput> = { legacy: true, headers: SESSION };
const events = (...messages: Json[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...m })}\n\n`).join("");
const tools = (...names: string[]) => ({ tools: names.map((name) => ({ name, inputSchema: { type: "object" } })) });
const refusedTool = (name: string) => ({ error: { code: -32602, message: `Unknown tool: ${name}` } });

function answer(seq: number, at: number, id: string, reply: Json): JournalEntry {
  const x = entry({ seq, at, method: "unused", ...legacy, status: 202, body: "" });
  const text = JSON.stringify({ jsonrpc: "2.0", id, ...reply });
  return { ...x, request: { ...x.request, body: capture(text, text.length, 64 * 1024) }, rpc: { id, kind: "response" } };
}

function build(s: Step, seq: number, at: number, asks: number): JournalEntry {
  const base = { seq, at, durationMs: s.durationMs, ...legacy };
  const init = (capabilities: Json) =>
    entry({ ...base, legacy: true, headers: {}, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "c", version: "1" } }, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } }, responseHeaders: SESSION });
  const lastAsk = `e${asks}`;
  switch (s.kind) {
    case "list-before":
      return entry({ ...base, method: "tools/list", result: tools("retiring_tool", "echo") });
    case "list-after":
      return entry({ ...base, method: "tools/list", result: tools("added_tool", "echo") });
    case "notice":
      return call(seq, at, "trigger_tool_change", {}, { ...base, sse: true, id: seq, body: events({ method: "notifications/tools/list_changed", params: {} }, { id: seq, result: { content: [] } }) });
    case "retiring":
    case "added":
      return call(seq, at, `${s.kind === "retiring" ? "retiring" : "added"}_tool`, {}, { ...base, ...(s.refused ? refusedTool(s.kind) : {}) });
    case "echo":
      return call(seq, at, "echo", { text: "hi" }, base);
    case "page":
      return entry({ ...base, method: "tools/list", result: tools("echo") });
    case "bad-cursor":
      return entry({ ...base, method: "tools/list", params: { cursor: s.refused ? "c1" : "c2" }, error: { code: -32602, message: "Invalid params: cursor has expired" } });
    case "good-cursor":
      return entry({ ...base, method: "tools/list", params: { cursor: "c3" }, result: tools("echo") });
    case "init-caps":
      return init({ elicitation: {} });
    case "init-none":
      return init({});
    case "ask": {
      const ask = { id: `e${asks + 1}`, method: "elicitation/create", params: { mode: s.refused ? "url" : "form", message: "Approve?" } };
      return call(seq, at, "place_order", { item: "tea" }, { ...base, sse: true, id: seq, body: events(ask, { id: seq, result: { content: [] } }) });
    }
    case "accept":
    case "decline":
      return answer(seq, at, lastAsk, { result: { action: s.kind } });
    case "error":
      return answer(seq, at, lastAsk, { error: { code: s.refused ? -32602 : -32601, message: "no" } });
    case "bad-answer":
      return answer(seq, at, lastAsk, { result: { action: "approve" } });
  }
}

function journalOf(steps: readonly Step[]): JournalEntry[] {
  const entries: JournalEntry[] = [];
  let at = 0;
  let asks = 0;
  for (const s of steps) {
    const made = build(s, entries.length + 1, at, asks);
    if (s.kind === "ask") asks++;
    entries.push({ ...made, time: new Date(T0 + at).toISOString() });
    at += made.durationMs + s.gapMs;
  }
  return entries;
}

const cursorOf = (x: Exchange | undefined) => (typeof x?.params?.cursor === "string" ? x.params.cursor : undefined);

/** Every fact a message states that the journal contradicts. */
function contradictions(c: Check, all: readonly Exchange[]): string[] {
  const bySeq = new Map(all.map((x) => [x.seq, x]));
  const wrong: string[] = [];
  const claim = (holds: boolean, what: string) => {
    if (!holds) wrong.push(`${c.id}: "${what}" is contradicted by the journal: ${c.message} (evidence ${c.evidence.join(", ")})`);
  };
  for (const m of c.message.matchAll(/seq (\d+)/g)) claim(bySeq.has(Number(m[1])), `seq ${m[1]} exists`);
  for (const seq of c.evidence) claim(bySeq.has(seq), `seq ${seq} exists`);
  // Each episode names the exchange it is about: the notice's stream, or the refused cursor's request.
  if (c.id === "tools-relisted-after-change") {
    for (const [, seq, rest] of c.message.matchAll(/\(on the stream of seq (\d+)\)(?:, the client|: nothing)([^]*?\.)(?= After| No|$)/g)) {
      const notice = bySeq.get(Number(seq))!;
      const lists = all.filter((x) => x.isRequest && x.method === "tools/list" && x.start >= notice.end);
      for (const m of rest!.matchAll(/listed the tools again \(seq (\d+)\)/g)) claim(lists[0]?.seq === Number(m[1]), m[0]);
      for (const m of rest!.matchAll(/called (\S+?)(?:,| without).*?without listing the tools again \(seq (\d+)/g)) {
        const x = bySeq.get(Number(m[2]));
        claim(x !== undefined && x.start >= notice.end && x.method === "tools/call" && targetOf(x) === m[1] && !lists.some((l) => l.start < x.start), m[0]);
      }
    }
    for (const [, seq] of c.message.matchAll(/No tools\/list and no call of a changed tool after \S+ \(on the stream of seq (\d+)\)/g)) {
      const notice = bySeq.get(Number(seq))!;
      claim(!all.some((x) => x.isRequest && x.method === "tools/list" && x.start >= notice.end), `no tools/list after seq ${seq}`);
    }
  }
  if (c.id === "cursor-not-looped") {
    for (const [, cursor, seq, rest] of c.message.matchAll(/with cursor "(\w+)" \(seq (\d+)\), the client ([^]*?\.)(?= After|$)/g)) {
      const refused = bySeq.get(Number(seq))!;
      claim(cursorOf(refused) === cursor, `seq ${seq} sent cursor ${cursor}`);
      const later = all.filter((x) => x.index > refused.index && x.isRequest && x.method === refused.method);
      const repeats = later.filter((x) => cursorOf(x) === cursor).length;
      for (const m of rest!.matchAll(/restarted from the first page \(seq (\d+), no cursor\)/g)) claim(cursorOf(bySeq.get(Number(m[1]))) === undefined, m[0]);
      for (const m of rest!.matchAll(/(?:refused cursor|sent the same refused cursor) (\d+) more time/g)) claim(repeats === Number(m[1]), m[0]);
      if (/stopped paginating/.test(rest!)) claim(later.every((x) => cursorOf(x) === cursor), "stopped paginating");
    }
  }
  if (c.id === "elicitation-answered") {
    for (const m of c.message.matchAll(/with action (\w+) \(seq (\d+)\)/g)) claim((requestMessage(bySeq.get(Number(m[2]))!)?.result as Json | undefined)?.action === m[1], m[0]);
    for (const m of c.message.matchAll(/with JSON-RPC error (-?\d+).*?\(seq (\d+)\)/g)) claim(((requestMessage(bySeq.get(Number(m[2]))!)?.error as Json | undefined)?.code) === Number(m[1]), m[0]);
    for (const m of c.message.matchAll(/declared the elicitation capability .*? at initialize \(seq (\d+)\)/g)) {
      const init = bySeq.get(Number(m[1]));
      claim(init?.method === "initialize" && typeof (init.params?.capabilities as Json | undefined)?.elicitation === "object", m[0]);
    }
    for (const m of c.message.matchAll(/never answered the \S+ elicitation\/create "(\w+)"/g)) {
      claim(!all.some((x) => x.entry.rpc.kind === "response" && requestMessage(x)?.id === m[1]), m[0]);
    }
  }
  return wrong;
}

test("no message of tools-relisted-after-change, cursor-not-looped or elicitation-answered contradicts the entries it names", () => {
  const judged = new Set<string>();
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => {
      const entries = journalOf(steps);
      for (const e of entries) JournalEntrySchema.parse(e);
      const all = timeline(entries);
      const checks = checksOf(entries).filter((c) => ["tools-relisted-after-change", "cursor-not-looped", "elicitation-answered"].includes(c.id));
      for (const c of checks) judged.add(`${c.id}:${c.status}`);
      const wrong = checks.flatMap((c) => contradictions(c, all));
      assert.deepEqual(wrong, [], `${wrong.join("\n")}\n${JSON.stringify(steps)}`);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  // The generator reaches every status of each check, so the property is not vacuous.
  for (const expected of ["tools-relisted-after-change:pass", "tools-relisted-after-change:fail", "tools-relisted-after-change:info", "cursor-not-looped:pass", "cursor-not-looped:fail", "elicitation-answered:pass", "elicitation-answered:fail", "elicitation-answered:info"]) {
    assert.ok(judged.has(expected), `no generated journal gave ${expected}: ${[...judged].join(", ")}`);
  }
});
