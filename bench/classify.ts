// npm run bench:classify: classify() against JSON.parse of the same bytes, in-process.
// A ratio is time(classify) / time(JSON.parse); each figure is the median of ROUNDS rounds, each of
// which interleaves short slices of the two sides and alternates which side goes first, so load from
// other processes on a shared machine falls on both sides alike.
import { classify, type Exchange } from "../src/classify/index.ts";
import { median } from "./median.ts";

const ROUNDS = 5;
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? "1000");
const SLICES = 20;
const WARM_UP_ROUNDS = 3;

interface Case {
  name: string;
  /** Issue 12's ceiling for this ratio. */
  target: number;
  exchange: Exchange;
  /** The JSON texts a client must parse at the least: the body, or every SSE event's data. */
  json: string[];
}

const request = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
const jsonHeaders = { "content-type": "application/json" };

function jsonCase(name: string, target: number, body: string): Case {
  return { name, target, exchange: { request: { body: request }, response: { status: 200, headers: jsonHeaders, body } }, json: [body] };
}

/** A tools/call result of text blocks of about 1 KB each, every one of which classify() validates. */
function result(blocks: number, blockBytes = 1000): string {
  const content = Array.from({ length: blocks }, (_, i) => ({ type: "text", text: `${i} ${"x".repeat(blockBytes)}` }));
  return JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", content } });
}

function sseCase(name: string, target: number, events: number): Case {
  const progress = (n: number) =>
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p7", progress: n, total: events } });
  const data = [...Array.from({ length: events }, (_, i) => progress(i + 1)), result(1, 40)];
  const body = data.map((d, i) => `id: ${i + 1}\nevent: message\ndata: ${d}\n\n`).join("");
  return {
    name,
    target,
    exchange: { request: { body: request }, response: { status: 200, headers: { "content-type": "text/event-stream" }, body } },
    json: data,
  };
}

const cases: Case[] = [
  jsonCase("small success (one text block)", 2.5, JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", content: [{ type: "text", text: "hello" }] } })),
  jsonCase("small JSON-RPC error (-32602)", 2.5, JSON.stringify({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Unknown tool: ech" } })),
  sseCase("SSE: 100 progress events and the result", 1.2, 100),
  jsonCase("100 KB result (100 text blocks)", 1.1, result(100)),
  jsonCase("1 MB result (1,000 text blocks)", 1.1, result(1000)),
];

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

/** How many calls of `fn` take about `ms` milliseconds. */
function callsFor(fn: () => unknown, ms: number): number {
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

function measure(c: Case): Row {
  const classifyOnce = () => classify(c.exchange);
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

const only = process.argv[2];
const rows = cases.filter((c) => only === undefined || c.name.includes(only)).map(measure);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`classify() / JSON.parse of the same bytes in CPU time, median of ${ROUNDS} alternating rounds of about ${ROUND_MS} ms (node ${process.version})`);
console.log("| case | ratio | target | classify/s | JSON.parse/s | rounds |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) {
  const mark = r.ratio <= r.target ? "" : " (over)";
  console.log(`| ${r.name} | ${r.ratio.toFixed(2)}×${mark} | ≤ ${r.target}× | ${fmt(r.classifyPerSecond)} | ${fmt(r.parsePerSecond)} | ${r.ratios.map((x) => x.toFixed(2)).join(" ")} |`);
}
if (sink === 42) console.log("");
