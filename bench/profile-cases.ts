/**
 * CPU profiles per path: the bundle and config `npm run serve` last generated (.wrangler/serve), on a fresh state
 * folder, run by workerd with its inspector on, and each path loaded while the profiler samples.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, type Request } from "./load.ts";
import { classifyRequest, createSession, legacyEcho, legacyHandshake, modernEcho } from "./mcp.ts";
import { profileWhile, type Hotspots } from "./profile.ts";
import { freePort, ROOT, startWorkerd, stopChild } from "./servers.ts";

export interface PathProfile extends Hotspots {
  /** Requests per second while profiled (the profiler slows workerd: not comparable with the figures). */
  rps: number;
}

export async function profileCases(seconds: number, connections: number): Promise<Record<string, PathProfile>> {
  const bundle = join(ROOT, ".wrangler", "serve");
  const state = await mkdtemp(join(tmpdir(), "faultline-bench-profile-"));
  await mkdir(join(state, "do"));
  const config = (await readFile(join(bundle, "config.capnp"), "utf8")).replace(/disk = \(path = "[^"]*"/, `disk = (path = ${JSON.stringify(join(state, "do"))}`);
  const configPath = join(bundle, "profile.capnp");
  await writeFile(configPath, config);
  const inspectorPort = await freePort();
  const { child, port } = await startWorkerd(configPath, bundle, [`--inspector-addr=127.0.0.1:${inspectorPort}`]);
  const base = `http://127.0.0.1:${port}`;
  try {
    const modern = await createSession(base);
    const legacy = await createSession(base);
    const sessionId = await legacyHandshake(`${base}${legacy.path}`);
    const cases: Record<string, Request> = {
      "tools/call echo 2026-07-28": modernEcho(modern.path),
      "tools/call echo 2025-11-25 session": legacyEcho(legacy.path, sessionId),
      "POST /classify": classifyRequest,
      "GET /api/scenarios": { path: "/api/scenarios" },
    };
    const profiles: Record<string, PathProfile> = {};
    for (const [name, request] of Object.entries(cases)) {
      console.error(`bench: profiling ${name}`);
      let rps = 0;
      const hot = await profileWhile(inspectorPort, async () => (rps = (await load(base, request, { seconds, connections })).rps));
      profiles[name] = { ...hot, rps };
    }
    return profiles;
  } finally {
    await stopChild(child);
    await rm(state, { recursive: true, force: true });
    await rm(configPath, { force: true });
  }
}
