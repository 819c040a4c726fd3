import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { OUTCOMES } from "../../src/classify/index.ts";
import { authChecks } from "../../src/checks/auth.ts";
import { errorCode, type Exchange, targetOf, timeline } from "../../src/checks/exchange.ts";
import { type Check, checksOf } from "../../src/checks/index.ts";
import { type JournalEntry, JournalEntrySchema } from "../../src/journal/entry.ts";
import type { GrantEvent } from "../../src/oauth/records.ts";
import { call, cutCall, entry, type EntryInput, initialize, MODERN, resumeGet, SESSION, T0 } from "./entries.ts";

// A property over generated journals: no check's message states a fact (a success, a repeat failure, a resend, a
// tool that never ran, a gap) that the journal entries it cites contradict. The journals follow the entry schema
// (src/journal/entry.ts, each one parsed by it) and realistic sequences: calls answered or refused in every way the
// checks judge (503 and 429 with or without Retry-After, 401 and 403 challenges, -32602 and -32603, tool errors, cut
// streams with and without event ids, resumed GETs, malformed, envelope and bad_result answers, a legacy 400 saying
// Mcp-Session-Id is required, an initialize refused for its version), identical resends, changed arguments, effects
// as the server journals them, other methods (initialize, server/discover, tools/list, notifications, a GET's 405)
// and grants; and
// timeouts: a stalled call the client abandoned (either era), a hang the deadline cut, a notifications/cancelled.

/** Fixed, so a failure reproduces; FUZZ_SEED picks another fixed seed, as for the HTTP fuzzing. */
const SEED = Number(process.env.FUZZ_SEED ?? "20261201");
const RUNS = Number(process.env.FUZZ_CASES ?? "300");

const KINDS = [
  "ok", "503", "503-wait", "429-wait", "401", "403", "invalid", "internal", "tool-error", "cut", "cut-ids", "get-405", "initialize", "discover", "tools-list", "notification",
  "malformed", "envelope", "bad-result", "id-refused", "legacy-ok", "init-refused", "abandoned", "deadline", "cancel",
] as const;
type Kind = (typeof KINDS)[number];
const TOOLS = ["place_order", "echo", "send_mail"] as const;

interface Step {
  kind: Kind;
  tool: (typeof TOOLS)[number];
  variant: 1 | 2;
  /** Send the previous tools/call again, identically (a resend), instead of `tool` and `variant`. */
  resend: boolean;
  /** The same JSON-RPC id as the previous call (a transport's resend) or a new one. */
  sameId: boolean;
  gapMs: number;
  durationMs: number;
  effects: "ran" | "possible" | "absent";
  /** cut-ids: whether the client resumed, and whether the resumed GET delivered the answer. */
  resume: "none" | "delivered" | "refused";
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...KINDS),
  tool: fc.constantFrom(...TOOLS),
  variant: fc.constantFrom(1 as const, 2 as const),
  resend: fc.boolean(),
  sameId: fc.boolean(),
  gapMs: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 12_000 })),
  durationMs: fc.integer({ min: 1, max: 60 }),
  effects: fc.constantFrom("ran" as const, "possible" as const, "absent" as const),
  resume: fc.constantFrom("none" as const, "delivered" as const, "refused" as const),
});

const grantArb = (span: number): fc.Arbitrary<GrantEvent> =>
  fc.record({
    at: fc.integer({ min: -100, max: span }).map((at) => T0 + at),
    grantType: fc.constantFrom("authorization_code", "refresh_token"),
    scope: fc.constantFrom("faultline:read", "faultline:read faultline:write"),
    outcome: fc.constantFrom("issued", "issued", "invalid_grant"),
  });

const challenge = (error: string, scope = "") => ({ "www-authenticate": `Bearer error="${error}"${scope ? `, scope="${scope}"` : ""}, resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"` });
const argsOf = (tool: string, variant: number) => (tool === "place_order" ? { item: "widget", quantity: variant } : tool === "echo" ? { text: `t${variant}` } : { to: `u${variant}` });

/** The step's entries, with the fault the scenario performed on its call journalled as the recorder does. */
function faulted(made: { entries: JournalEntry[]; call?: { tool: string; args: Record<string, unknown>; id: number } }, kind: string, variant: string) {
  return { ...made, entries: made.entries.map((e) => ({ ...e, fault: { kind, rule: "generated", detail: { kind, variant } } })) };
}

/** The entries one step adds, as the recorder would journal them (a tools/call, or another exchange). */
function build(s: Step, seq: number, at: number, previous: { tool: string; args: Record<string, unknown>; id: number } | undefined): { entries: JournalEntry[]; call?: { tool: string; args: Record<string, unknown>; id: number } } {
  const again = s.resend && previous !== undefined;
  const tool = again ? previous.tool : s.tool;
  const args = again ? previous.args : argsOf(s.tool, s.variant);
  const id = again && s.sameId ? previous.id : seq;
  const base: Partial<EntryInput> = { durationMs: s.durationMs, id };
  const ran = s.effects === "absent" ? {} : { effects: s.effects };
  const none = s.effects === "absent" ? {} : { effects: "none" as const };
  const made = (rest: Partial<EntryInput>) => ({ entries: [call(seq, at, tool, args, { ...base, ...rest })], call: { tool, args, id } });
  switch (s.kind) {
    case "ok":
      return made({ effects: "ran" });
    case "503":
      return made({ status: 503, ...none });
    case "503-wait":
      return made({ status: 503, responseHeaders: { "retry-after": "1" }, ...none });
    case "429-wait":
      return made({ status: 429, responseHeaders: { "retry-after": "2" }, ...none });
    case "401":
      return made({ status: 401, responseHeaders: challenge("invalid_token"), error: { code: -32600, message: "Unauthorized" }, ...none });
    case "403":
      return made({ status: 403, responseHeaders: challenge("insufficient_scope", "faultline:write"), error: { code: -32600, message: "Forbidden" }, ...none });
    case "invalid":
      return made({ error: { code: -32602, message: "Invalid params (injected by Faultline)" }, ...none });
    case "internal":
      return made({ error: { code: -32603, message: "Internal error" }, ...none });
    case "malformed":
      return faulted(made({ body: "{jsonrpc: 2.0, id: oops", responseHeaders: { "content-type": "application/json" }, ...none }), "malformed", "invalid_json");
    case "envelope":
      return faulted(made({ ...ran }), "envelope", "wrong_id");
    case "bad-result":
      return faulted(made({ result: { resultType: "complete", content: { type: "text", text: "ok" } }, ...ran }), "bad_result", "content_not_array");
    case "id-refused":
      return made({ legacy: true, headers: { "mcp-session-id": `sess-${s.variant}`, "mcp-protocol-version": "2025-11-25" }, status: 400, error: { code: -32600, message: "Bad Request: Mcp-Session-Id header is required" }, ...none });
    case "legacy-ok":
      return made({ legacy: true, headers: { "mcp-session-id": `sess-${s.variant}`, "mcp-protocol-version": "2025-11-25" }, effects: "ran" });
    case "init-refused":
      return { entries: [initialize(seq, at, { error: { code: -32602, message: "Unsupported protocol version", data: { supported: ["2025-06-18"], requested: "2025-11-25" } } })] };
    case "tool-error":
      return made({ result: { content: [{ type: "text", text: "Payment declined" }], isError: true }, ...(s.effects === "absent" ? {} : { effects: "possible" as const }) });
    case "cut":
      return made({ sse: true, cut: true, ...ran });
    case "cut-ids": {
      const cut = cutCall(seq, at, tool, `id: e-${seq}\nretry: 100\ndata: \n\n`, args, { durationMs: s.durationMs, ...ran });
      if (s.resume === "none") return { entries: [cut], call: { tool, args, id: 1 } };
      const get = resumeGet(seq + 1, at + s.durationMs + 150, `e-${seq}`, s.resume === "delivered", { tool });
      return { entries: [cut, get], call: { tool, args, id: 1 } };
    }
    case "get-405":
      return {
        entries: [{
          seq,
          time: new Date(T0 + at).toISOString(),
          durationMs: s.durationMs,
          request: { method: "GET", url: "/s/test/mcp", headers: { accept: "text/event-stream" }, body: { text: "", bytes: 0, truncated: false } },
          response: { status: 405, headers: {}, body: { text: "", bytes: 0, truncated: false } },
          rpc: { kind: "invalid" },
          scenario: "test",
        }],
      };
    case "initialize":
      return { entries: [initialize(seq, at, { newSessionId: `s${seq}` })] };
    case "discover":
      return { entries: [entry({ seq, at, durationMs: s.durationMs, method: "server/discover", result: { supportedVersions: [MODERN], capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } })] };
    case "tools-list":
      return {
        entries: [entry({
          seq,
          at,
          durationMs: s.durationMs,
          method: "tools/list",
          result: { tools: [{ name: "send_mail", inputSchema: { type: "object" } }, { name: "echo", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] },
        })],
      };
    case "notification":
      return { entries: [entry({ seq, at, durationMs: s.durationMs, method: "notifications/initialized", notification: true })] };
    case "abandoned": {
      // The client closed a stalled stream (its own timeout); variant 2 speaks 2025-11-25 on a legacy session.
      const legacy = s.variant === 2 ? { legacy: true, headers: SESSION } : {};
      return made({ sse: true, cut: true, body: ": faultline stall begins\n\n", clientClosedAtMs: s.durationMs, fault: { kind: "stall_stream", ms: 5_000 }, ...legacy, ...(s.effects === "absent" ? {} : { effects: s.effects === "ran" ? "none" : "possible" }) });
    }
    case "deadline":
      return made({ sse: true, cut: true, body: ": keep-alive\n\n", cutByDeadline: true, fault: { kind: "hang", ms: 900_000, keepAliveMs: 15_000 }, ...none });
    case "cancel":
      return { entries: [entry({ seq, at, durationMs: s.durationMs, method: "notifications/cancelled", notification: true, legacy: true, headers: SESSION, params: { requestId: previous?.id ?? 1, reason: "timeout" } })] };
  }
}

function journalOf(steps: readonly Step[]): JournalEntry[] {
  const entries: JournalEntry[] = [];
  let at = 0;
  let previous: { tool: string; args: Record<string, unknown>; id: number } | undefined;
  for (const s of steps) {
    const made = build(s, entries.length + 1, at, previous);
    entries.push(...made.entries);
    if (made.call) previous = made.call;
    const last = made.entries.at(-1)!;
    at = Date.parse(last.time) - T0 + last.durationMs + s.gapMs;
  }
  return entries;
}

const succeeded = (x: Exchange) => x.entry.verdict !== undefined && OUTCOMES[x.entry.verdict.outcome].success;
const failedCall = (x: Exchange) => x.entry.verdict !== undefined && !OUTCOMES[x.entry.verdict.outcome].success && x.entry.verdict.outcome !== "INPUT_REQUIRED";
const sameTarget = (a: Exchange, b: Exchange) => a.method === b.method && targetOf(a) === targetOf(b);
const pairs = (xs: readonly Exchange[]) => xs.flatMap((a, i) => xs.slice(i + 1).map((b) => [a, b] as const));
const gapsOf = (xs: readonly Exchange[]) => new Set(pairs(xs).flatMap(([a, b]) => [b.start - a.end, a.start - b.end]));

/** Every fact the message states that the journal contradicts, as a sentence; empty when it agrees. */
function contradictions(c: Check, all: readonly Exchange[]): string[] {
  const bySeq = new Map(all.map((x) => [x.seq, x]));
  const cited = c.evidence.map((seq) => bySeq.get(seq)).filter((x): x is Exchange => x !== undefined).sort((a, b) => a.start - b.start);
  const named = [...c.message.matchAll(/seq (\d+)/g)].map((m) => bySeq.get(Number(m[1])));
  const wrong: string[] = [];
  const claim = (holds: boolean, what: string) => {
    if (!holds) wrong.push(`${c.id}: "${what}" is contradicted by seq ${c.evidence.join(", ")}: ${c.message}`);
  };
  if (c.evidence.some((seq) => !bySeq.has(seq)) || named.some((x) => x === undefined)) wrong.push(`${c.id}: cites a seq the journal does not have: ${c.message}`);
  // The classifier's TOOL_SUCCESS is its outcome for any result: never shown as a tool outcome.
  claim(!/TOOL_SUCCESS/.test(c.message), "TOOL_SUCCESS");
  // A success.
  for (const m of c.message.matchAll(/(got through: .*?)?\(seq (\d+)\) got HTTP (\d+)/g)) {
    claim(bySeq.get(Number(m[2]))?.status === Number(m[3]) && (m[1] === undefined || Number(m[3]) < 400), m[0]);
  }
  for (const m of c.message.matchAll(/\(seq (\d+)\) got (a tool result|a result to (\S+?))\./g)) {
    const x = bySeq.get(Number(m[1]));
    claim(x !== undefined && succeeded(x) && (m[3] === undefined ? x.method === "tools/call" : x.method === m[3]), m[0]);
  }
  if (/then succeeded|then got through/.test(c.message)) claim(cited.some((x) => x.status < 400), "then succeeded");
  if (/after it succeeded/.test(c.message)) claim(cited.some(succeeded) || named.some((x) => x !== undefined && succeeded(x)), "after it succeeded");
  if (/, and got the response/.test(c.message)) claim(named.some((x) => x?.httpMethod === "GET" && x.reply.message !== undefined), "got the response");
  for (const m of c.message.matchAll(/the last attempt got (\d+)(?!\d| too)/g)) claim(cited.some((x) => x.status === Number(m[1])), m[0]);
  // A repeat failure.
  for (const m of c.message.matchAll(/failed again \(seq (\d+), (-?\d+)\)/g)) claim(bySeq.get(Number(m[1])) !== undefined && errorCode(bySeq.get(Number(m[1]))!) === Number(m[2]), m[0]);
  if (/fail again/.test(c.message)) claim(cited.slice(1).some(failedCall), "fail again");
  for (const m of c.message.matchAll(/the last attempt got (\d+) too/g)) claim(cited.some((x) => x.status === Number(m[1])), m[0]);
  // A resend, identical or changed, and none.
  if (/sent again with the same arguments|called again with the same arguments|resent unchanged/.test(c.message)) {
    claim(pairs(cited).some(([a, b]) => sameTarget(a, b) && a.callKey !== undefined && (a.callKey === b.callKey || a.paramsKey === b.paramsKey)), "sent again unchanged");
  }
  if (/resent with changed (arguments|params)/.test(c.message)) claim(pairs(cited).some(([a, b]) => sameTarget(a, b) && a.paramsKey !== b.paramsKey), "resent with changed params");
  if (/^(Retried|Waited|Backed off) /.test(c.message) || /was retried \d+ time/.test(c.message)) claim(pairs(cited).some(([a, b]) => sameTarget(a, b) && a.callKey === b.callKey), "retried");
  for (const m of c.message.matchAll(/(\S+) was not resent after|(\S+) was not sent again after/g)) {
    const tool = m[1] ?? m[2]?.split(" ").at(-1);
    claim(cited.some((a) => a.method === "tools/call" && !all.some((y) => y.start > a.start && y.isRequest && sameTarget(a, y))), `${tool} not resent`);
  }
  if (/No retry observed after/.test(c.message)) {
    claim(cited.some((a) => !all.some((y) => y.start > a.start && y.isRequest && y.method === a.method && y.callKey === a.callKey)), "no retry observed");
  }
  // What the tool did the first time.
  if (/the tool never ran the first time/.test(c.message)) claim(cited.some((x) => x.entry.effects === "none" && failedCall(x)), "never ran");
  if (/does not say whether the first attempt ran the tool/.test(c.message)) claim(cited.some((x) => x.entry.effects === undefined), "effects unknown");
  if (/(?<!whether )the first attempt ran the tool/.test(c.message)) claim(cited.some((x) => x.entry.effects === "ran"), "ran");
  if (/the first attempt may have run the tool/.test(c.message)) claim(cited.some((x) => x.entry.effects === "possible"), "may have run");
  // Gaps, between two entries the message cites or names.
  const gaps = gapsOf([...cited, ...named.filter((x): x is Exchange => x !== undefined)]);
  for (const m of c.message.matchAll(/(?:^|[ (])(-?\d+) ms (?:later|after (?:a |an |it |HTTP|JSON|-32602|the stream ended))/g)) claim(gaps.has(Number(m[1])), `${m[1]} ms`);
  // Timeouts: the client's leave, the deadline, a fault that ended by itself, and the cancellation.
  for (const m of c.message.matchAll(/closing (?:the|its) stream after (\d+) ms|the client closed the stream (\d+) ms in/g)) {
    claim(cited.some((x) => x.entry.response.clientClosedAtMs === Number(m[1] ?? m[2])), m[0]);
  }
  if (/until the server's response deadline cut it/.test(c.message)) claim(cited.some((x) => x.entry.response.cutByDeadline === true), "cut by the deadline");
  for (const m of c.message.matchAll(/ended by itself after (\d+) ms/g)) {
    claim(cited.some((x) => x.entry.durationMs === Number(m[1]) && x.entry.response.clientClosedAtMs === undefined && !x.entry.response.cutByDeadline), m[0]);
  }
  const cancels = (x: Exchange, id: string) => all.some((y) => y.start >= x.start && y.method === "notifications/cancelled" && y.sessionId === x.sessionId && JSON.stringify(y.params?.requestId) === id);
  for (const m of c.message.matchAll(/sent notifications\/cancelled for request id (\S+) \(seq (\d+)\)/g)) {
    const y = bySeq.get(Number(m[2]));
    claim(y?.method === "notifications/cancelled" && JSON.stringify(y.params?.requestId) === m[1] && cited.some((x) => cancels(x, m[1]!)), m[0]);
  }
  for (const m of c.message.matchAll(/sent no notifications\/cancelled with requestId (\S+?):/g)) claim(cited.some((x) => !cancels(x, m[1]!)), m[0]);
  // The end of the journal.
  if (/then sent nothing more/.test(c.message)) claim(cited.at(-1) === all.at(-1) || cited.at(-2) === all.at(-1), "sent nothing more");
  if (/then no later exchange succeeded/.test(c.message)) claim(!all.some((y) => y.start > cited.at(-1)!.start && y.status < 400), "no later exchange succeeded");
  return wrong;
}

function judged(entries: JournalEntry[], grants: GrantEvent[] | undefined): Check[] {
  return checksOf(entries, grants);
}

test("no check's message states a fact the journal entries it cites contradict, over generated journals", () => {
  const journal = fc.array(step, { minLength: 1, maxLength: 10 }).chain((steps) => {
    const entries = journalOf(steps);
    const span = Date.parse(entries.at(-1)!.time) - T0 + 100;
    return fc.tuple(fc.constant(entries), fc.option(fc.array(grantArb(span), { maxLength: 3 }), { nil: undefined }));
  });
  let judgedChecks = 0;
  const ids = new Set<string>();
  let timeoutChecks = 0;
  const run = fc.check(
    fc.property(journal, ([entries, grants]) => {
      for (const e of entries) JournalEntrySchema.parse(e);
      const all = timeline(entries);
      const checks = judged(entries, grants?.sort((a, b) => a.at - b.at));
      judgedChecks += checks.length;
      for (const c of checks) ids.add(c.id);
      timeoutChecks += checks.filter((c) => c.id.startsWith("timeout-")).length;
      const found = checks.flatMap((c) => contradictions(c, all));
      if (found.length > 0) throw new Error(found.join("\n"));
    }),
    { seed: SEED, numRuns: RUNS },
  );
  // The shrunk journal's contradictions, readable (fast-check's report leaves the error out).
  assert.equal(run.failed, false, run.failed ? `${String(run.errorInstance)}\n(seed ${SEED}, path ${run.counterexamplePath})` : "");
  assert.ok(judgedChecks > RUNS, `the generated journals trigger checks (${judgedChecks} in ${RUNS} journals)`);
  for (const id of ["bad-answer-handled", "session-id-refusal-handled", "version-renegotiated"]) assert.ok(ids.has(id), `the generated journals trigger ${id}`);
  assert.ok(timeoutChecks > RUNS / 10, `the generated journals trigger the timeout checks (${timeoutChecks} in ${RUNS} journals)`);
});

// The property's own claims, each shown to catch the message it is there for (the messages of issue 24).
const one = (id: string, message: string, evidence: number[]): Check => ({ id, status: "pass", message, evidence });

test("the property flags 'then succeeded' after a 401 followed only by a GET's 405", () => {
  const entries = journalOf([
    { kind: "401", tool: "echo", variant: 1, resend: false, sameId: false, gapMs: 10, durationMs: 5, effects: "absent", resume: "none" },
    { kind: "get-405", tool: "echo", variant: 1, resend: false, sameId: false, gapMs: 10, durationMs: 5, effects: "absent", resume: "none" },
  ]);
  assert.equal(contradictions(one("auth-bounded-attempts", "The client met 1 auth refusal in a row, then succeeded.", [1]), timeline(entries)).length, 1);
});

test("the property flags 'the same invalid params fail again' when the resend got 200", () => {
  const entries = journalOf([
    { kind: "invalid", tool: "echo", variant: 1, resend: false, sameId: false, gapMs: 10, durationMs: 5, effects: "ran", resume: "none" },
    { kind: "ok", tool: "echo", variant: 1, resend: true, sameId: false, gapMs: 10, durationMs: 5, effects: "ran", resume: "none" },
  ]);
  const all = timeline(entries);
  assert.equal(contradictions(one("invalid-params-fixed", "tools/call echo was resent unchanged {} 10 ms after -32602: the same invalid params fail again.", [1, 2]), all).length, 1);
  assert.deepEqual(contradictions(checksOf(entries).find((c) => c.id === "invalid-params-fixed")!, all), []);
});

test("the property flags a success named a tool result on a method other than tools/call, and a resend that did not happen", () => {
  const entries = journalOf([
    { kind: "discover", tool: "echo", variant: 1, resend: false, sameId: false, gapMs: 10, durationMs: 5, effects: "ran", resume: "none" },
    { kind: "503", tool: "place_order", variant: 1, resend: false, sameId: false, gapMs: 10, durationMs: 5, effects: "ran", resume: "none" },
  ]);
  const all = timeline(entries);
  assert.ok(contradictions(one("x", "The resend (seq 1) got a tool result.", [1]), all).some((w) => w.includes("got a tool result")));
  const flags = (message: string, evidence: number[], what: string) => contradictions(one("x", message, evidence), all).some((w) => w.includes(`"${what}"`));
  assert.ok(flags("server/discover was TOOL_SUCCESS.", [1], "TOOL_SUCCESS"));
  assert.ok(flags("place_order was sent again with the same arguments {} 5 ms after HTTP 503 to place_order.", [2], "sent again unchanged"));
  assert.ok(flags("place_order was sent again with the same arguments: not a risky replay, since the tool never ran the first time.", [1], "never ran"));
});

test("the property flags a leave time, a cancellation and a deadline that the entries do not show", () => {
  const step = (kind: Kind, variant: 1 | 2 = 2): Step => ({ kind, tool: "place_order", variant, resend: false, sameId: false, gapMs: 10, durationMs: 30, effects: "ran", resume: "none" });
  const entries = journalOf([step("abandoned"), step("cancel"), step("ok")]);
  const all = timeline(entries);
  const flags = (message: string, evidence: number[]) => contradictions(one("timeout-cancelled", message, evidence), all).length > 0;
  assert.ok(flags("The client abandoned tools/call place_order (seq 1), closing its stream after 999 ms: …", [1]));
  assert.ok(flags("The client abandoned tools/call place_order (seq 1), closing its stream after 30 ms, and sent notifications/cancelled for request id 3 (seq 3).", [1, 3]));
  assert.ok(flags("The client abandoned tools/call place_order (seq 1), closing its stream after 30 ms, and sent no notifications/cancelled with requestId 1: …", [1]));
  assert.ok(flags("The client waited on tools/call place_order (seq 1) for 30 ms, until the server's response deadline cut it: …", [1]));
  assert.deepEqual(checksOf(entries).filter((c) => c.id === "timeout-cancelled").flatMap((c) => contradictions(c, all)), []);
});
