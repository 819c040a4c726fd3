import { startServer, createSession, postModern } from "./test/helpers/server.ts";
import { setTimeout as sleep } from "node:timers/promises";
const server = await startServer();
try {
  for (const scenario of ["baseline", "ratelimit.retry_after_seconds"]) {
    const { id, mcpUrl } = await createSession(server, scenario, scenario === "baseline" ? {} : { times: 1000, seconds: 0 });
    for (let i = 0; i < 60; i++) await (await postModern(mcpUrl, i, "tools/call", { name: "echo", arguments: { text: `${i}` } })).arrayBuffer();
    await sleep(800);
    const j = await (await fetch(`${server.url}/api/sessions/${id}/journal?limit=1000`)).json() as any;
    const xs = j.entries.map((e: any) => ({ s: Date.parse(e.time), e: Date.parse(e.time) + e.durationMs })).sort((a: any, b: any) => a.s - b.s);
    const gaps = xs.slice(1).map((x: any, i: number) => x.s - xs[i].e);
    console.log(scenario, xs.length, "min gap", Math.min(...gaps), "negatives", gaps.filter((g: number) => g < 0).length, gaps.filter((g: number) => g < 0).join(","));
  }
} finally { await server.close(); }
