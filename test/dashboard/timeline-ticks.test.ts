// The time axis's tick labels over a grid of timings: however long the calls take and however far apart they are,
// a run of two or more exchanges gets at least two tick labels, all different, apart from each other and from the
// break labels, at the plot widths the session page gives the layout at 1,400 and 390 px.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importClient } from "./served-modules.ts";

interface Layout {
  width: number;
  breaks: { x: number; label: string; level: number }[];
  ticks: { x: number; label: string }[];
}
const { layoutTimeline, BREAK_MS } = await importClient<{
  layoutTimeline: (entries: unknown[], options?: { width?: number; labelWidth?: number; labelsAbove?: boolean }) => Layout;
  BREAK_MS: number;
}>("timeline-layout.client.js");

/**
 * What the session page passes at a 1,400 and a 390 px viewport: the timeline panel's clientWidth there (measured in
 * Chromium: 1,314 and 344 px; its scrollbars overlay the page, so a long page takes nothing off), labelWidth 160, and
 * labels above the lanes under 560 px (timeline.client.js).
 */
const WIDTHS = [
  { name: "1,400 px", width: 1314, labelWidth: 160, labelsAbove: false },
  { name: "390 px", width: 344, labelWidth: 160, labelsAbove: true },
];
/** A call's duration, up to longer than BREAK_MS (a loaded machine), whose bar the layout cuts at BREAK_MS. */
const DURATIONS = [1, 5, 40, 250, 1000, 2500, 4000, 8000];
/**
 * Idle time from the end of one call to the start of the next inside a stretch, up to BREAK_MS. With a long call
 * before it, the stretch itself passes BREAK_MS and splits in two: the axis must read then too.
 */
const GAPS = [0, 1, 15, 120, 900, 2500, BREAK_MS];
/** Idle time that makes a break: just over BREAK_MS (as the browser test sleeps) and a long pause. */
const IDLES = [BREAK_MS + 600, 120_000];

/** A label's drawn width, about: 10.5 px digits at about 6.4 px each, as the layout reckons (text-anchor middle). */
const drawnWidth = (text: string) => text.length * 6.4 + 4;
const apart = (a: { x: number; label: string }, b: { x: number; label: string }) => Math.abs(a.x - b.x) >= (drawnWidth(a.label) + drawnWidth(b.label)) / 2;

/**
 * Stretches of two calls each, `breaks` breaks between them: each stretch's first call lasts `first` ms, its second
 * `second` ms; the second starts `gap` ms after the first ends, and the next stretch `idle` ms after the second ends.
 */
function run(breaks: number, [first, second]: [number, number], gap: number, idle: number) {
  const t0 = Date.parse("2026-12-02T10:00:00.000Z");
  const entries = [];
  let at = 0;
  for (let stretch = 0; stretch <= breaks; stretch++) {
    for (let call = 0; call < 2; call++) {
      entries.push({ seq: entries.length + 1, time: new Date(t0 + at).toISOString(), durationMs: call === 0 ? first : second, request: { method: "POST" }, response: { status: 200 }, rpc: { method: "tools/call", toolName: "echo" }, verdict: { outcome: "TOOL_SUCCESS" } });
      at += call === 0 ? first + gap : second + idle;
    }
  }
  return entries;
}

/** What a reader of the axis needs, or undefined when the layout gives it. */
function axisProblem(layout: Layout): string | undefined {
  const labels = layout.ticks.map((t) => t.label);
  if (labels.length < 2) return `${labels.length} tick labels (${labels.join(", ")})`;
  if (new Set(labels).size !== labels.length) return `tick labels repeat: ${labels.join(", ")}`;
  for (const [i, a] of layout.ticks.entries()) {
    const b = layout.ticks[i + 1];
    if (b && !apart(a, b)) return `"${a.label}" at ${a.x.toFixed(0)} px touches "${b.label}" at ${b.x.toFixed(0)} px`;
    const mark = layout.breaks.find((m) => m.level === 0 && !apart(a, m));
    if (mark) return `"${a.label}" at ${a.x.toFixed(0)} px touches the break label "${mark.label}" at ${mark.x.toFixed(0)} px`;

  }
  return undefined;
}

/** Every timing of the grid, for runs with `breaks` breaks. */
function* grid(breaks: number) {
  for (const size of WIDTHS)
    for (const first of DURATIONS)
      for (const second of DURATIONS)
        for (const gap of GAPS) for (const idle of breaks ? IDLES : [0]) yield { size, first, second, gap, idle };
}

for (const breaks of [0, 1, 2]) {
  test(`with ${breaks} idle break(s), every grid timing gets at least two distinct tick labels clear of each other and of the breaks' labels, at 1,400 and 390 px`, () => {
    const problems: string[] = [];
    let runs = 0;
    for (const { size: { name, ...options }, first, second, gap, idle } of grid(breaks)) {
      runs++;
      const problem = axisProblem(layoutTimeline(run(breaks, [first, second], gap, idle), options));
      if (problem) problems.push(`${name}, calls of ${first} and ${second} ms, ${gap} ms apart${breaks ? `, ${idle} ms idle` : ""}: ${problem}`);
    }
    assert.ok(runs >= WIDTHS.length * DURATIONS.length ** 2 * GAPS.length, `the grid ran ${runs} timings`);
    assert.deepEqual(problems, [], `${problems.length} of ${runs} timings:\n${problems.join("\n")}`);
  });
}
