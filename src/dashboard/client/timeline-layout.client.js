// Served as /assets/timeline-layout.client.js. Pure geometry for the session timeline: no DOM, so Node tests
// can import it. Time runs along x (long idle stretches are cut to a fixed-width break), one lane per task or per
// method + tool, and the wait before each retry of a failed call is measured and flagged when it is too short.
import { OUTCOMES } from "./outcome-table.client.js";
import { TIMING } from "./wire-facts.client.js";

/** Idle stretches longer than this are drawn as a break of BREAK_PX pixels. */
export const BREAK_MS = 5_000;
const BREAK_PX = 34;
/** A retry sooner than this after a failure, with no Retry-After asked, counts as "no backoff" (the checks' threshold). */
export const MIN_BACKOFF_MS = TIMING.noBackoffMs;
const LANE_HEIGHT = 34;
/** With labels above the lanes (narrow screens), each lane gets this much more height for its label. */
const LABEL_ROW = 14;
const TOP = 10;
const AXIS = 24;
const MIN_STEP = 10;
const LABEL_SPACE = 50;
/** At most this many pixels per millisecond, so a lone exchange or a short burst does not fill the width. */
const MAX_SCALE = 10;


const parsed = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The taskId a CreateTaskResult names: flat in 2026-07-28's extension (resultType "task"), under `task` in 2025-11-25. */
function createdTask(message) {
  const result = message?.result;
  if (result?.resultType === "task" && typeof result.taskId === "string") return result.taskId;
  return typeof result?.task?.taskId === "string" ? result.task.taskId : undefined;
}

/**
 * The task an exchange is about, when the journal shows one: a tasks/* request names it (Mcp-Name in 2026-07-28,
 * params.taskId in every version), and a tools/call answered with a task created it. A cut body shows none.
 */
export function taskOf(entry) {
  const method = entry.rpc?.method;
  if (typeof method !== "string") return undefined;
  if (method.startsWith("tasks/") && method !== "tasks/list") {
    const named = entry.request?.headers?.["mcp-name"];
    if (typeof named === "string" && named !== "") return named;
    const id = parsed(entry.request?.body?.text ?? "")?.params?.taskId;
    return typeof id === "string" ? id : undefined;
  }
  if (method !== "tools/call") return undefined;
  const events = entry.response?.sseEvents;
  const messages = events ? events.map((e) => parsed(e.data)) : [parsed(entry.response?.body?.text ?? "")];
  for (const message of messages) {
    const id = createdTask(message);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * The lane of an exchange: "task <id>" for a task's creating call and every tasks/* request about it (its polls are
 * one lane), else "tools/call echo", "initialize", or the HTTP method for GET/DELETE.
 */
export function laneKey(entry) {
  const task = taskOf(entry);
  if (task !== undefined) return `task ${task}`;
  const rpc = entry.rpc ?? {};
  if (rpc.method) return rpc.toolName ? `${rpc.method} ${rpc.toolName}` : rpc.method;
  if (rpc.kind === "response") return "(response)";
  return String(entry.request?.method ?? "?");
}

const startOf = (entry) => Date.parse(entry.time);
const endOf = (entry) => startOf(entry) + (Number(entry.durationMs) || 0);

/** Whether an exchange failed, so that the next one in its lane is a retry. */
export function failed(entry) {
  const outcome = entry.verdict?.outcome;
  if (outcome) return !OUTCOMES[outcome]?.success;
  return Number(entry.response?.status) >= 400;
}

/** Where a retry came from, as the journal reads the wire (entry.retryOrigin); a reading, not a fact about the client. */
const ORIGIN_NOTES = {
  transport: "same JSON-RPC id: the same message resent by a transport?",
  application: "new JSON-RPC id: a new request from the application?",
  unknown: "another session or clientInfo: the wire does not tell who resent it",
};

/** The origin note of a retry gap, when the journal linked this entry to the failed one before it. */
export function originNote(entry, prior) {
  return entry.retryOf === prior.seq ? ORIGIN_NOTES[entry.retryOrigin] : undefined;
}

/** "+312 ms", "+2.5 s": a wait, as labelled on the timeline. */
export function gapLabel(ms) {
  if (ms < 1000) return `+${Math.round(ms)} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `+${(ms / 60_000).toFixed(1)} min`;
}

/**
 * A tick's label: its offset from the first exchange, with as many decimals as the tick step needs, so that ticks a
 * step apart never read the same ("38.2 s", "38.4 s" after an idle break, not "38 s" twice).
 */
export function tickLabel(offset, step) {
  if (offset === 0) return "0";
  if (offset < 1000) return `${Math.round(offset)} ms`;
  if (step >= 60_000) return `${(offset / 60_000).toFixed(step % 60_000 === 0 ? 0 : 1)} min`;
  const decimals = step >= 1000 ? 0 : Math.max(0, Math.ceil(-Math.log10(step / 1000) - 1e-9));
  return `${(offset / 1000).toFixed(decimals)} s`;
}

/** About how wide a 10.5 px axis label is drawn (a little more than its digits take), to keep labels apart. */
const labelWidth = (text) => text.length * 6.4 + 4;

function niceStep(msPerPx) {
  const target = msPerPx * 90;
  const power = 10 ** Math.floor(Math.log10(Math.max(target, 1)));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= target) return factor * power;
  return 10 * power;
}

/** One lane per method + tool, in order of first appearance; labels above the lanes make each lane taller. */
function layoutLanes(sorted, labelsAbove) {
  const laneHeight = labelsAbove ? LANE_HEIGHT + LABEL_ROW : LANE_HEIGHT;
  const laneOf = new Map();
  for (const entry of sorted) {
    const key = laneKey(entry);
    if (laneOf.has(key)) continue;
    const top = TOP + laneOf.size * laneHeight;
    const y = top + laneHeight - LANE_HEIGHT / 2;
    laneOf.set(key, { key, top, height: laneHeight, y, labelY: labelsAbove ? top + LABEL_ROW - 2 : y + 4 });
  }
  return { lanes: [...laneOf.values()], laneOf, laneHeight };
}

/** A break's label ("38 s idle") drops to a second row when it would touch the previous break's. */
function breakMark(x, ms, previous) {
  const label = `${gapLabel(ms).slice(1)} idle`;
  const touches = previous && previous.level === 0 && x - previous.x < (labelWidth(label) + labelWidth(previous.label)) / 2;
  return { x, ms, label, level: touches ? 1 : 0 };
}

/**
 * The time axis from `x0` over `plot` pixels: the x of each exchange's start (a step between starts is linear, at
 * least MIN_STEP pixels; an idle stretch over BREAK_MS is a break of BREAK_PX), the breaks, and the x of any instant.
 */
function timeAxis(sorted, x0, plot) {
  const steps = sorted.slice(1).map((entry, i) => Math.max(0, startOf(entry) - startOf(sorted[i])));
  const linear = steps.reduce((sum, ms) => sum + (ms > BREAK_MS ? 0 : ms), 0);
  const breakCount = steps.filter((ms) => ms > BREAK_MS).length;
  // The last exchange's duration gets room too, so its bar is visible.
  const tail = sorted.length ? Math.min(Number(sorted.at(-1).durationMs) || 0, BREAK_MS) : 0;
  const scale = linear + tail > 0 ? Math.min(Math.max(plot - breakCount * BREAK_PX, 40) / (linear + tail), MAX_SCALE) : 0;

  const xs = [x0];
  const breaks = [];
  steps.forEach((ms, i) => {
    const isBreak = ms > BREAK_MS;
    const dx = isBreak ? BREAK_PX : Math.max(ms * scale, MIN_STEP);
    xs.push(xs[i] + dx);
    if (isBreak) breaks.push(breakMark(xs[i] + dx / 2, ms, breaks.at(-1)));
  });

  /** x of any instant: linear within a step, proportional inside a break, linear after the last start. */
  const xAt = (t) => {
    if (sorted.length === 0) return x0;
    for (let i = sorted.length - 1; i >= 0; i--) {
      const start = startOf(sorted[i]);
      if (t < start) continue;
      if (i === sorted.length - 1) return xs[i] + Math.min(t - start, BREAK_MS) * scale;
      const span = startOf(sorted[i + 1]) - start;
      return span > 0 ? xs[i] + ((t - start) / span) * (xs[i + 1] - xs[i]) : xs[i];
    }
    return x0;
  };
  return { x0, plot, steps, scale, xs, breaks, xAt };
}

/**
 * Which call an exchange made, within its lane: the journal's digest of the call's params (name and arguments, not
 * _meta), so that a connector joins two attempts at the same call and never two different calls that share a tool.
 * An entry without a digest (a truncated body) has only its lane to go by.
 */
const callOf = (entry) => `${laneKey(entry)}\u0000${entry.callDigest ?? ""}`;

/** The gap before each exchange that follows a failed attempt at the same call, labelled with the wait and flagged when too soon. */
function retryGaps(sorted, marks) {
  const gaps = [];
  const previous = new Map();
  const lastLabel = new Map();
  sorted.forEach((entry, i) => {
    const key = laneKey(entry);
    const prior = previous.get(callOf(entry));
    previous.set(callOf(entry), { entry, i });
    if (!prior || !failed(prior.entry)) return;
    const ms = Math.max(0, startOf(entry) - endOf(prior.entry));
    const outcome = prior.entry.verdict?.outcome;
    const followUp = outcome === "INPUT_REQUIRED";
    const advisedMs = prior.entry.verdict?.retry?.afterMs;
    const tooSoon = !followUp && ms < (advisedMs ?? MIN_BACKOFF_MS);
    const x1 = marks[prior.i].xEnd;
    const x2 = marks[i].x;
    const mid = (x1 + x2) / 2;
    // Labels closer than LABEL_SPACE in one lane alternate between two heights, so they do not overlap.
    const last = lastLabel.get(key);
    const level = last && mid - last.x < LABEL_SPACE ? 1 - last.level : 0;
    lastLabel.set(key, { x: mid, level });
    const origin = originNote(entry, prior.entry);
    gaps.push({ key, from: prior.entry.seq, to: entry.seq, x1, x2, y: marks[i].y, ms, label: gapLabel(ms), tooSoon, followUp, advisedMs, after: outcome ?? `HTTP ${prior.entry.response?.status}`, level, ...(origin ? { origin } : {}) });
  });
  return gaps;
}

/** Whether a tick's label at `x` would touch a break's label on the same row. */
const hitsBreak = (x, label, breaks) => breaks.some((b) => b.level === 0 && Math.abs(x - b.x) < (labelWidth(label) + labelWidth(b.label)) / 2);

/** The next round step below `step` (500 → 200 → 100 → 50 ms ...). */
function finerStep(step) {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-9);
  const lead = Math.round(step / power);
  return lead === 5 ? 2 * power : lead === 2 ? power : power / 2;
}

/**
 * Ticks inside each unbroken stretch, at round offsets from the first exchange, at least 60 pixels apart and clear
 * of the breaks' labels. The step suits the whole axis's scale; when that leaves fewer than two labels (short
 * stretches between breaks, whose round offsets fall under a break's label or outside the stretch), a finer step is
 * tried, down to 1 ms, so that the axis always reads as a scale.
 */
function axisTicks(sorted, axis) {
  if (axis.scale <= 0 || sorted.length === 0) return [];
  for (let step = niceStep(1 / axis.scale); ; step = finerStep(step)) {
    const ticks = ticksEvery(step, sorted, axis);
    if (ticks.length >= 2 || step <= 1) return ticks;
  }
}

function ticksEvery(step, sorted, { x0, plot, steps, scale, xs, xAt, breaks }) {
  const ticks = [];
  const t0 = startOf(sorted[0]);
  let last = { x: -Infinity, label: "" };
  let segmentStart = 0;
  for (let i = 0; i <= steps.length; i++) {
    if (i < steps.length && steps[i] <= BREAK_MS) continue;
    const from = startOf(sorted[segmentStart]) - t0;
    // The last stretch is labelled to the right edge, so a short run's axis reads across the whole width.
    const edge = startOf(sorted[i]) + Math.min((x0 + plot - xs[i]) / scale, BREAK_MS);
    const to = (i < steps.length ? startOf(sorted[i]) : Math.max(endOf(sorted[i]), edge)) - t0;
    for (let offset = Math.ceil(from / step) * step; offset <= to; offset += step) {
      const x = xAt(t0 + offset);
      const label = tickLabel(offset, step);
      // 60 px apart, and more when long labels ("255.010 s") would touch.
      if (x - last.x < Math.max(60, (labelWidth(label) + labelWidth(last.label)) / 2) || hitsBreak(x, label, breaks)) continue;
      last = { x, label };
      ticks.push(last);
    }
    segmentStart = i + 1;
  }
  return ticks;
}

/**
 * Lays out the entries. `width` is the space available; the picture grows wider (and scrolls) when marks would
 * otherwise sit closer than MIN_STEP pixels. Lane labels sit in a column `labelWidth` wide, or, with `labelsAbove`
 * (for narrow screens), in full above each lane, so that the time axis gets the whole width.
 * @param {any[]} entries
 * @param {{ width?: number, labelWidth?: number, labelsAbove?: boolean }} [options]
 */
export function layoutTimeline(entries, { width = 900, labelWidth = 150, labelsAbove = false } = {}) {
  const sorted = entries
    .filter((entry) => Number.isFinite(startOf(entry)))
    .sort((a, b) => startOf(a) - startOf(b) || a.seq - b.seq);
  const { lanes, laneOf, laneHeight } = layoutLanes(sorted, labelsAbove);
  if (labelsAbove) labelWidth = 0;
  const x0 = labelWidth + 16;
  const axis = timeAxis(sorted, x0, Math.max(width - x0 - 24, 120));
  const marks = sorted.map((entry, i) => ({
    seq: entry.seq,
    key: laneKey(entry),
    x: axis.xs[i],
    xEnd: Math.max(axis.xs[i], axis.xAt(endOf(entry))),
    y: laneOf.get(laneKey(entry)).y,
    outcome: entry.verdict?.outcome,
    status: entry.response?.status,
    time: entry.time,
  }));
  const right = Math.max(...marks.map((m) => m.xEnd), x0) + 24;
  // A second row of break labels, when two breaks sit too close for one.
  const axisHeight = axis.breaks.some((b) => b.level === 1) ? AXIS + 13 : AXIS;
  return {
    width: Math.max(width, Math.ceil(right)),
    height: TOP + lanes.length * laneHeight + axisHeight,
    axisY: TOP + lanes.length * laneHeight,
    labelWidth,
    labelsAbove,
    lanes,
    marks,
    gaps: retryGaps(sorted, marks),
    breaks: axis.breaks,
    ticks: axisTicks(sorted, axis),
  };
}
