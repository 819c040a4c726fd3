/** A real Chromium for the dashboard's browser tests (the real server is test/helpers/npm-start.ts). */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { afterEach } from "node:test";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SCREENSHOTS = join(ROOT, "test-results", "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// docs/toolchain.md: without the background-networking flags Chromium keeps trying to reach the internet.
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium with the project's flags and a fresh user-data directory; `ignoreHTTPSErrors` for a test that serves https
 * on loopback with a certificate it made itself.
 */
export async function launchBrowser(options: { ignoreHTTPSErrors?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const userDataDir = await mkdtemp(join(tmpdir(), "faultline-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 900 },
    ...(options.ignoreHTTPSErrors ? { ignoreHTTPSErrors: true } : {}),
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

/**
 * Pages for a test file, each checked and closed after its test: no page errors, no CSP violations, no dialogs.
 * Registers the afterEach hook; call it at the file's top level. `context` is read when a page is opened.
 */
export function usePages(context: () => BrowserContext): () => Promise<Page> {
  let opened: Awaited<ReturnType<typeof openPage>>[] = [];
  afterEach(async () => {
    for (const { page, problems, dialogs } of opened) {
      await page.close();
      assert.deepEqual(problems, [], "no page errors and no CSP violations");
      assert.deepEqual(dialogs, [], "no alert, confirm or prompt");
    }
    opened = [];
  });
  return async () => {
    const handle = await openPage(context());
    opened.push(handle);
    return handle.page;
  };
}

/** Creates a session through the API of the server at `origin`; anything but 201 fails the test with the answer. */
export async function createSessionAt(origin: string, body: Record<string, unknown>): Promise<{ id: string; mcpUrl: string }> {
  const res = await fetch(`${origin}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: string; mcpUrl: string };
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** axe-core's browser build, evaluated in the page through the driver (the dashboard's CSP rightly refuses inline scripts). */
const AXE_SOURCE = await readFile(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

/** The page's axe-core violations (WCAG 2.x A and AA and best practices), one line per rule with the nodes it names. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations.map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}
