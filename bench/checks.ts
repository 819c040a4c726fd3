// npm run bench:checks: GET /checks on a full journal, and /health latency meanwhile (issue 11: work bounded by the
// input, and a long computation that yields). A time, not a ratio: the old quadratic checks took hours at this size.
import { mkdirSync, writeFileSync } from "node:fs";
import { createSession, modernMeta, startServer } from "../test/helpers/server.ts";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? "16");

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

for (const t of times) console.log(`${t.name}: ${Math.round(t.ms)} ms (${t.detail})`);
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/bench-checks.json", JSON.stringify({ concurrency: CONCURRENCY, times }, null, 2));
