import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { PROXY, standInBrowser } from "../helpers/mcp-remote.ts";

// The stand-in browser of test/helpers/mcp-remote.ts, opened the way mcp-remote opens a browser for OAuth: its own
// `open` dependency, which on Linux runs the xdg-open bundled with it, which runs $BROWSER when there is no desktop.
// A loopback server plays the authorization endpoint (approving at once) and mcp-remote's callback.

// A bound, not a measurement: a browser that never reaches the callback fails the test instead of hanging it.
test("the stand-in browser, opened through mcp-remote's open package and xdg-open, follows the authorization redirect to the callback", { timeout: 30_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "faultline-browser-"));
  let reached: (query: URLSearchParams) => void = () => {};
  const callback = new Promise<URLSearchParams>((resolve) => (reached = resolve));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", "c0de");
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/oauth/callback") reached(url.searchParams);
    res.writeHead(url.pathname === "/oauth/callback" ? 200 : 404, { "content-type": "text/plain" }).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const saved = { ...process.env };
  try {
    const browser = await standInBrowser(dir);
    // What a headless machine has: no display, no desktop, only $BROWSER.
    for (const name of ["DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "GNOME_DESKTOP_SESSION_ID"]) delete process.env[name];
    process.env.BROWSER = browser.path;
    const { default: open } = (await import(pathToFileURL(createRequire(PROXY).resolve("open")).href)) as { default: (target: string) => Promise<unknown> };
    const redirect = `http://localhost:${port}/oauth/callback`;
    const authorize = `http://127.0.0.1:${port}/authorize?response_type=code&redirect_uri=${encodeURIComponent(redirect)}&state=s1`;
    await open(authorize);
    const query = await callback;
    assert.deepEqual([query.get("code"), query.get("state")], ["c0de", "s1"]);
    // The browser writes its log line after each answer, so the callback's may land just after the callback ran.
    let visited: string[] = [];
    while (visited.length < 2) {
      await sleep(20);
      visited = await browser.visited();
    }
    assert.deepEqual(visited, [`302 ${authorize}`, `200 ${redirect}?code=c0de&state=s1`]);
  } finally {
    process.env = saved;
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
