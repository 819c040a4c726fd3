import { isRecord } from "../classify/index.ts";
import { decodeHeaderValue } from "../mcp/modern-headers.ts";
import { type Check, type Observation, observe, summarize } from "./check.ts";
import { errorCode, type Exchange, firstFrom, resultOf } from "./exchange.ts";

/**
 * The task client, judged from the wire (SEP-2663, the `io.modelcontextprotocol/tasks` extension of 2026-07-28).
 * A task is a tools/call answered with a CreateTaskResult (`resultType: "task"`); the client then polls it with
 * tasks/get, answers its inputRequests with tasks/update and may end it with tasks/cancel. Task Polling: clients
 * SHOULD respect `pollIntervalMs` and SHOULD continue polling until a terminal status or until invoking tasks/cancel;
 * Task Cancellation: the client does not need to poll tasks/get again after its cancel; Routing Headers: tasks/*
 * MUST carry `Mcp-Name: <params.taskId>`.
 */

const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);
const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** A poll may come this much sooner than pollIntervalMs and still count as honouring it: the larger of 50 ms and a tenth. */
export function pollSlackMs(intervalMs: number): number {
  return Math.max(50, Math.round(intervalMs / 10));
}
/** tasks/get after the first terminal answer that are still "one more look", not polling on. */
export const POLLS_PAST_TERMINAL = 1;
/** tasks/get of a task the server no longer knows (-32602) that still count as making sure, not polling forever. */
export const LOST_TASK_POLL_BOUND = 3;
/** Without a pollIntervalMs, a client that went on this long without polling again left the task. */
const DEFAULT_INTERVAL_MS = 1000;

interface TaskTrack {
  taskId: string;
  /** The tools/call answered with the CreateTaskResult. */
  created: Exchange;
  /** The client's tasks/* requests for this task, in arrival order, after the creation. */
  requests: Exchange[];
}

export function taskIdOf(x: Exchange): string | undefined {
  return x.isRequest && x.method !== undefined && TASK_METHODS.has(x.method) && typeof x.params?.taskId === "string" ? x.params.taskId : undefined;
}
const statusOf = (x: Exchange): string | undefined => (typeof resultOf(x)?.status === "string" ? (resultOf(x)?.status as string) : undefined);
const intervalOf = (x: Exchange): number | undefined => (typeof resultOf(x)?.pollIntervalMs === "number" ? (resultOf(x)?.pollIntervalMs as number) : undefined);
const isPoll = (x: Exchange) => x.method === "tasks/get";
const acked = (x: Exchange) => x.status === 200 && resultOf(x) !== undefined;

/** Every task the journal saw created, with the client's requests about it: one pass, grouped by task id. */
function tracks(all: readonly Exchange[]): TaskTrack[] {
  const found: TaskTrack[] = [];
  const byId = new Map<string, TaskTrack>();
  for (const x of all) {
    const result = resultOf(x);
    if (x.method === "tools/call" && result?.resultType === "task" && typeof result.taskId === "string") {
      const track: TaskTrack = { taskId: result.taskId, created: x, requests: [] };
      found.push(track);
      byId.set(track.taskId, track);
      continue;
    }
    const taskId = taskIdOf(x);
    if (taskId !== undefined) byId.get(taskId)?.requests.push(x);
  }
  return found;
}

/** The first answer about the task (the creation included) that gave a terminal status. */
function firstTerminal(t: TaskTrack): Exchange | undefined {
  return [t.created, ...t.requests].find((x) => (x === t.created || isPoll(x)) && TERMINAL.has(statusOf(x) ?? ""));
}

const short = (taskId: string) => (taskId.length > 12 ? `${taskId.slice(0, 8)}…` : taskId);
const what = (t: TaskTrack) => `task ${short(t.taskId)} of ${String(t.created.params?.name ?? "tools/call")} (seq ${t.created.seq})`;

// ---- task-poll-interval-honoured ----

interface Gap { poll: Exchange; after: Exchange; gapMs: number; intervalMs: number }

/** Each tasks/get's wait since the previous answer that asked for an interval; the first poll after a tasks/update is not timed. */
function gaps(t: TaskTrack): Gap[] {
  const found: Gap[] = [];
  let last: Exchange | undefined = t.created;
  const end = firstTerminal(t);
  for (const x of t.requests) {
    if (end !== undefined && x.index > end.index) break;
    if (x.method === "tasks/update") last = undefined;
    if (!isPoll(x)) continue;
    const intervalMs = last === undefined ? undefined : intervalOf(last);
    if (last !== undefined && intervalMs !== undefined) found.push({ poll: x, after: last, gapMs: x.start - last.end, intervalMs });
    last = x;
  }
  return found;
}

function judgeInterval(t: TaskTrack): Observation | undefined {
  const all = gaps(t);
  if (all.length === 0) return undefined;
  const soon = all.filter((g) => g.gapMs < g.intervalMs - pollSlackMs(g.intervalMs));
  if (soon.length > 0) {
    const g = soon[0]!;
    return observe(
      "fail",
      `The client polled ${what(t)} ${g.gapMs} ms after the answer at seq ${g.after.seq}, which asked for pollIntervalMs ${g.intervalMs} (seq ${g.poll.seq}; ${soon.length} of ${all.length} polls came too soon).`,
      ...soon.flatMap((s) => [s.after.seq, s.poll.seq]),
    );
  }
  const least = all.reduce((a, b) => (b.gapMs < a.gapMs ? b : a));
  const times = all.length === 1 ? "once, waiting" : `${all.length} times, each waiting`;
  return observe("pass", `The client polled ${what(t)} ${times} at least the pollIntervalMs the previous answer asked (the shortest wait: ${least.gapMs} ms of ${least.intervalMs}).`, t.created.seq, ...all.map((g) => g.poll.seq));
}

// ---- task-polled-to-terminal ----

/**
 * The client went on with other requests well past the next poll it owed, without polling the task or cancelling it.
 * `requests` are the journal's JSON-RPC requests in arrival order (timeline), so the search starts at the first one
 * late enough and skips only the task's own requests: judging every task stays linear in the journal, however many
 * notifications or GETs follow its last poll.
 */
function leftAfter(requests: readonly Exchange[], t: TaskTrack, last: Exchange): Exchange | undefined {
  const wait = 2 * (intervalOf(last) ?? DEFAULT_INTERVAL_MS);
  let lo = firstFrom(requests, last.index + 1);
  let hi = requests.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (requests[mid]!.start > last.end + wait) hi = mid;
    else lo = mid + 1;
  }
  for (let i = lo; i < requests.length; i++) {
    const x = requests[i]!;
    if (taskIdOf(x) !== t.taskId && x.start > last.end + wait) return x;
  }
  return undefined;
}

function judgeTerminal(requests: readonly Exchange[], t: TaskTrack): Observation | undefined {
  if (t.requests.some((x) => x.method === "tasks/cancel")) return undefined; // task-not-polled-after-cancel judges it
  const end = firstTerminal(t);
  if (end !== undefined) {
    const past = t.requests.filter((x) => isPoll(x) && x.index > end.index);
    if (past.length > POLLS_PAST_TERMINAL) {
      return observe("fail", `The client polled ${what(t)} ${past.length} more times after it was ${statusOf(end)} (seq ${end.seq}): a terminal status ends the polling.`, end.seq, ...past.map((x) => x.seq));
    }
    return observe("pass", `The client polled ${what(t)} until it was ${statusOf(end)} (seq ${end.seq}) and then stopped.`, t.created.seq, end.seq, ...past.map((x) => x.seq));
  }
  const polls = t.requests.filter(isPoll);
  const last = polls.at(-1) ?? t.created;
  // The status as the client last read it: a poll refused (a 429, say) tells none.
  const read = [t.created, ...polls].filter((x) => statusOf(x) !== undefined).at(-1) ?? t.created;
  const status = `${statusOf(read) ?? "of unknown status"} (read at seq ${read.seq})`;
  const left = leftAfter(requests, t, last);
  if (left) {
    return observe("fail", `The client left ${what(t)} while it was ${status}: it went on (seq ${left.seq}) without polling it again or cancelling it.`, last.seq, left.seq);
  }
  return observe("info", `The journal ends while ${what(t)} was ${status}, its last poll at seq ${last.seq}: it cannot tell whether the client would have polled on.`, last.seq);
}

// ---- task-not-polled-after-cancel ----

function judgeCancel(t: TaskTrack): Observation | undefined {
  const cancel = t.requests.find((x) => x.method === "tasks/cancel" && acked(x));
  if (cancel === undefined) return undefined;
  const after = t.requests.filter((x) => isPoll(x) && x.index > cancel.index);
  const end = after.find((x) => TERMINAL.has(statusOf(x) ?? ""));
  const past = end === undefined ? [] : after.filter((x) => x.index > end.index);
  const seqs = [cancel.seq, ...after.map((x) => x.seq)];
  if (past.length > POLLS_PAST_TERMINAL) {
    return observe("fail", `After its tasks/cancel of ${what(t)} (seq ${cancel.seq}), the client polled it ${past.length} more times after it was ${statusOf(end!)} (seq ${end!.seq}).`, ...seqs);
  }
  if (after.length === 0) return observe("pass", `The client stopped polling ${what(t)} at its tasks/cancel (seq ${cancel.seq}).`, ...seqs);
  if (after.length === 1) return observe("pass", `After its tasks/cancel of ${what(t)} (seq ${cancel.seq}), the client looked once more (seq ${after[0]!.seq}), which SEP-2663 allows but does not need.`, ...seqs);
  return observe(
    "warning",
    `After its tasks/cancel of ${what(t)} (seq ${cancel.seq}), the client polled it ${after.length} more times: SEP-2663 ends polling at the cancel (the client does not need to poll tasks/get again).`,
    ...seqs,
  );
}

// ---- task-mcp-name-sent ----

function judgeMcpName(all: readonly Exchange[]): Observation[] {
  const requests = all.filter((x) => taskIdOf(x) !== undefined && x.entry.era !== "legacy");
  if (requests.length === 0) return [];
  const wrong = requests.filter((x) => {
    const raw = x.entry.request.headers["mcp-name"];
    return raw === undefined || decodeHeaderValue(raw) !== taskIdOf(x);
  });
  if (wrong.length > 0) {
    const first = wrong[0]!;
    const sent = first.entry.request.headers["mcp-name"];
    const said = sent === undefined ? "no Mcp-Name header" : `Mcp-Name: ${sent}`;
    return [observe("fail", `${wrong.length} of ${requests.length} tasks/* requests did not carry Mcp-Name equal to params.taskId (seq ${first.seq}, ${first.method}, sent ${said}).`, ...wrong.map((x) => x.seq))];
  }
  return [observe("pass", `All ${requests.length} tasks/* requests carried Mcp-Name equal to params.taskId.`, ...requests.map((x) => x.seq))];
}

// ---- task-polling-bounded ----

/** A task id the server answered -32602 for (not found, or past its ttlMs): its first such tasks/get and the polls after it. */
interface LostTask { taskId: string; refused: Exchange; again: Exchange[] }

/** Every lost task id, in the order of the refusals: one pass, grouped by task id. */
function lostTasks(all: readonly Exchange[]): LostTask[] {
  const byId = new Map<string, LostTask>();
  for (const x of all) {
    const taskId = taskIdOf(x);
    if (taskId === undefined || !isPoll(x)) continue;
    const found = byId.get(taskId);
    if (found !== undefined) found.again.push(x);
    else if (errorCode(x) === -32602) byId.set(taskId, { taskId, refused: x, again: [] });
  }
  return [...byId.values()];
}

/** The tools/call of each tool, in journal order, to find the first one after a point by binary search. */
function callsByTool(all: readonly Exchange[]): Map<string, Exchange[]> {
  const byTool = new Map<string, Exchange[]>();
  for (const x of all) {
    const name = x.isRequest && x.method === "tools/call" ? x.params?.name : undefined;
    if (typeof name !== "string") continue;
    const list = byTool.get(name) ?? [];
    if (list.length === 0) byTool.set(name, list);
    list.push(x);
  }
  return byTool;
}

function firstAfter(list: readonly Exchange[], index: number): Exchange | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.index <= index) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

/** What the client did instead of polling on: called the task's tool again (a task re-created), or nothing the journal shows. */
function instead(lost: LostTask, track: TaskTrack | undefined, byTool: Map<string, Exchange[]>): { text: string; call?: Exchange } {
  const tool = track?.created.params?.name;
  if (typeof tool !== "string") return { text: "" };
  const call = firstAfter(byTool.get(tool) ?? [], lost.refused.index);
  if (call === undefined) return { text: `; it did not call ${tool} again (the journal cannot tell whether it reported the loss)` };
  const result = resultOf(call);
  const answer = result?.resultType === "task" && typeof result.taskId === "string" ? `, answered with task ${short(result.taskId)}` : "";
  return { text: `, and re-created it: tools/call ${tool} again at seq ${call.seq}${answer}`, call };
}

function judgeLost(lost: LostTask, track: TaskTrack | undefined, byTool: Map<string, Exchange[]>): Observation {
  const { refused, again } = lost;
  const error = refused.reply.message?.error;
  const said = isRecord(error) && typeof error.message === "string" ? ` "${error.message}"` : "";
  const head = `After the -32602${said} at seq ${refused.seq} to tasks/get of ${track ? what(track) : `task ${short(lost.taskId)}`}, the client`;
  const seqs = [refused.seq, ...again.map((x) => x.seq)];
  if (again.length > LOST_TASK_POLL_BOUND) {
    return observe("fail", `${head} polled it ${again.length} more times (more than ${LOST_TASK_POLL_BOUND}): a task the server no longer knows is polled forever.`, ...seqs);
  }
  const more = again.length === 0 ? "stopped polling it" : `polled it ${again.length} more time${again.length === 1 ? "" : "s"}, within ${LOST_TASK_POLL_BOUND}, then stopped`;
  const next = instead(lost, track, byTool);
  return observe("pass", `${head} ${more}${next.text}.`, ...seqs, ...(next.call ? [next.call.seq] : []));
}

// ---- task-input-key-answered-once ----

const keysOf = (value: unknown): string[] => (isRecord(value) ? Object.keys(value) : []);

interface Repeat { key: string; first: Exchange; again: Exchange; shown?: Exchange }

/**
 * The keys the client answered in an acknowledged tasks/update and then again in a later one, with the tasks/get
 * that showed the key once more in between (a refused update answered nothing, so its keys may be sent again).
 */
function repeats(t: TaskTrack): { answered: Map<string, Exchange>; repeated: Repeat[]; shownAgain: number } {
  const answered = new Map<string, Exchange>();
  const shown = new Map<string, Exchange>();
  const repeated: Repeat[] = [];
  let shownAgain = 0;
  for (const x of t.requests) {
    if (isPoll(x)) {
      for (const key of keysOf(resultOf(x)?.inputRequests)) {
        shown.set(key, x);
        if (answered.has(key)) shownAgain++;
      }
    }
    if (x.method !== "tasks/update" || !acked(x)) continue;
    for (const key of keysOf(x.params?.inputResponses)) {
      const first = answered.get(key);
      if (first === undefined) answered.set(key, x);
      else repeated.push({ key, first, again: x, ...(shown.has(key) ? { shown: shown.get(key)! } : {}) });
    }
  }
  return { answered, repeated, shownAgain };
}

function judgeKeys(t: TaskTrack): Observation | undefined {
  const { answered, repeated, shownAgain } = repeats(t);
  if (answered.size === 0) return undefined;
  if (repeated.length > 0) {
    const r = repeated[0]!;
    const why = r.shown !== undefined && r.shown.index > r.first.index ? `, after tasks/get at seq ${r.shown.seq} still showed it` : "";
    const keys = new Set(repeated.map((x) => x.key));
    return observe(
      "fail",
      `The client answered key ${r.key} of ${what(t)} twice: tasks/update at seq ${r.first.seq}, then again at seq ${r.again.seq}${why} (${keys.size} of ${answered.size} keys answered more than once; SEP-2663: clients SHOULD track inputRequests keys to avoid responding more than once).`,
      ...repeated.flatMap((x) => [x.first.seq, ...(x.shown ? [x.shown.seq] : []), x.again.seq]),
    );
  }
  const again = shownAgain === 0 ? "" : `, though tasks/get showed an answered key ${shownAgain} more time${shownAgain === 1 ? "" : "s"}`;
  return observe("pass", `The client answered each of the ${answered.size} inputRequests key${answered.size === 1 ? "" : "s"} of ${what(t)} once${again}.`, ...[...answered.values()].map((x) => x.seq));
}

// ---- task-resumed-after-restart ----

/** The requests a client sends when it (re)starts: the first of a 2026-07-28 client, and a legacy one's handshake. */
const START_METHODS: ReadonlySet<string> = new Set(["server/discover", "initialize"]);

function startsOf(all: readonly Exchange[]): Exchange[] {
  return all.filter((x) => x.isRequest && x.method !== undefined && START_METHODS.has(x.method));
}

/**
 * A client that starts over (server/discover or initialize) while its task still works: SEP-2663 Task Polling,
 * "Clients SHOULD persist task IDs to durable storage so that polling can resume after a crash or restart".
 * Resumed: a tasks/* request names the task after the start; not: it never does (a tools/call of the tool again is
 * named, as the task run twice).
 */
function judgeResumed(t: TaskTrack, starts: readonly Exchange[], byTool: Map<string, Exchange[]>): Observation | undefined {
  const start = firstAfter(starts, t.created.index);
  const end = firstTerminal(t);
  if (start === undefined || (end !== undefined && end.index < start.index)) return undefined;
  const head = `The client started over (${start.method} at seq ${start.seq}) while ${what(t)} was not finished`;
  const next = t.requests.find((x) => x.index > start.index);
  if (next !== undefined) return observe("pass", `${head}, and resumed it: ${next.method} at seq ${next.seq} names the same taskId.`, t.created.seq, start.seq, next.seq);
  const tool = t.created.params?.name;
  const again = typeof tool === "string" ? firstAfter(byTool.get(tool) ?? [], start.index) : undefined;
  const instead = again === undefined ? "" : ` It called ${String(tool)} again at seq ${again.seq} instead, running the work twice.`;
  return observe(
    "fail",
    `${head}, and never named the task again: it lost the task id (SEP-2663: clients SHOULD persist task IDs so that polling can resume after a crash or restart).${instead}`,
    t.created.seq, start.seq, ...(again ? [again.seq] : []),
  );
}

/**
 * task-poll-interval-honoured, task-polled-to-terminal, task-not-polled-after-cancel, task-mcp-name-sent,
 * task-polling-bounded, task-input-key-answered-once and task-resumed-after-restart: the task client's polling, from the tasks the journal saw created and the tasks/* it sent.
 */
export function taskChecks(all: readonly Exchange[]): Check[] {
  const found = tracks(all);
  const lost = lostTasks(all);
  const lostIds = new Set(lost.map((l) => l.taskId));
  const byId = new Map(found.map((t) => [t.taskId, t]));
  const byTool = callsByTool(all);
  const starts = startsOf(all);
  const requests = all.filter((x) => x.isRequest);
  const some = <T>(xs: (T | undefined)[]) => xs.filter((x): x is T => x !== undefined);
  return [
    ...summarize("task-poll-interval-honoured", some(found.map(judgeInterval))),
    ...summarize("task-polled-to-terminal", some(found.map((t) => (lostIds.has(t.taskId) ? undefined : judgeTerminal(requests, t))))),
    ...summarize("task-not-polled-after-cancel", some(found.map(judgeCancel))),
    ...summarize("task-mcp-name-sent", judgeMcpName(all)),
    ...summarize("task-polling-bounded", lost.map((l) => judgeLost(l, byId.get(l.taskId), byTool))),
    ...summarize("task-input-key-answered-once", some(found.map(judgeKeys))),
    ...summarize("task-resumed-after-restart", some(found.map((t) => judgeResumed(t, starts, byTool)))),
  ];
}
