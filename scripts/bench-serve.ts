/**
 * Measures the two ways to serve the production bundle: workerd with the generated config (`npm run serve`) and
 * Miniflare's API on the same bundle. Run `npm run serve` once first (it builds .wrangler/serve).
 * Usage: node scripts/bench-serve.ts [requests per case, default 4000] [concurrency, default 32]
 * Prints requests per second per case; compare them as ratios (the machine is shared).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { postModern } from "../test/helpers/server.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TOTAL = Number(process.argv[2] ?? 4000);
const CONCURRENCY = Number(process.argv[3] ?? 32);

async function load(name: string, send: () => Promise<Response>): Promise<void> {
  for (let i = 0; i < 200; i++) await (await send()).arrayBuffer(); // warm-up
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < TOTAL) {
        const res = await send();
        await res.arrayBuffer();
        if (!res.ok) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`${name}: ${Math.round(TOTAL / seconds)} req/s (${TOTAL} requests, ${CONCURRENCY} concurrent, ${failed} failed)`);
}

async function measure(label: string, base: string) {
  await load(`${label} GET /health`, () => fetch(`${base}/health`));
  await load(`${label} tools/call echo`, () => postModern(`${base}/mcp`, 1, "tools/call", { name: "echo", arguments: { text: "hi" } }));
}

async function viaServe() {
  const state = await mkdtemp(join(tmpdir(), "faultline-bench-"));
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [join(ROOT, "scripts/serve.ts")], {
    env: { ...process.env, PORT: String(port), FAULTLINE_STATE_DIR: state },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve()));
  await measure("workerd (npm run serve)", `http://127.0.0.1:${port}`);
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  await rm(state, { recursive: true, force: true });
}

async function viaMiniflare() {
  const state = await mkdtemp(join(tmpdir(), "faultline-bench-"));
  const config = unstable_readConfig({ config: join(ROOT, "wrangler.toml") }, { hideWarnings: true });
  const mf = new Miniflare(convertV4MiniflareOptions({
    name: config.name,
    host: "127.0.0.1",
    port: 0,
    modules: true,
    scriptPath: join(ROOT, ".wrangler/serve/index.js"),
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: Object.fromEntries(Object.entries(config.vars).map(([k, v]) => [k, String(v)])),
    durableObjects: Object.fromEntries(config.durable_objects.bindings.map((b: { name: string; class_name: string }) => [b.name, { className: b.class_name, useSQLite: true }])),
    // Miniflare's own layout: <path>/do/<worker>-<class>/, the same as wrangler dev's <state>/v3/do/.
    isolatedResourcePersistencePath: join(state, "v3"),
  }));
  const url = await mf.ready;
  await measure("Miniflare API", String(url).replace(/\/$/, ""));
  await mf.dispose();
  await rm(state, { recursive: true, force: true });
}

await viaServe();
await viaMiniflare();
await viaServe();
await viaMiniflare();
