/**
 * `npm run bench:ab -- <checkout A> <checkout B> [modern|legacy|fault|injected|proxied|classify|scenarios|health]`: one path of two checkouts
 * (each served by its own `npm run serve`, side by side, fresh state), compared by workerd's **CPU time per request**
 * (utime + stime from /proc over each round's requests), which waiting for a core does not inflate, beside req/s.
 * ROUNDS rounds (default 6) of SECONDS seconds (default 3), the order of A and B reversed every other round; prints
 * each round's figure and the medians. How every fix in bench/NOTES.md was measured.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { load, type Request } from "./load.ts";
import { median } from "./median.ts";
import { classifyRequest, createSession, legacyEcho, legacyHandshake, modernEcho, send } from "./mcp.ts";
import { startSdk, startServe, type Running } from "./servers.ts";

const [a, b, path = "modern"] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: npm run bench:ab -- <checkout A> <checkout B> [modern|legacy|fault|injected|proxied|classify|scenarios|health]");
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SECONDS = Number(process.env.SECONDS ?? 3);

/** CPU microseconds the process has used (fields 14 and 15 of /proc/PID/stat, in clock ticks of 10 ms). */
async function cpuMicros(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function requestFor(server: Running): Promise<Request> {
  if (path === "classify") return classifyRequest;
  if (path === "scenarios") return { path: "/api/scenarios" };
  if (path === "health") return { path: "/health" };
  if (path === "fault") {
    // The fault scenario of npm run bench: its one fault taken here, every later call answered 200 and judged.
    const faulted = await createSession(server.url, "errors.http_status_sequence", { params: { statusCodes: [503, 200], countMethods: ["tools/call"] } });
    await (await send(server.url, modernEcho(faulted.path))).arrayBuffer();
    return modernEcho(faulted.path);
  }
  // Every call answered with an injected 503 (a text body): what the fault interpreter's own answers cost.
  if (path === "injected") return modernEcho((await createSession(server.url, "errors.http_status_sequence", { params: { statusCodes: [503], countMethods: ["tools/call"], body: "text" } })).path);
  // Proxied: both sides in front of one SDK server, whose CPU is not counted (only workerd's is).
  if (path === "proxied") return modernEcho((await createSession(server.url, "baseline", { upstream: `${(upstream ??= await startSdk()).url}/mcp` })).path);
  const session = await createSession(server.url);
  return path === "legacy" ? legacyEcho(session.path, await legacyHandshake(`${server.url}${session.path}`)) : modernEcho(session.path);
}

let upstream: Running | undefined;
const sides = [] as { root: string; server: Running; request: Request; micros: number[]; rps: number[] }[];
try {
  for (const root of [a, b]) {
    const server = await startServe({}, undefined, resolve(root));
    sides.push({ root, server, request: await requestFor(server), micros: [], rps: [] });
  }
  for (const side of sides) await load(side.server.url, side.request, { seconds: 2, connections: 16 }); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const before = await cpuMicros(side.server.pid);
      const sample = await load(side.server.url, side.request, { seconds: SECONDS, connections: 16 });
      side.micros.push((await cpuMicros(side.server.pid) - before) / (sample.rps * SECONDS));
      side.rps.push(sample.rps);
    }
  }
  for (const side of sides) {
    console.log(`${side.root}: ${median(side.micros).toFixed(0)} µs CPU per request, ${median(side.rps).toFixed(0)} req/s (rounds: ${side.micros.map((m) => m.toFixed(0)).join(" ")})`);
  }
  console.log(`${path}: B/A CPU per request ${(median(sides[1]!.micros) / median(sides[0]!.micros)).toFixed(3)}`);
} finally {
  for (const side of sides) await side.server.stop();
  await upstream?.stop();
}
