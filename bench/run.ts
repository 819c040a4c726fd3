/**
 * `npm run bench`: Faultline's speed as ratios against baselines measured in the same run (the machine is shared and
 * noisy, so only ratios mean anything). Every ratio is the median of RUNS rounds; each round measures every side of a
 * group once, and the order of the sides is reversed every other round. Writes a table on stdout, bench/results.json
 * and bench/RESULTS.md. Knobs: BENCH_QUICK=1 (a few minutes), BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_JOURNAL_ENTRIES,
 * BENCH_SESSIONS, BENCH_IDLE_SECONDS, BENCH_PROFILE=0 (skip the CPU profiles), BENCH_ONLY=served,start,growth,sessions,crash,profile
 * (a subset; RESULTS.md then holds only that subset).
 * `npm run bench:classify` (classify() against JSON.parse) and `npm run bench:checks` (/checks on a full journal) run apart.
 */
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { load, type Request, type Sample } from "./load.ts";
import { median } from "./median.ts";
import { assertEcho, classifyRequest, createSession, legacyEcho, legacyHandshake, modernEcho, send } from "./mcp.ts";
import { profileCases } from "./profile-cases.ts";
import { writeReports, type Figure, type Measure, type Side } from "./report.ts";
import { residentKiB, startDev, startFloor, startSdk, startServe, stateDir, type Running } from "./servers.ts";
import { fillJournal } from "./journal-fill.ts";

const env = process.env;
const QUICK = env.BENCH_QUICK === "1";
const number = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got '${env[name]}'`);
  return value;
};
const settings = {
  quick: QUICK,
  runs: 5,
  seconds: number("BENCH_SECONDS", QUICK ? 2 : 8),
  connections: number("BENCH_CONNECTIONS", 16),
  journalEntries: number("BENCH_JOURNAL_ENTRIES", QUICK ? 10_000 : 100_000),
  sessions: number("BENCH_SESSIONS", QUICK ? 1_000 : 10_000),
  idleSeconds: number("BENCH_IDLE_SECONDS", QUICK ? 5 : 30),
  profile: env.BENCH_PROFILE !== "0",
};

const figures: Figure[] = [];
const measures: Measure[] = [];
const log = (line: string) => console.error(`bench: ${line}`);

interface Target {
  label: string;
  server: Running;
  request: Request;
}

/** RUNS rounds over the targets, alternating their order; returns each target's samples in round order. */
async function rounds(targets: Target[], connections = settings.connections): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.label, []]));
  // Warm-up, not counted: the first requests compile code and open databases.
  for (const target of targets) await load(target.server.url, target.request, { seconds: Math.min(2, settings.seconds), connections });
  for (let round = 0; round < settings.runs; round++) {
    for (const target of round % 2 ? [...targets].reverse() : targets) {
      const sample = await load(target.server.url, target.request, { seconds: settings.seconds, connections });
      if (sample.bad) log(`${target.label}: ${sample.bad} failed requests in round ${round + 1}`);
      samples.get(target.label)!.push(sample);
    }
  }
  return samples;
}

const side = (label: string, samples: Sample[]): Side => ({
  label,
  rps: median(samples.map((s) => s.rps)),
  p50: median(samples.map((s) => s.p50)),
  p99: median(samples.map((s) => s.p99)),
  mean: median(samples.map((s) => s.mean)),
  bad: samples.reduce((n, s) => n + s.bad, 0),
});

/** A throughput figure: the median over rounds of side/baseline requests per second. */
function throughput(name: string, goal: Figure["goal"], samples: Map<string, Sample[]>, of: string, baseline: string) {
  const a = samples.get(of)!;
  const b = samples.get(baseline)!;
  figures.push({ name, metric: "req/s ratio", goal, ratio: median(a.map((s, i) => s.rps / b[i]!.rps)), side: side(of, a), baseline: side(baseline, b) });
}

/** A latency figure: the median over rounds of side/baseline p99 (or mean) latency; lower is better. */
function latency(name: string, goal: Figure["goal"], samples: Map<string, Sample[]>, of: string, baseline: string, which: "p99" | "mean") {
  const a = samples.get(of)!;
  const b = samples.get(baseline)!;
  figures.push({ name, metric: `${which} latency ratio`, goal, ratio: median(a.map((s, i) => s[which] / Math.max(b[i]![which], 0.001))), side: side(of, a), baseline: side(baseline, b) });
}

async function servedFigures() {
  log("npm run serve vs the floor vs the SDK server");
  const serve = await startServe();
  const floor = await startFloor();
  const sdk = await startSdk();
  try {
    const modern = await createSession(serve.url);
    const legacy = await createSession(serve.url);
    const sessionId = await legacyHandshake(`${serve.url}${legacy.path}`);
    // A fault scenario's session: its one fault is the first tools/call (taken here); every later call is decided by
    // the scenario, answered 200 and judged like the rest.
    const faulted = await createSession(serve.url, "errors.http_status_sequence", { params: { statusCodes: [503, 200], countMethods: ["tools/call"] } });
    // Proxy mode in front of the same SDK server: one hop more than calling it directly.
    const proxied = await createSession(serve.url, "baseline", { upstream: `${sdk.url}/mcp` });
    const faultOnce = await send(serve.url, modernEcho(faulted.path));
    await faultOnce.arrayBuffer();
    if (faultOnce.status !== 503) throw new Error(`the fault scenario's first tools/call gave ${faultOnce.status}, not its fault (503)`);
    const mcpTargets: Target[] = [
      { label: "serve 2026-07-28", server: serve, request: modernEcho(modern.path) },
      { label: "serve 2025-11-25", server: serve, request: legacyEcho(legacy.path, sessionId) },
      { label: "serve fault scenario", server: serve, request: modernEcho(faulted.path) },
      { label: "serve proxied to the SDK server", server: serve, request: modernEcho(proxied.path) },
      { label: "floor", server: floor, request: { ...modernEcho("/write"), path: "/write" } },
      { label: "SDK server", server: sdk, request: modernEcho("/mcp") },
      { label: "SDK server 2025-11-25", server: sdk, request: legacyEcho("/mcp") },
    ];
    for (const target of mcpTargets) if (target.server !== floor) await assertEcho(target.server.url, target.request);
    const mcp = await rounds(mcpTargets);
    throughput("serve: tools/call echo, 2026-07-28, vs the floor", { atLeast: 0.9 }, mcp, "serve 2026-07-28", "floor");
    throughput("serve: tools/call echo, 2025-11-25 session, vs the floor", { atLeast: 0.9 }, mcp, "serve 2025-11-25", "floor");
    throughput("serve: tools/call echo, 2026-07-28, vs the SDK server", { atLeast: 1.0 }, mcp, "serve 2026-07-28", "SDK server");
    latency("serve: tools/call echo, 2026-07-28, p99 vs the SDK server's", { atMost: 1.0 }, mcp, "serve 2026-07-28", "SDK server", "p99");
    throughput("serve: tools/call echo, 2025-11-25 session, vs the SDK server in 2025-11-25", { atLeast: 1.0 }, mcp, "serve 2025-11-25", "SDK server 2025-11-25");
    latency("serve: tools/call echo, 2025-11-25 session, p99 vs the SDK server's in 2025-11-25", { atMost: 1.0 }, mcp, "serve 2025-11-25", "SDK server 2025-11-25", "p99");
    throughput("serve: tools/call echo, errors.http_status_sequence session (200 after its fault), vs the SDK server", { atLeast: 1.0 }, mcp, "serve fault scenario", "SDK server");
    throughput("serve: tools/call echo, proxied to the SDK server, vs calling that server directly", { atLeast: 0.5 }, mcp, "serve proxied to the SDK server", "SDK server");
    throughput("floor vs the SDK server (context)", {}, mcp, "floor", "SDK server");
    await floor.stop();
    await sdk.stop();

    log("npm run serve: /classify and /api/scenarios vs GET /health");
    const routes = await rounds([
      { label: "POST /classify", server: serve, request: classifyRequest },
      { label: "GET /api/scenarios", server: serve, request: { path: "/api/scenarios" } },
      { label: "GET /health", server: serve, request: { path: "/health" } },
    ]);
    throughput("serve: POST /classify (small response) vs GET /health", { atLeast: 0.7 }, routes, "POST /classify", "GET /health");
    throughput("serve: GET /api/scenarios vs GET /health", { atLeast: 0.5 }, routes, "GET /api/scenarios", "GET /health");
  } finally {
    await Promise.all([serve.stop(), floor.stop(), sdk.stop()]);
  }
}

async function devFigures() {
  log("npm start: tools/call vs GET /health");
  const dev = await startDev();
  try {
    const session = await createSession(dev.url);
    const samples = await rounds([
      { label: "start tools/call", server: dev, request: modernEcho(session.path) },
      { label: "start GET /health", server: dev, request: { path: "/health" } },
    ]);
    throughput("npm start: tools/call echo, 2026-07-28, vs GET /health", { atLeast: 0.6 }, samples, "start tools/call", "start GET /health");
  } finally {
    await dev.stop();
  }
}

/** Median milliseconds of `count` sequential GETs. */
async function readTime(url: string, count = 21): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url} gave ${res.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function growthFigures() {
  const entries = settings.journalEntries;
  const vars = { JOURNAL_MAX_ENTRIES: String(entries * 2) };
  const state = await stateDir();
  log(`growth: a journal of ${entries} entries`);
  try {
    let serve = await startServe(vars, { state });
    const full = await createSession(serve.url);
    const first = await send(serve.url, modernEcho(full.path));
    await first.arrayBuffer();
    await serve.stop();
    const started = performance.now();
    await fillJournal(state, entries);
    measures.push({ name: `growth: filling the journal to ${entries} entries (copies of one real entry, in SQLite, server stopped)`, value: (performance.now() - started) / 1000, unit: "s" });
    serve = await startServe(vars, { state });
    try {
      const empty = await createSession(serve.url);
      const newest = (id: string) => `${serve.url}/api/sessions/${id}/journal?order=desc&limit=100`;
      const held = ((await (await fetch(newest(full.id))).json()) as { entries: { seq: number }[] }).entries[0]?.seq ?? 0;
      measures.push({ name: "growth: newest seq in the full session's journal after the restart", value: held, unit: "entries", note: `JOURNAL_MAX_ENTRIES=${vars.JOURNAL_MAX_ENTRIES}` });
      // One connection: the latency of one call at a time, not of a queue.
      const samples = await rounds(
        [
          { label: `session with ${entries} entries`, server: serve, request: modernEcho(full.path) },
          { label: "empty session", server: serve, request: modernEcho(empty.path) },
        ],
        1,
      );
      latency(`growth: tools/call mean latency, ${entries}-entry journal vs empty`, { atMost: 1.1 }, samples, `session with ${entries} entries`, "empty session", "mean");
      const fullPage = await readTime(newest(full.id));
      const emptyPage = await readTime(newest(empty.id));
      measures.push({ name: `growth: newest journal page (100 entries) of the ${entries}-entry session, median of 21 reads`, value: fullPage, unit: "ms", goal: { atMost: 50 }, note: `empty session: ${emptyPage.toFixed(1)} ms` });
    } finally {
      await serve.stop();
    }
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}

/** Runs `task` over 0..count-1 with `concurrency` in flight. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await task(next++);
  }));
}

/** Creates `count` sessions, `settings.connections` at a time; returns their paths and the milliseconds taken. */
async function createSessions(url: string, count: number): Promise<{ paths: string[]; ms: number }> {
  const paths: string[] = [];
  const started = performance.now();
  await pool(count, settings.connections, async (i) => void (paths[i] = (await createSession(url)).path));
  return { paths, ms: performance.now() - started };
}

/** One tools/call to each path; returns the milliseconds taken and how many failed. */
async function callEach(url: string, paths: string[]): Promise<{ ms: number; failed: number }> {
  const call = modernEcho("");
  let failed = 0;
  const started = performance.now();
  await pool(paths.length, settings.connections, async (i) => {
    const res = await send(url, { ...call, path: paths[i]! });
    await res.arrayBuffer();
    if (!res.ok) failed++;
  });
  return { ms: performance.now() - started, failed };
}

async function manySessions() {
  const count = settings.sessions;
  log(`many sessions: creating ${count}`);
  const second = Math.max(1, Math.round(count / 5));
  // Room for both waves under the cap on sessions (429 past it).
  const serve = await startServe({ FAULTLINE_MAX_SESSIONS: String(count + second) });
  try {
    const rss = async (when: string) => {
      const mib = (await residentKiB(serve.pid)) / 1024;
      measures.push({ name: `many sessions: workerd resident memory ${when}`, value: mib, unit: "MiB" });
      return mib;
    };
    const before = await rss("before");
    const created = await createSessions(serve.url, count);
    measures.push({ name: `many sessions: time per creation (${count} sessions, ${settings.connections} in flight)`, value: created.ms / count, unit: "ms", note: `${Math.round(count / (created.ms / 1000))} creations/s` });
    await rss(`after creating ${count} sessions`);
    const called = await callEach(serve.url, created.paths);
    measures.push({ name: `many sessions: one tools/call to each of ${count} sessions`, value: called.ms / count, unit: "ms per call", note: `${called.failed} failed` });
    const high = await rss(`after one call to each`);
    await sleep(settings.idleSeconds * 1000);
    const idle = await rss(`after ${settings.idleSeconds} s idle`);
    // workerd evicts a Durable Object after about 10 s without requests, but the process keeps the freed memory for
    // reuse (resident memory is a high-water mark): a second wave after the idle time shows whether it is reused.
    await callEach(serve.url, (await createSessions(serve.url, second)).paths);
    const after = await rss(`after a second wave of ${second} sessions (created and called once each) after the idle time`);
    measures.push({ name: "many sessions: resident memory growth per session, first wave", value: ((high - before) * 1024) / count, unit: "KiB" });
    measures.push({
      name: `many sessions: resident memory growth per session, second wave after ${settings.idleSeconds} s idle`,
      value: ((after - idle) * 1024) / second,
      unit: "KiB",
      note: "against the first wave: what evicted idle sessions freed is reused",
    });
  } finally {
    await serve.stop();
  }
}

/**
 * What a crash can lose now that the journal and the counters are written behind (src/session/session-object.ts):
 * calls are answered on `settings.connections` connections while workerd is killed with SIGKILL; after a restart on
 * the same state, the journal's newest seq is compared with the calls whose 2xx answer arrived before the kill.
 */
async function crashLoss() {
  log("crash: what the write-behind journal loses when workerd is killed under load");
  const state = await stateDir();
  try {
    for (let run = 1; run <= 3; run++) {
      let serve = await startServe({}, { state });
      const session = await createSession(serve.url);
      const call = modernEcho(session.path);
      let answered = 0;
      let killed = false;
      const client = async () => {
        while (!killed) {
          try {
            const res = await send(serve.url, call);
            await res.arrayBuffer();
            if (res.ok && !killed) answered++;
          } catch {
            return;
          }
        }
      };
      const clients = Array.from({ length: settings.connections }, client);
      await sleep(1_500);
      killed = true;
      process.kill(serve.pid, "SIGKILL");
      await Promise.all(clients);
      await serve.stop();
      serve = await startServe({}, { state });
      try {
        const page = (await (await fetch(`${serve.url}/api/sessions/${session.id}/journal?order=desc&limit=1`)).json()) as { entries: { seq: number }[] };
        const journalled = page.entries[0]?.seq ?? 0;
        measures.push({
          name: `crash ${run}: calls answered (2xx received) before SIGKILL, and not in the journal after the restart`,
          value: Math.max(0, answered - journalled),
          unit: "calls",
          note: `${answered} answered, ${journalled} journalled; bound: 64 answered and not yet journalled, and the waiting batch (10 ms or 64 rows)`,
        });
      } finally {
        await serve.stop();
      }
    }
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}

const only = new Set((env.BENCH_ONLY ?? "served,start,growth,sessions,crash,profile").split(","));
if (only.has("served")) await servedFigures();
if (only.has("start")) await devFigures();
if (only.has("growth")) await growthFigures();
if (only.has("sessions")) await manySessions();
if (only.has("crash")) await crashLoss();
let profiles = {};
if (settings.profile && only.has("profile")) {
  // A profiling failure (the inspector is a debugging port) must not lose the figures measured above.
  profiles = await profileCases(settings.seconds, settings.connections, settings.journalEntries).catch((error: Error) => (log(`profiling failed: ${error.message}`), {}));
}
await writeReports({ settings, figures, measures, profiles });
