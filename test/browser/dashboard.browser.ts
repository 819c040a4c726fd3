// The dashboard in a real browser against the real server (`npm start`). Run with `npm run test:browser`;
// not part of `npm test`. Screenshots go to test-results/screenshots/.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { axeViolations, createSessionAt, launchBrowser, screenshot, usePages, type Browser } from "./harness.ts";

const IMG = "<img src=x onerror=window.__pwned=1>";
const SCRIPT = "<script>window.__pwned=1</script>";
const SVG = '"><svg onload=window.__pwned=1>';
const RETRY_SESSION = "browser-retry";
/** The longest id the API takes (64 characters), so its MCP URL is as long as they come. */
const LONG_SESSION = "a-session-id-as-long-as-the-api-allows-so-its-mcp-url-is-long-64";
const WIDE = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };

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

/** A 2026-07-28 tools/call sent by hand, so headers and clientInfo can carry anything. */
async function rawToolsCall(mcpUrl: string, text: string, headers: Record<string, string>, clientName: string) {
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "echo",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "echo",
        arguments: { text },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: clientName, version: "1.0.0" },
        },
      },
    }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.text();
}

describe("dashboard in a browser", () => {
  test("the picker shows the API's validation error next to its field, then creates the session", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/`);
    await page.fill("[data-role=search]", "status sequence");
    await page.click('.scenario-item[data-id="errors.http_status_sequence"] label');
    const params = page.locator('fieldset.params[data-scenario="errors.http_status_sequence"]');
    await params.locator("[data-action=load-example]").click();
    const statusCodes = params.locator('[data-path="params.statusCodes"] input');
    assert.equal(await statusCodes.inputValue(), "503, 503, 200");
    await statusCodes.fill("99, 503, 200");
    await page.fill("#picker-create-id", RETRY_SESSION);
    await page.click("#picker-create button[type=submit]");

    const error = params.locator('[data-path="params.statusCodes"] .field-error');
    await error.waitFor({ state: "visible" });
    assert.match((await error.textContent()) ?? "", /^item 1: .*200/);
    assert.equal(await statusCodes.getAttribute("aria-invalid"), "true");
    assert.match((await page.locator("#picker-create .form-error").textContent()) ?? "", /Not created/);
    await screenshot(page, "picker-error", false);

    await statusCodes.fill("503, 503, 200");
    await page.click("#picker-create button[type=submit]");
    await page.waitForURL(`${server.url}/sessions/${RETRY_SESSION}`);
    assert.equal(await page.locator("h1.session-id").textContent(), RETRY_SESSION);

    await page.goto(`${server.url}/`);
    assert.equal(await page.locator(`table.sessions a[href="/sessions/${RETRY_SESSION}"]`).count(), 1);
    await page.click("[data-group-by=area]");
    const areas = await page.locator("#picker-create .groups .group h3").allTextContents();
    assert.ok(areas.includes("Errors") && areas.includes("Baseline"), areas.join(", "));
    assert.deepEqual(areas, [...areas].sort(), "areas in alphabetical order");
    await screenshot(page, "home");
  });

  test("an SDK client's failures and retries appear live: rows, verdict badges, timeline gaps and checks", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/sessions/${RETRY_SESSION}`);
    await page.locator("[data-role=live][data-state=live]").waitFor();

    const client = new Client({ name: "dashboard-browser-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/s/${RETRY_SESSION}/mcp`)));
    const call = () => client.callTool({ name: "echo", arguments: { text: "hello" } });
    // The SDK does not retry a 503: the application does. First at once (no backoff), then after Retry-After.
    await assert.rejects(call(), /503|Service Unavailable|POSTing/);
    await assert.rejects(call(), /503|Service Unavailable|POSTing/);
    await sleep(1100);
    const result = await call();
    assert.notEqual(result.isError, true);
    await client.close();

    const rows = page.locator("table.journal tbody tr[data-seq]");
    await page.waitForFunction(() => document.querySelectorAll("table.journal tbody tr[data-seq]").length >= 4);
    const rowCount = await rows.count();
    assert.equal(await page.locator("table.journal .badge.o-HTTP_ERROR").count(), 2);
    assert.ok((await page.locator("table.journal .badge.o-TOOL_SUCCESS").count()) >= 2);
    assert.equal(await page.locator("[data-role=journal-count]").textContent(), String(rowCount));

    assert.equal(await page.locator(".timeline-svg circle.mark").count(), rowCount);
    assert.equal(await page.locator(".timeline-svg circle.mark.o-HTTP_ERROR").count(), 2);
    const fast = page.locator(".timeline-svg .gap-fast .gap-label");
    assert.equal(await fast.count(), 1, "the immediate retry is flagged");
    assert.match((await fast.textContent()) ?? "", /^\+\d+ ms$/);
    const patient = page.locator(".timeline-svg .gap:not(.gap-fast) .gap-label");
    assert.match((await patient.first().textContent()) ?? "", /^\+1\.\d s$/, "the wait for Retry-After is labelled");

    const lastSeq = await rows.first().getAttribute("data-seq");
    await page.locator(`[data-role=checks][data-checked-seq="${lastSeq}"] .check`).first().waitFor();
    assert.ok((await page.locator("[data-role=checks] .check").count()) >= 1);

    // As a person arriving later sees it: the journal replayed from the stream, the connect panel folded.
    await page.reload();
    await page.locator(`[data-role=checks][data-checked-seq="${lastSeq}"] .check`).first().waitFor();
    assert.equal(await page.locator("table.journal tbody tr[data-seq]").count(), rowCount);
    assert.equal(await page.locator("details.connect").getAttribute("open"), null);
    await screenshot(page, "session");

    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "session-dark");
  });

  test("the drawer shows request and response headers and bodies, pretty-printed", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/sessions/${RETRY_SESSION}`);
    // Newest first: the first failed row is the second 503, just below the success that followed it.
    const failed = page.locator("table.journal tbody tr:has(.badge.o-HTTP_ERROR)").first();
    await failed.click();
    const drawer = page.locator("#drawer");
    await drawer.waitFor({ state: "visible" });
    assert.match((await drawer.locator("#drawer-title").textContent()) ?? "", /tools\/call.*echo.*HTTP error/);
    assert.deepEqual(await drawer.locator(".drawer-section > h3").allTextContents(), ["Fault injected", "Verdict", "Request", "Response", "Client info"]);
    assert.match((await drawer.locator(".facts").first().textContent()) ?? "", /retry of #\d+ \(HTTP_ERROR\) after \d+ ms: too soon \(Retry-After asked 1 s\)/);
    assert.equal(await drawer.locator("table.headers").count(), 2);
    assert.match((await drawer.locator("table.headers").last().textContent()) ?? "", /retry-after1/);
    const requestBody = drawer.locator(".drawer-section:has(> h3:text-is('Request')) pre.json");
    const pretty = (await requestBody.textContent()) ?? "";
    assert.match(pretty, /^\{\n {2}"/, "indented");
    assert.match(pretty, /\n {2}"jsonrpc": "2\.0"/);
    await screenshot(page, "drawer", false);

    await page.keyboard.press("k");
    assert.match((await drawer.locator("#drawer-title").textContent()) ?? "", /success/);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
  });

  test("script and HTML sent by a client stay text: arguments, headers, clientInfo and SSE data", async () => {
    const session = await createSession({ scenario: "errors.tool_error", params: { text: `${SCRIPT}${IMG}`, tools: ["place_order"], responseMode: "sse" } });
    await rawToolsCall(session.mcpUrl, `${IMG} ${SCRIPT} ${SVG}`, { "x-evil": SVG, "x-evil-img": IMG }, IMG);

    const page = await newPage();
    await page.goto(`${server.url}/sessions/${session.id}`);
    await page.locator("table.journal tbody tr[data-seq]").first().click();
    const drawer = page.locator("#drawer");
    await drawer.waitFor({ state: "visible" });
    await drawer.locator(".sse-events li").first().waitFor();

    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.ok(await page.locator(".params-list").getByText(SCRIPT, { exact: false }).isVisible(), "the server-rendered param shows as text");
    assert.ok(await drawer.locator("table.headers td", { hasText: SVG }).first().isVisible(), "the header shows as text");
    assert.ok(await drawer.locator(".facts dd", { hasText: IMG }).first().isVisible(), "clientInfo.name shows as text");
    assert.match((await drawer.locator(".drawer-section:has(> h3:text-is('Request')) pre.json").textContent()) ?? "", /<script>window\.__pwned=1<\/script>/);
    assert.match((await drawer.locator(".sse-events").textContent()) ?? "", /<img src=x onerror=window\.__pwned=1>/);
    for (const selector of ["#drawer img", "#drawer script", "#drawer-body svg", "table.journal img", "table.journal svg"]) {
      assert.equal(await page.locator(selector).count(), 0, selector);
    }

    // The layout holds: the table keeps its columns and the drawer stays inside the viewport without sideways scrolling.
    const columns = await page.evaluate(() => ({
      head: document.querySelectorAll("table.journal thead th").length,
      rows: [...document.querySelectorAll("table.journal tbody tr")].map((row) => row.children.length),
    }));
    assert.equal(columns.head, 7);
    assert.ok(columns.rows.every((n) => n === 7), JSON.stringify(columns.rows));
    const viewport = page.viewportSize() ?? { width: 0, height: 0 };
    const box = await drawer.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width + 1 && box.y >= 0 && box.height <= viewport.height + 1, JSON.stringify(box));
    const overflow = await page.evaluate(() => {
      const body = document.querySelector("#drawer .drawer-body") as HTMLElement;
      return body.scrollWidth - body.clientWidth;
    });
    assert.ok(overflow <= 1, `the drawer body scrolls sideways by ${overflow}px`);
    await screenshot(page, "xss-drawer", false);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
  });

  test("the classify playground shows a verdict, and refuses what it cannot read inline", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/classify`);
    await page.click("[data-example-id=http-503]");
    await page.click("#classify-form button[type=submit]");
    const card = page.locator(".classify-result .verdict-card");
    await card.waitFor();
    assert.equal(await card.locator(".verdict-head .badge").textContent(), "HTTP error");
    assert.match((await card.locator(".retry").textContent()) ?? "", /wait 2 s/);
    assert.ok((await card.locator(".layer-chip").textContent())?.includes("transport"));
    await screenshot(page, "classify");

    await page.fill("#classify-input", "{oops");
    await page.keyboard.press("Control+Enter");
    const error = page.locator('[data-path="input"] .field-error');
    await error.waitFor({ state: "visible" });
    assert.match((await error.textContent()) ?? "", /^The body is not valid JSON: .*line 1 column 2/);
    assert.equal(await page.locator(".classify-result .verdict-card").count(), 0);
    // Once, next to the field, in words for people: no machine paths or rule names, no second copy in the summary.
    const text = await page.locator("main").innerText();
    assert.equal(text.split("The body is not valid JSON").length - 1, 1, text);
    assert.doesNotMatch(text, /\(root\)|invalid_json/);
    assert.match((await page.locator("#classify-form .form-error").textContent()) ?? "", /^Not classified/);
    await screenshot(page, "classify-refused", false);
  });

  test("a session's scenario changes from the dialog, and the page follows", async () => {
    const session = await createSession({ scenario: "baseline" });
    const page = await newPage();
    await page.goto(`${server.url}/sessions/${session.id}`);
    await page.click("[data-action=change-scenario]");
    const dialog = page.locator("#change-dialog");
    await dialog.waitFor({ state: "visible" });
    await dialog.locator("[data-role=search]").fill("errors.jsonrpc_error");
    await dialog.locator("[data-role=search]").press("Enter");
    await dialog.locator('fieldset.params[data-scenario="errors.jsonrpc_error"]').waitFor({ state: "visible" });
    await Promise.all([page.waitForEvent("load"), dialog.locator("button[type=submit]").click()]);
    assert.match((await page.locator(".scenario-line").textContent()) ?? "", /errors\.jsonrpc_error/);
  });

  test("on a phone the session page keeps the journal's verdicts and the timeline's labels and marks in view", async () => {
    const page = await newPage();
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/sessions/${RETRY_SESSION}`);
    await page.waitForFunction(() => document.querySelectorAll("table.journal tbody tr[data-seq]").length >= 4);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);

    // The journal: #, method, status and verdict in view without scrolling sideways, and a word on where the rest is.
    const journal = await page.evaluate(() => {
      const wrap = document.querySelector(".journal-panel .table-wrap") as HTMLElement;
      const right = wrap.getBoundingClientRect().right;
      const shown = [...document.querySelectorAll("table.journal thead th")].filter((th) => (th as HTMLElement).offsetParent !== null);
      return { scroll: wrap.scrollWidth - wrap.clientWidth, columns: shown.map((th) => th.textContent), cut: shown.filter((th) => th.getBoundingClientRect().right > right + 0.5).length };
    });
    assert.deepEqual(journal, { scroll: 0, columns: ["#", "Method / tool", "Status", "Verdict"], cut: 0 });
    assert.ok(await page.locator("[data-role=journal-hint]").isVisible());
    assert.ok(await page.locator("table.journal tbody .badge").first().isVisible());

    // The timeline: every lane named in full, every mark and tick label inside the picture and the panel.
    const timeline = await page.evaluate(() => {
      const box = document.querySelector(".timeline") as HTMLElement;
      const frame = box.getBoundingClientRect();
      const inside = (el: Element) => {
        const b = el.getBoundingClientRect();
        return b.left >= frame.left - 0.5 && b.right <= frame.right + 0.5;
      };
      return {
        scroll: box.scrollWidth - box.clientWidth,
        labels: [...box.querySelectorAll(".lane-label")].map((t) => t.textContent),
        outside: [...box.querySelectorAll("circle.mark, .tick-label, .gap-label, .lane-label")].filter((el) => !inside(el)).length,
      };
    });
    assert.equal(timeline.scroll, 0);
    assert.equal(timeline.outside, 0);
    assert.ok(timeline.labels.includes("tools/call echo"), timeline.labels.join(", "));
    assert.ok(timeline.labels.every((label) => !label?.includes("…")), timeline.labels.join(", "));
    await screenshot(page, "session-phone");
  });

  test("the sessions table fits its card at 1,400 px: long ids and URLs wrap and every Copy button shows in full", async () => {
    await createSession({ id: LONG_SESSION, scenario: "errors.tool_error" });
    const page = await newPage();
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/`);
    const fit = await page.evaluate(() => {
      const wrap = document.querySelector("table.sessions")!.closest(".table-wrap") as HTMLElement;
      const card = wrap.getBoundingClientRect();
      const rows = [...document.querySelectorAll("table.sessions tbody tr")].map((row) => {
        const copy = row.querySelector("button.copy") as HTMLElement;
        const url = row.querySelector("code.url") as HTMLElement;
        const box = copy.getBoundingClientRect();
        return { copyText: copy.innerText, copyInside: box.left >= card.left && box.right <= card.right + 0.5, urlCut: url.scrollWidth > url.clientWidth };
      });
      return { overflow: wrap.scrollWidth - wrap.clientWidth, rows };
    });
    assert.ok(fit.overflow <= 0, `the table is ${fit.overflow}px wider than its card`);
    assert.ok(fit.rows.length >= 2);
    for (const row of fit.rows) assert.deepEqual(row, { copyText: "Copy", copyInside: true, urlCut: false });
    assert.ok(await page.locator("table.sessions").getByText(`/s/${LONG_SESSION}/mcp`).isVisible());
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "home");

    await page.setViewportSize(PHONE);
    const phone = await page.evaluate(() => {
      const copies = [...document.querySelectorAll("table.sessions button.copy")].map((b) => b.getBoundingClientRect());
      return { overflow: document.documentElement.scrollWidth - window.innerWidth, outside: copies.filter((b) => b.right > window.innerWidth).length };
    });
    assert.deepEqual(phone, { overflow: 0, outside: 0 });
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "home-phone");
  });

  test("a new session's scenario list opens at its top, and search keeps the selected scenario listed", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/`);
    const list = page.locator("#picker-create [data-role=groups]");
    assert.equal(await list.evaluate((node) => node.scrollTop), 0);
    assert.equal(await page.locator("#picker-create .group").first().getAttribute("data-group"), "transport");
    assert.ok(await page.locator('#picker-create .scenario-item[data-id="errors.http_status_sequence"]').isVisible());

    await page.click('#picker-create .scenario-item[data-id="errors.http_status_sequence"] label');
    await page.fill("#picker-create [data-role=search]", "token expiry");
    const selected = page.locator('#picker-create .scenario-item[data-id="errors.http_status_sequence"]');
    assert.ok(await selected.isVisible(), "the selected scenario stays in the list");
    assert.match((await selected.getAttribute("class")) ?? "", /\bkept\b/);
    assert.ok(await page.locator('fieldset.params[data-scenario="errors.http_status_sequence"]').isVisible(), "and in the form");
    assert.ok(await page.locator('#picker-create .scenario-item[data-id="auth.token_expiry"]').isVisible());
    assert.equal(await page.locator("#picker-create .scenario-item:not([hidden])").count(), 2);

    // Enter takes the first match, not the kept selection; the old selection then leaves the filtered list.
    await page.press("#picker-create [data-role=search]", "Enter");
    assert.ok(await page.locator('fieldset.params[data-scenario="auth.token_expiry"]').isVisible());
    assert.ok(await selected.isHidden());
  });

  test("scenario summaries show backticked names as code, and no backtick", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/`);
    const summary = page.locator('#picker-create .scenario-item[data-id="errors.tool_error"] .item-summary');
    assert.deepEqual(await summary.locator("code").allTextContents(), ["tools"]);
    assert.doesNotMatch((await summary.textContent()) ?? "", /`/);
    await page.click('#picker-create .scenario-item[data-id="errors.tool_error"] label');
    const detail = page.locator('fieldset.params[data-scenario="errors.tool_error"] .summary');
    assert.deepEqual(await detail.locator("code").allTextContents(), ["tools"]);
    assert.doesNotMatch((await detail.textContent()) ?? "", /`/);
  });

  test("every page has no axe violations, light and dark, at 1,400 px and 390 px", async () => {
    const page = await newPage();
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      for (const viewport of [WIDE, PHONE]) {
        await page.setViewportSize(viewport);
        for (const path of ["/", `/sessions/${RETRY_SESSION}`, "/classify"]) {
          await page.goto(`${server.url}${path}`);
          if (path.startsWith("/sessions/")) await page.locator("table.journal tbody tr[data-seq]").first().waitFor();
          assert.deepEqual(await axeViolations(page), [], `${path} at ${viewport.width} px, ${colorScheme}`);
        }
      }
    }
    // The drawer and the change-scenario dialog, opened.
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/sessions/${RETRY_SESSION}`);
    await page.locator("table.journal tbody tr[data-seq]").first().click();
    await page.locator("#drawer").waitFor({ state: "visible" });
    assert.deepEqual(await axeViolations(page), [], "with the drawer open");
    await page.keyboard.press("Escape");
    await page.click("[data-action=change-scenario]");
    await page.locator("#change-dialog").waitFor({ state: "visible" });
    assert.deepEqual(await axeViolations(page), [], "with the change dialog open");
  });

  test("a short run's timeline labels its axis across the width", async () => {
    // One exchange: the shortest run there is, drawn at the timeline's largest scale (it does not fill the width).
    const session = await createSession({ scenario: "baseline" });
    await rawToolsCall(session.mcpUrl, "one", {}, "browser-test");
    const page = await newPage();
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/sessions/${session.id}`);
    await page.locator(".timeline-svg circle.mark").first().waitFor();
    const axis = await page.evaluate(() => {
      const svg = document.querySelector(".timeline-svg") as SVGSVGElement;
      const ticks = [...svg.querySelectorAll(".tick-label")].map((t) => Number(t.getAttribute("x")));
      return { width: svg.width.baseVal.value, lastTick: Math.max(...ticks) };
    });
    assert.ok(axis.lastTick > axis.width * 0.8, `the last tick is at ${axis.lastTick}px of ${axis.width}px`);
    await screenshot(page, "session-short-run", false);
  });
});