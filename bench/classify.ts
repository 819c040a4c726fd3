// npm run bench:classify: classify() against JSON.parse of the same bytes, in-process.
// A ratio is time(classify) / time(JSON.parse); each figure is the median of ROUNDS rounds, each of
// which interleaves short slices of the two sides and alternates which side goes first, so load from
// other processes on a shared machine falls on both sides alike.
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { classify, exchangeFromRawHttp } from "../src/classify/index.ts";
import { captureCases, syntheticCases, type Case, type Input } from "./classify-cases.ts";
import { median } from "./median.ts";

const ROUNDS = 5;
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? "1000");
const SLICES = 20;
const WARM_UP_ROUNDS = 3;
const WARM_MS = 100;

const cases: Case[] = [...syntheticCases(), ...captureCases()];
const CLASSIFY_START = "<!-- bench:classify -->";
const CLASSIFY_END = "<!-- /bench:classify -->";

let sink = 0;

/**
 * Calls `fn` `calls` times and returns the CPU milliseconds the process spent (user + system).
 * CPU time rather than wall time: on a machine shared with other work, wall time mostly measures
 * how long this process waited for a core.
 */
function timed(fn: () => unknown, calls: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) sink ^= fn() === undefined ? 0 : 1;
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * How many calls of `fn` take about `ms` milliseconds, counted after `fn` has run for WARM_MS: counted cold, a first
 * call that compiles the code makes the slices a couple of calls long, and the ratio then measures the timer.
 */
function callsFor(fn: () => unknown, ms: number): number {
  for (let spent = 0; spent < WARM_MS; ) spent += timed(fn, 10);
  let calls = 1;
  while (timed(fn, calls) < ms) calls *= 2;
  return calls;
}

/**
 * One round: SLICES short slices of each side, interleaved (a, b, a, b … or b, a, b, a … on odd
 * rounds), so that load from other processes lands on both sides alike. Returns ns per call.
 */
function round(a: () => unknown, b: () => unknown, aCalls: number, bCalls: number, bFirst: boolean): [number, number] {
  let aMs = 0;
  let bMs = 0;
  for (let slice = 0; slice < SLICES; slice++) {
    if (bFirst) bMs += timed(b, bCalls);
    aMs += timed(a, aCalls);
    if (!bFirst) bMs += timed(b, bCalls);
  }
  return [(aMs * 1e6) / (aCalls * SLICES), (bMs * 1e6) / (bCalls * SLICES)];
}

interface Row {
  name: string;
  ratio: number;
  target: number;
  classifyPerSecond: number;
  parsePerSecond: number;
  ratios: number[];
}

/** What the CLI and POST /classify do with one input: raw text parsed into an exchange first, then classify(). */
function classifyInput(input: Input): unknown {
  if ("exchange" in input) return classify(input.exchange);
  const parsed = exchangeFromRawHttp(input.response, input.params ?? {}, undefined, input.request);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return classify(parsed.value);
}

function classifyAll(c: Case): () => unknown {
  return () => {
    let last: unknown;
    for (const input of c.inputs) last = classifyInput(input);
    return last;
  };
}

function measure(c: Case): Row {
  const classifyOnce = classifyAll(c);
  const parseOnce = () => {
    let last: unknown;
    for (const text of c.json) last = JSON.parse(text);
    return last;
  };
  const sliceMs = ROUND_MS / 2 / SLICES;
  const classifyCalls = callsFor(classifyOnce, sliceMs);
  const parseCalls = callsFor(parseOnce, sliceMs);
  // Warm-up, not counted: on a loaded machine the optimizing compiler's background threads get
  // little CPU, and a round measured before it finishes is a round of unoptimized code.
  for (let w = 0; w < WARM_UP_ROUNDS; w++) round(classifyOnce, parseOnce, classifyCalls, parseCalls, w % 2 === 1);
  const ratios: number[] = [];
  const classifyNs: number[] = [];
  const parseNs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [a, b] = round(classifyOnce, parseOnce, classifyCalls, parseCalls, r % 2 === 1);
    classifyNs.push(a);
    parseNs.push(b);
    ratios.push(a / b);
  }
  return {
    name: c.name,
    ratio: median(ratios),
    target: c.target,
    classifyPerSecond: 1e9 / median(classifyNs),
    parsePerSecond: 1e9 / median(parseNs),
    ratios,
  };
}

// `node --cpu-prof bench/classify.ts --loop NAME [SECONDS]`: only the classify side of the cases whose name contains
// NAME, in a loop, for a CPU profile.
const args = process.argv.slice(2);
if (args[0] === "--loop") {
  const picked = cases.filter((c) => c.name.includes(args[1] ?? ""));
  const until = Date.now() + Number(args[2] ?? "5") * 1000;
  const runs = picked.map(classifyAll);
  while (Date.now() < until) for (const run of runs) for (let i = 0; i < 100; i++) sink ^= run() === undefined ? 0 : 1;
  process.exit(0);
}
const write = args.includes("--write");
const only = args.find((a) => !a.startsWith("--"));
const rows = cases.filter((c) => only === undefined || c.name.includes(only)).map(measure);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const lines = [
  `classify() / JSON.parse of the same bytes in CPU time, median of ${ROUNDS} alternating rounds of about ${ROUND_MS} ms (node ${process.version})`,
  "",
  "| case | ratio | target | | classify/s | JSON.parse/s | rounds |",
  "|---|---|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.ratio.toFixed(2)}× | ≤ ${r.target}× | ${r.ratio <= r.target ? "met" : `MISSED by ${(r.ratio - r.target).toFixed(2)}`} | ${fmt(r.classifyPerSecond)} | ${fmt(r.parsePerSecond)} | ${r.ratios.map((x) => x.toFixed(2)).join(" ")} |`,
  ),
];
console.log(lines.join("\n"));
if (write) writeResults(lines);
if (sink === 42) console.log("");

/**
 * `--write`: the table goes into bench/RESULTS.md between the classify markers (bench/report.ts keeps that part
 * when `npm run bench` rewrites the file), with the date, the commit and the load average.
 */
function writeResults(table: string[]): void {
  const path = new URL("RESULTS.md", import.meta.url);
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["status", "--porcelain", "--", "src/classify"], { encoding: "utf8" }).trim() === "" ? "" : " (with uncommitted changes in src/classify)";
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" / ");
  const section = [
    CLASSIFY_START,
    "## classify() against JSON.parse (`npm run bench:classify -- --write`)",
    "",
    `Run ${new Date().toISOString()} on ${commit}${dirty}; load average at the end ${load}. Ratios in one run; the raw HTTP cases parse the text (the response; for the real captures also the request as sent) into an exchange, then classify it.`,
    "",
    ...table,
    CLASSIFY_END,
  ].join("\n");
  const old = readFileSync(path, "utf8");
  const at = old.indexOf(CLASSIFY_START);
  const end = old.indexOf(CLASSIFY_END);
  const next = at >= 0 && end > at ? `${old.slice(0, at)}${section}${old.slice(end + CLASSIFY_END.length)}` : `${old.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, next);
}
