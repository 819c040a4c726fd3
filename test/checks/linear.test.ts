import { test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import { type Exchange, timeline } from "../../src/checks/exchange.ts";
import { catalogChangeChecks } from "../../src/checks/catalog-change.ts";
import { badAnswerChecks } from "../../src/checks/bad-answer.ts";
import { cursorChecks } from "../../src/checks/cursor.ts";
import { elicitationChecks } from "../../src/checks/elicitation.ts";
import { methodNotFoundChecks } from "../../src/checks/method-not-found.ts";
import { progressChecks } from "../../src/checks/progress.ts";
import { reinitializeChecks } from "../../src/checks/reinitialize.ts";
import { streamRecoveryChecks } from "../../src/checks/stream-recovery.ts";
import { sessionIdRefusalChecks } from "../../src/checks/session-id-refusal.ts";
import { taskChecks } from "../../src/checks/tasks.ts";
import { timeoutChecks } from "../../src/checks/timeouts.ts";
import { toolErrorChecks } from "../../src/checks/tool-error.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { call, cutCall, entry, resumeGet } from "./entries.ts";

// A client controls how many triggers its journal holds (up to JOURNAL_MAX_ENTRIES), so a check that scans the
// journal once per trigger costs its square. Each family below gets the journal that was its worst case (every
// entry a trigger, none answered by a later one), at n and 4n entries, and the work is counted as reads of the
// exchanges' properties (no clock): linear work grows about 4 times, quadratic work 16 times.

const N = 100;
const LINEAR_BOUND = 6;

const sse = (...messages: object[]) => messages.map((m) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...m })}\n\n`).join("");
const legacy = (i: number) => ({ legacy: true, headers: { "mcp-session-id": `s-${i}`, "mcp-protocol-version": "2025-11-25" } });

const JOURNALS: Record<string, { family: (all: readonly Exchange[]) => Check[]; id: string; entry: (i: number, n: number) => JournalEntry }> = {
  "cursor-not-looped": {
    family: cursorChecks,
    id: "cursor-not-looped",
    entry: (i) => entry({ seq: i + 1, at: i * 10, method: "tools/list", params: { cursor: `c${i}` }, error: { code: -32602, message: "Invalid params: cursor has expired" } }),
  },
  "cursor-not-looped, refusals after many first pages": {
    family: cursorChecks,
    id: "cursor-not-looped",
    entry: (i, n) =>
      i < n / 2
        ? entry({ seq: i + 1, at: i * 10, method: "tools/list", result: { tools: [] } })
        : entry({ seq: i + 1, at: i * 10, method: "tools/list", params: { cursor: `c${i}` }, error: { code: -32602, message: "Invalid params: cursor has expired" } }),
  },
  "session-id-refusal-handled, refusals after many requests without a session": {
    family: sessionIdRefusalChecks,
    id: "session-id-refusal-handled",
    entry: (i, n) =>
      i < n / 2
        ? call(i + 1, i * 10, "echo", { text: "hi" }, { legacy: true, headers: { "mcp-protocol-version": "2025-11-25" } })
        : call(i + 1, i * 10, "echo", { text: "hi" }, { ...legacy(i), status: 400, error: { code: -32600, message: "Bad Request: Mcp-Session-Id header is required" } }),
  },
  "session-id-refusal-handled": {
    family: sessionIdRefusalChecks,
    id: "session-id-refusal-handled",
    entry: (i) => call(i + 1, i * 10, "echo", { text: "hi" }, { ...legacy(i), status: 400, error: { code: -32600, message: "Bad Request: Mcp-Session-Id header is required" } }),
  },
  "tools-relisted-after-change": {
    family: catalogChangeChecks,
    id: "tools-relisted-after-change",
    entry: (i) => call(i + 1, i * 10, "trigger_tool_change", {}, { ...legacy(0), sse: true, body: sse({ method: "notifications/tools/list_changed", params: {} }, { id: i + 1, result: { content: [] } }) }),
  },
  "elicitation-answered": {
    family: elicitationChecks,
    id: "elicitation-answered",
    entry: (i) => call(i + 1, i * 10, "place_order", { item: "tea" }, { ...legacy(i), sse: true, body: sse({ id: `e${i}`, method: "elicitation/create", params: { mode: "form", message: "Approve?" } }, { id: i + 1, result: { content: [] } }) }),
  },
  "progress-patience": {
    family: progressChecks,
    id: "progress-patience",
    entry: (i) =>
      call(i + 1, i * 10, "slow_report", {}, {
        ...legacy(0),
        sse: true,
        body: sse({ method: "notifications/progress", params: { progressToken: `p${i}`, progress: 1 } }),
        params: { _meta: { progressToken: `p${i}` } },
        fault: { kind: "progress", ms: 10_000, intervalMs: 1_000, patienceMs: 5_000, boundMs: 8_000 },
        clientClosedAtMs: 2_000,
        durationMs: 2_000,
      }),
  },
  "session-reinitialized": {
    family: reinitializeChecks,
    id: "session-reinitialized",
    entry: (i) => call(i + 1, i * 10, "echo", { text: "hi" }, { ...legacy(i), status: 404, error: { code: -32001, message: "Session not found" } }),
  },
  "bad-answer-handled": {
    family: badAnswerChecks,
    id: "bad-answer-handled",
    entry: (i) => call(i + 1, i * 10, `tool_${i}`, {}, { ...legacy(0), body: "{not json", responseHeaders: { "content-type": "application/json" }, fault: { kind: "malformed", variant: "invalid_json" } }),
  },
  "tool-error-next-step": {
    family: toolErrorChecks,
    id: "tool-error-next-step",
    entry: (i) => call(i + 1, i * 10, `tool_${i}`, {}, { result: { content: [{ type: "text", text: "failed" }], isError: true } }),
  },
  "timeout-cancelled": {
    family: timeoutChecks,
    id: "timeout-cancelled",
    entry: (i) => call(i + 1, i * 10, "echo", { text: "hi" }, { ...legacy(0), sse: true, body: "", fault: { kind: "hang" }, clientClosedAtMs: 1_000, durationMs: 1_000 }),
  },
  // Every other entry a cut stream whose client never resumes it (each cut looked through the rest of the journal).
  "stream-resumed, cuts never resumed": {
    family: streamRecoveryChecks,
    id: "stream-resumed",
    entry: (i) => (i % 2 === 0 ? cutCall(i + 1, i * 10, `tool_${i}`, `id: e-${i}\nretry: 5\ndata: \n\n`) : call(i + 1, i * 10, `other_${i}`, {}, { legacy: true })),
  },
  // Cuts without event ids, each re-sent after all the others were cut (each cut walked to its re-send).
  "cut-call-resent, re-sends after every cut": {
    family: streamRecoveryChecks,
    id: "cut-call-resent",
    entry: (i, n) => (i < n / 2 ? cutCall(i + 1, i * 10, "echo", "", { text: `t${i}` }) : call(i + 1, i * 10, "echo", { text: `t${i - n / 2}` }, { legacy: true })),
  },
  // Resumable cuts, each resumed after all the others were cut (each cut walked to its resume, twice).
  "stream-retry-honoured, resumes after every cut": {
    family: streamRecoveryChecks,
    id: "stream-retry-honoured",
    entry: (i, n) => (i < n / 2 ? cutCall(i + 1, i * 10, "echo", `id: e-${i}\nretry: 5\ndata: \n\n`) : resumeGet(i + 1, i * 10, `e-${i - n / 2}`)),
  },
  // Tasks not yet polled, then notifications past the poll each owed (each task looked through every notification for a request).
  "task-polled-to-terminal, notifications after every task": {
    family: taskChecks,
    id: "task-polled-to-terminal",
    entry: (i, n) =>
      i < n / 2
        ? call(i + 1, i * 10, "slow_compute", {}, { result: { resultType: "task", taskId: `task-${i}`, status: "working", pollIntervalMs: 60_000, ttlMs: 600_000 } })
        : entry({ seq: i + 1, at: 200_000 + i * 10, method: "notifications/progress", notification: true, params: { progressToken: "p", progress: i } }),
  },
  "method-not-found-not-repeated": {
    family: methodNotFoundChecks,
    id: "method-not-found-not-repeated",
    entry: (i) => entry({ seq: i + 1, at: i * 10, method: `x/m${i}`, error: { code: -32601, message: "Method not found" } }),
  },
};

/** The property reads a family makes on the exchanges of a journal of `n` entries, and the checks it gave. */
function work(journal: (typeof JOURNALS)[string], n: number): { reads: number; checks: Check[] } {
  let reads = 0;
  const counted = timeline(Array.from({ length: n }, (_, i) => journal.entry(i, n))).map(
    (x) => new Proxy(x, { get: (target, key, receiver) => (reads++, Reflect.get(target, key, receiver)) }),
  );
  // The array too: a copy or a scan of it (slice, indexOf) reads every element.
  const array = new Proxy(counted, { get: (target, key, receiver) => (typeof key === "string" && /^\d+$/.test(key) && reads++, Reflect.get(target, key, receiver)) });
  const checks = journal.family(array);
  return { reads, checks };
}

for (const [name, journal] of Object.entries(JOURNALS)) {
  test(`${name}: the checks' work grows linearly with the journal, not with its square`, () => {
    const small = work(journal, N);
    const large = work(journal, 4 * N);
    const judged = large.checks.find((c) => c.id === journal.id);
    assert.ok(judged, `the journal must trigger ${journal.id}: ${JSON.stringify(large.checks.map((c) => c.id))}`);
    const ratio = large.reads / small.reads;
    assert.ok(ratio <= LINEAR_BOUND, `${name}: ${small.reads} reads at ${N} entries, ${large.reads} at ${4 * N} (×${ratio.toFixed(1)}; linear is about ×4, quadratic ×16)`);
  });
}
