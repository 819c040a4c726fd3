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

for (const row of rows) console.log(`${row.name}: ${row.ratio.toFixed(3)}x of ${row.baseline} (${row.detail})`);
mkdirSync("test-results", { recursive: true });
writeFileSync("test-results/bench.json", JSON.stringify({ seconds: SECONDS, concurrency: CONCURRENCY, rows }, null, 2));
