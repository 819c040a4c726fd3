// The dashboard defects of issue 28 (item 6), each measured in a real Chromium against the real server (`npm start`),
// at 1,400 and 390 px where the defect is about width, plus the sessions table's checks column and proxied mark and
// the session page's "Try it" button. Run alone: node --test test/browser/dashboard-fit.browser.ts
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { axeViolations, createSessionAt, launchBrowser, screenshot, usePages, type Browser } from "./harness.ts";

const WIDE = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [WIDE, PHONE];
const LONG_TOOL = "summarise_the_quarterly_report";

let server: NpmServer;
let browser: Browser;

before(async () => {
  // The browser first: without Chromium it throws before a server is started that no after hook could close.
  browser = await launchBrowser();
  server = await npmStart();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const newPage = usePages(() => browser.context);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const createSession = (body: Record<string, unknown>) => createSessionAt(server.url, body);

/** A 2026-07-28 tools/call of `tool` sent by hand; its HTTP status is whatever the scenario makes it. */
async function toolsCall(mcpUrl: string, tool: string, text: string): Promise<number> {
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": tool },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: tool,
        arguments: { text },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "fit-test", version: "1.0.0" } },
      },
    }),
  });
  await res.text();
  return res.status;
}

async function journalRows(page: Page, n: number) {
  await page.waitForFunction((count) => document.querySelectorAll("table.journal tbody tr[data-seq]").length >= count, n);
}

describe("the dashboard's issue-28 defects, measured in Chromium", () => {
  let longTool: { id: string };
  let proxied: { id: string };
  let upstream: { id: string; mcpUrl: string };

  before(async () => {
    const created = await createSession({ scenario: "baseline" });
    longTool = created;
    await toolsCall(created.mcpUrl, LONG_TOOL, "x");
    await toolsCall(created.mcpUrl, "echo", "y");
    // A proxied session whose upstream is another session of the same server (loopback upstreams are allowed by default).
    upstream = await createSession({ scenario: "baseline" });
    const proxy = await createSession({ scenario: "baseline", upstream: upstream.mcpUrl });
    proxied = proxy;
    assert.equal(await toolsCall(proxy.mcpUrl, "echo", "through the proxy"), 200);
  });

  test("the journal's verdict column stays inside its table at 1,400 and 390 px, with a long tool name and on proxied rows", async () => {
    const page = await newPage();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const session of [longTool, proxied]) {
        await page.goto(`${server.url}/sessions/${session.id}`);
        await journalRows(page, session === longTool ? 2 : 1);
        const fit = await page.evaluate(() => {
          const wrap = document.querySelector(".journal-panel .table-wrap") as HTMLElement;
          const right = wrap.getBoundingClientRect().right;
          const verdicts = [...document.querySelectorAll("table.journal tbody tr[data-seq] .badge")].map((b) => b.getBoundingClientRect().right);
          return { scroll: wrap.scrollWidth - wrap.clientWidth, cut: verdicts.filter((r) => r > right + 0.5).length, verdicts: verdicts.length };
        });
        assert.ok(fit.verdicts >= 1);
        assert.deepEqual({ scroll: fit.scroll, cut: fit.cut }, { scroll: 0, cut: 0 }, `${session.id} at ${viewport.width} px: ${JSON.stringify(fit)}`);
      }
      const tool = page.locator("table.journal .tool", { hasText: "echo" });
      assert.ok((await page.locator("table.journal .tag.proxied").count()) >= 1, "the proxied row says so");
      assert.ok(await tool.first().isVisible());
      await screenshot(page, `fit-journal-proxied-${viewport.width}`, false);
    }
  });

  test("after an idle break the timeline's tick labels are distinct, do not overlap, and a connector joins only attempts at the same call", async () => {
    // 503 for the first call and its immediate retry succeeds; after an idle break a different call fails, then another
    // different call follows: only the first pair is a retry.
    const session = await createSession({ scenario: "errors.http_status_sequence", params: { statusCodes: [503, 200, 503, 200], countMethods: ["tools/call"] } });
    assert.equal(await toolsCall(session.mcpUrl, "echo", "first"), 503);
    assert.equal(await toolsCall(session.mcpUrl, "echo", "first"), 200);
    // Longer than the timeline's idle break (5 s), so the axis has two stretches.
    await sleep(5600);
    assert.equal(await toolsCall(session.mcpUrl, "echo", "second"), 503);
    assert.equal(await toolsCall(session.mcpUrl, "echo", "third"), 200);
    const journal = (await fetch(`${server.url}/api/sessions/${session.id}/journal?limit=50`).then((r) => r.json())) as { entries: { seq: number; time: string; durationMs: number; request: { body: { text?: string } } }[] };
    const textOf = new Map(journal.entries.map((e) => [e.seq, JSON.parse(e.request.body.text ?? "{}").params?.arguments?.text as string | undefined]));
    // The layout depends on how long the real calls took (a loaded machine makes them slow); the assertions below hold
    // for any of them (test/dashboard/timeline-ticks.test.ts checks a grid of timings), and a failure names these.
    const start = Math.min(...journal.entries.map((e) => Date.parse(e.time)));
    const timings = journal.entries
      .toSorted((a, b) => a.seq - b.seq)
      .map((e) => `#${e.seq} at +${Date.parse(e.time) - start} ms for ${e.durationMs} ms`)
      .join(", ");

    const page = await newPage();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/sessions/${session.id}`);
      await page.locator(".timeline-svg .break-label").first().waitFor();
      await page.waitForFunction(() => document.querySelectorAll(".timeline-svg circle.mark").length >= 4);
      const axis = await page.evaluate(() => {
        const labels = [...document.querySelectorAll(".timeline-svg .tick-label, .timeline-svg .break-label")].map((el) => {
          const b = el.getBoundingClientRect();
          return { text: el.textContent ?? "", left: b.left, right: b.right, top: b.top, bottom: b.bottom };
        });
        const gaps = [...document.querySelectorAll(".timeline-svg g.gap")].map((g) => [Number((g as SVGElement).dataset.from), Number((g as SVGElement).dataset.to)]);
        return { labels, gaps };
      });
      const ticks = axis.labels.filter((l) => !l.text.endsWith("idle")).map((l) => l.text);
      assert.ok(ticks.length >= 2, `${ticks.length} tick labels at ${viewport.width} px (${ticks.join(", ")}); calls ${timings}`);
      assert.equal(new Set(ticks).size, ticks.length, `tick labels repeat at ${viewport.width} px: ${ticks.join(", ")}; calls ${timings}`);
      for (const [i, a] of axis.labels.entries()) {
        for (const b of axis.labels.slice(i + 1)) {
          const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          assert.ok(!overlap, `"${a.text}" overlaps "${b.text}" at ${viewport.width} px; calls ${timings}`);
        }
      }
      assert.ok(axis.gaps.length >= 1, "the immediate retry is joined");
      for (const [from, to] of axis.gaps) assert.equal(textOf.get(from!), textOf.get(to!), `the connector #${from} → #${to} joins two different calls`);
      await screenshot(page, `fit-timeline-break-${viewport.width}`, false);
    }
  });

  test("every tab of \"Connect a client\" is in view at 1,400 and 390 px", async () => {
    const page = await newPage();
    const session = await createSession({ scenario: "baseline" });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/sessions/${session.id}`);
      const tabs = await page.evaluate(() => {
        const list = document.querySelector("#configs .tablist") as HTMLElement;
        const frame = list.getBoundingClientRect();
        return [...list.querySelectorAll("[role=tab]")].map((tab) => {
          const b = tab.getBoundingClientRect();
          return { text: tab.textContent?.trim(), inside: b.left >= frame.left - 0.5 && b.right <= frame.right + 0.5 && b.right <= window.innerWidth };
        });
      });
      assert.equal(tabs.length, 5);
      assert.deepEqual(tabs.filter((t) => !t.inside), [], `tabs out of view at ${viewport.width} px`);
      // And the last one works: it shows its panel.
      await page.locator("#configs [role=tab]").last().click();
      assert.ok(await page.locator("#configs [role=tabpanel]:not([hidden])").last().isVisible());
    }
  });

  test("the live indicator sits beside the session's title when its params wrap, at 1,400 and 390 px", async () => {
    const page = await newPage();
    const params = { statusCodes: [503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 200], countMethods: ["tools/call", "tools/list", "resources/read", "prompts/get"] };
    const session = await createSession({ scenario: "errors.http_status_sequence", params });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/sessions/${session.id}`);
      await page.locator("[data-role=live][data-state=live]").waitFor();
      const place = await page.evaluate(() => {
        const title = document.querySelector("h1.session-id")!.getBoundingClientRect();
        const dot = document.querySelector("[data-role=live] .dot")!.getBoundingClientRect();
        const params = document.querySelector(".params-list")!.getBoundingClientRect();
        const middle = (dot.top + dot.bottom) / 2;
        return { onTitleLine: middle >= title.top && middle <= title.bottom, rightOfTitle: dot.left >= title.right - 0.5, aboveParams: dot.bottom <= params.top, inView: dot.right <= window.innerWidth };
      });
      assert.deepEqual(place, { onTitleLine: true, rightOfTitle: true, aboveParams: true, inView: true }, `at ${viewport.width} px`);
    }
  });

  test("the sessions table shows each session's checks and marks proxied sessions, at 1,400 and 390 px", async () => {
    const checked = await createSession({ scenario: "errors.http_status_sequence", params: { statusCodes: [503, 200], countMethods: ["tools/call"] } });
    await toolsCall(checked.mcpUrl, "echo", "a");
    await toolsCall(checked.mcpUrl, "echo", "a");
    const judged = (await fetch(`${server.url}/api/sessions/${checked.id}/checks`).then((r) => r.json())) as { checks: { status: string }[] };
    const count = (status: string) => judged.checks.filter((c) => c.status === status).length;
    assert.ok(judged.checks.length >= 1);
    const page = await newPage();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/`);
      const row = page.locator("table.sessions tbody tr", { has: page.locator(`a[href="/sessions/${checked.id}"]`) });
      const cell = row.locator("[data-role=checks-summary]");
      await row.locator("[data-role=checks-summary][data-state=loaded]").waitFor();
      assert.equal(await cell.getAttribute("data-pass"), String(count("pass")));
      assert.equal(await cell.getAttribute("data-fail"), String(count("fail")));
      assert.equal(await cell.getAttribute("data-warning"), String(count("warning")));
      assert.ok(await cell.isVisible());
      const proxyRow = page.locator("table.sessions tbody tr", { has: page.locator(`a[href="/sessions/${proxied.id}"]`) });
      assert.ok(await proxyRow.locator(".tag.proxied").isVisible(), "the proxied session is marked");
      const plainRow = page.locator("table.sessions tbody tr", { has: page.locator(`a[href="/sessions/${upstream.id}"]`) });
      assert.equal(await plainRow.locator(".tag.proxied").count(), 0, "a session without an upstream is not");
      const fit = await page.evaluate(() => {
        const wrap = document.querySelector("table.sessions")!.closest(".table-wrap") as HTMLElement;
        return { overflow: wrap.scrollWidth - wrap.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
      });
      assert.deepEqual(fit, { overflow: 0, page: 0 }, `at ${viewport.width} px`);
      assert.deepEqual(await axeViolations(page), [], `/ at ${viewport.width} px`);
      await screenshot(page, `fit-sessions-${viewport.width}`);
    }
  });

  test("\"Try it\" sends one tools/call of echo through the session's MCP URL and shows the answer and its journal entry", async () => {
    const session = await createSession({ scenario: "errors.http_status_sequence", params: { statusCodes: [503, 200], countMethods: ["tools/call"] } });
    const page = await newPage();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/sessions/${session.id}`);
      await page.locator("[data-role=live][data-state=live]").waitFor();
      const before = await page.locator("table.journal tbody tr[data-seq]").count();
      await page.click("[data-action=try-it]");
      const result = page.locator("[data-role=try-it-result]");
      await result.locator("[data-role=try-it-entry]").waitFor();
      const status = viewport === WIDE ? "503" : "200";
      assert.equal(await result.locator("[data-role=try-it-status]").textContent(), `HTTP ${status}`);
      assert.ok(await result.locator("pre").isVisible(), "the answer's body is shown");
      await journalRows(page, before + 1);
      assert.equal(await page.locator("table.journal tbody tr[data-seq]").count(), before + 1, "exactly one exchange");
      const seq = await page.locator("table.journal tbody tr[data-seq]").first().getAttribute("data-seq");
      assert.equal(await result.locator("[data-role=try-it-entry]").getAttribute("data-seq"), seq);
      assert.equal(await page.locator("table.journal tbody tr[data-seq]").first().locator(".status").textContent(), status);
      await result.locator("[data-role=try-it-entry]").click();
      await page.locator("#drawer").waitFor({ state: "visible" });
      assert.match((await page.locator("#drawer-title").textContent()) ?? "", /tools\/call.*echo/);
      await page.keyboard.press("Escape");
      assert.deepEqual(await axeViolations(page), [], `the session page with an answer, at ${viewport.width} px`);
      await screenshot(page, `fit-try-it-${viewport.width}`, false);
    }
  });
});
