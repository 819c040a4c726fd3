// The session page of a proxied session in a real browser: it names the upstream and marks proxied exchanges.
// Run with `node --test test/proxy/dashboard.browser.ts` (Chromium, as test/browser/).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { useServer } from "../helpers/server.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { axeViolations, launchBrowser, openPage, type Browser } from "../browser/harness.ts";
import { call, createProxied } from "./helpers.ts";

const server = useServer();
let upstream: Upstream;
let browser: Browser;
before(async () => {
  // The browser first: without Chromium it throws before an upstream is started that no after hook could close.
  browser = await launchBrowser();
  upstream = await startUpstream();
});
after(async () => {
  await browser?.close();
  await upstream?.close();
});

test("a proxied session's page shows its upstream and marks each proxied exchange with its mode", async () => {
  const { json } = await createProxied(server.url, { scenario: "errors.http_status_sequence", params: { statusCodes: [503, 200], countMethods: ["tools/call"] }, upstream: upstream.url });
  for (const id of [1, 2]) await (await call(json.mcpUrl, id, "lookup", { key: "k" })).text();
  const { page, problems } = await openPage(browser.context);
  await page.goto(`${server.url}/sessions/${json.id}`);
  assert.equal(await page.locator("[data-role=upstream] code").textContent(), upstream.url);
  assert.match((await page.locator("[data-role=upstream]").textContent()) ?? "", /Authorization is not forwarded/);
  await page.waitForFunction(() => document.querySelectorAll("table.journal tbody tr[data-seq]").length >= 2);
  const marks = await page.locator("table.journal tbody tr[data-seq] .tag.proxied").evaluateAll((tags) => tags.map((t) => t.getAttribute("title")));
  assert.deepEqual(marks.sort(), [`forward: ${upstream.url}`, `replace: ${upstream.url}`]);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
