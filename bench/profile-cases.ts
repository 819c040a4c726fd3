/**
 * CPU profiles per path: the bundle and config `npm run serve` last generated (.wrangler/serve/<pid>), on a fresh state
 * folder, run by workerd with its inspector on, and each path loaded while the profiler samples.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, type Request } from "./load.ts";
import { classifyRequest, createSession, legacyEcho, legacyHandshake, modernEcho, send } from "./mcp.ts";
import { fillJournal } from "./journal-fill.ts";
import { profileWhile, type Hotspots } from "./profile.ts";
import { freePort, startWorkerd, stopChild } from "./servers.ts";
import { lastServeBundle } from "../scripts/serve.ts";

function fail(message: string): never {
  throw new Error(message);
}

export interface PathProfile extends Hotspots {
  /** Requests per second while profiled (the profiler slows workerd: not comparable with the figures). */
  rps: number;
}

export async function profileCases(seconds: number, connections: number, journalEntries: number): Promise<Record<string, PathProfile>> {
  const bundle = (await lastServeBundle()) ?? fail("no bundle of npm run serve under .wrangler/serve: run npm run serve (or npm run bench) first");
  const state = await mkdtemp(join(tmpdir(), "faultline-bench-profile-"));
  await mkdir(join(state, "v3", "do"), { recursive: true });
  // The last `npm run serve` config, on this state folder, with room for the growth case's journal.
  const config = (await readFile(join(bundle, "config.capnp"), "utf8"))
    .replace(/disk = \(path = "[^"]*"/, `disk = (path = ${JSON.stringify(join(state, "v3", "do"))}`)
    .replace(/\(name = "JOURNAL_MAX_ENTRIES", text = "\d+"\)/, `(name = "JOURNAL_MAX_ENTRIES", text = "${journalEntries * 2}")`);
  const configPath = join(bundle, "profile.capnp");
  await writeFile(configPath, config);
  const inspectorPort = await freePort();
  const start = () => startWorkerd(configPath, bundle, [`--inspector-addr=127.0.0.1:${inspectorPort}`]);
  let { child, port } = await start();
  let base = `http://127.0.0.1:${port}`;
  const profiles: Record<string, PathProfile> = {};
  const profile = async (name: string, request: Request, inFlight = connections) => {
    console.error(`bench: profiling ${name}`);
    let rps = 0;
    const hot = await profileWhile(inspectorPort, async () => (rps = (await load(base, request, { seconds, connections: inFlight })).rps));
    profiles[name] = { ...hot, rps };
  };
  try {
    const modern = await createSession(base);
    const legacy = await createSession(base);
    const sessionId = await legacyHandshake(`${base}${legacy.path}`);
    await profile("tools/call echo 2026-07-28", modernEcho(modern.path));
    await profile("tools/call echo 2025-11-25 session", legacyEcho(legacy.path, sessionId));
    await profile("POST /classify", classifyRequest);
    await profile("GET /api/scenarios", { path: "/api/scenarios" });
    // Growth: a session with one real entry, grown in SQLite while workerd is stopped (see journal-fill.ts).
    const grown = await createSession(base);
    await (await send(base, modernEcho(grown.path))).arrayBuffer();
    await stopChild(child);
    await fillJournal(state, journalEntries);
    ({ child, port } = await start());
    base = `http://127.0.0.1:${port}`;
    await profile(`tools/call echo 2026-07-28, ${journalEntries}-entry journal (1 connection)`, modernEcho(grown.path), 1);
    return profiles;
  } finally {
    await stopChild(child);
    await rm(state, { recursive: true, force: true });
    await rm(configPath, { force: true });
  }
}
