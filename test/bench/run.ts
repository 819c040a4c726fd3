// npm run bench: speed as ratios against a baseline measured in the same run (machines are shared and noisy).
import { mkdirSync, writeFileSync } from "node:fs";
import { classify, type Exchange } from "../../src/classify/index.ts";
import { createSession, modernMeta, startServer } from "../helpers/server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? "3");
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? "16");

function opsPerSecond(fn: () => void, seconds: number): number {
  const end = performance.now() + seconds * 1000;
  let ops = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fn();
    ops += 100;
  }
  return ops / seconds;
}

async function requestsPerSecond(send: () => Promise<Response>, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await send();
      await res.arrayBuffer();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / seconds;
}

const result = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", content: [{ type: "text", text }] } });
const exchanges: Exchange[] = [
  { request: { body: { jsonrpc: "2.0", id: 7, method: "tools/call" } }, response: { status: 200, headers: { "content-type": "application/json" }, body: result("hello") } },
  {
    request: { body: { jsonrpc: "2.0", id: 7, method: "tools/call" } },
    response: {
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\nevent: message\ndata: ${result("x".repeat(2000))}\n\n`,
    },
  },
  { request: { body: { jsonrpc: "2.0", id: 7, method: "tools/call" } }, response: { status: 503, headers: { "retry-after": "2" }, body: "" } },
];
const bodies = exchanges.map((e) => String(e.response.body));

const rows: { name: string; baseline: string; ratio: number; detail: string }[] = [];

const parseOps = opsPerSecond(() => bodies.forEach((b) => b && JSON.parse(b.includes("data: ") ? b.slice(b.lastIndexOf("data: ") + 6) : b)), SECONDS);
const classifyOps = opsPerSecond(() => exchanges.forEach((e) => classify(e, { now: 0 })), SECONDS);
rows.push({
  name: "classify() of 3 exchanges",
  baseline: "JSON.parse of the same bodies",
  ratio: classifyOps / parseOps,
  detail: `${Math.round(classifyOps)} vs ${Math.round(parseOps)} rounds/s`,
});

const server = await startServer();
try {
  const session = await createSession(server, "baseline");
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, _meta: modernMeta() } });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "echo",
  };
  const health = await requestsPerSecond(() => fetch(`${server.url}/health`), SECONDS);
  const echo = await requestsPerSecond(() => fetch(session.mcpUrl, { method: "POST", headers, body }), SECONDS);
  rows.push({
    name: "tools/call echo (2026-07-28, journalled and judged)",
    baseline: "GET /health on the same server",
    ratio: echo / health,
    detail: `${Math.round(echo)} vs ${Math.round(health)} req/s at concurrency ${CONCURRENCY}`,
  });
} finally {
  await server.close();
}

/**
 * /checks on a full journal: BENCH_CHECKS_ENTRIES (default 10,000, the retention cap) failed tools/call requests,
 * each with about 12.8 KB of distinct arguments, sent over HTTP to a session whose every answer is 503; then
 * GET /checks, timed, while /health is polled to show the server stays responsive.
 */
const CHECKS_ENTRIES = Number(process.env.BENCH_CHECKS_ENTRIES ?? "10000");
const checksServer = await startServer();
const times: { name: string; ms: number; detail: string }[] = [];
try {
  const session = await createSession(checksServer, "errors.http_status_sequence", { statusCodes: [503] });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" };
  const filler = "x".repeat(12_800);
  let sent = 0;
  const fillStart = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < CHECKS_ENTRIES) {
        const n = sent++;
        const body = JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "echo", arguments: { text: `${n} ${filler}` }, _meta: modernMeta() } });
        await (await fetch(session.mcpUrl, { method: "POST", headers, body })).arrayBuffer();
      }
    }),
  );
  const fillMs = performance.now() - fillStart;
  // The journal is written once each response has ended; wait until every entry is in.
  for (let i = 0; i < 600; i++) {
    const page = (await (await fetch(`${checksServer.url}/api/sessions/${session.id}/journal?order=desc&limit=1`)).json()) as { entries: { seq: number }[] };
    if ((page.entries[0]?.seq ?? 0) >= CHECKS_ENTRIES) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  let running = true;
  const healthMs: number[] = [];
  const poll = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${checksServer.url}/health`)).arrayBuffer();
      healthMs.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const start = performance.now();
  const res = await fetch(`${checksServer.url}/api/sessions/${session.id}/checks`);
  const judged = (await res.json()) as { checks: { id: string }[] };
  const checksMs = performance.now() - start;
  running = false;
  await poll;
  if (res.status !== 200 || judged.checks.length === 0) throw new Error(`/checks answered ${res.status}`);
  healthMs.sort((a, b) => a - b);
  const p99 = healthMs[Math.min(healthMs.length - 1, Math.floor(healthMs.length * 0.99))] ?? NaN;
  times.push({
    name: `GET /checks on ${CHECKS_ENTRIES} failed tools/call of 12.8 KB (filled over HTTP in ${(fillMs / 1000).toFixed(1)} s)`,
    ms: checksMs,
    detail: `GET /health meanwhile: ${healthMs.length} requests, p99 ${p99.toFixed(1)} ms, max ${(healthMs.at(-1) ?? NaN).toFixed(1)} ms`,
  });
} finally {
  await checksServer.close();
}

for (const row of rows) console.log(`${row.name}: ${row.ratio.toFixed(3)}x of ${row.baseline} (${row.detail})`);
for (const t of times) console.log(`${t.name}: ${Math.round(t.ms)} ms (${t.detail})`);
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/bench.json", JSON.stringify({ seconds: SECONDS, concurrency: CONCURRENCY, rows, times }, null, 2));
