/** The real server (`npm start`) and a real Chromium, for the dashboard's browser tests. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SCREENSHOTS = join(ROOT, "test-results", "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// docs/toolchain.md: without the background-networking flags Chromium keeps trying to reach the internet.
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface RealServer {
  url: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Runs `npm start` (wrangler dev) on an ephemeral port with its own state directory, in its own process group. */
export async function startRealServer(): Promise<RealServer> {
  const port = await freePort();
  const stateDir = await mkdtemp(join(tmpdir(), "faultline-browser-state-"));
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), FAULTLINE_STATE_DIR: stateDir, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;

  const close = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = once(child, "exit");
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(stateDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${log}`);
    const ready = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`the server did not answer /health within 90 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, close };
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with the project's flags and a fresh user-data directory. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const userDataDir = await mkdtemp(join(tmpdir(), "faultline-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a page that records page errors, CSP violations and dialogs, for the tests to assert on. */
export async function openPage(context: BrowserContext) {
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems, dialogs };
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
