// Sign-in, sign-out and "signed in as" in a real Chromium against the real `npm start` with the admin token
// (finding 5 of issue 27): directly, and behind a reverse proxy on a second loopback address that
// FAULTLINE_PUBLIC_URL names. The proxy here is plain http on 127.0.0.2; the https one (a TLS proxy with a certificate
// made at test time, the Secure cookie) is test/browser/login-https.browser.ts. Run alone: node --test test/browser/login.browser.ts
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { Page } from "playwright-core";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { axeViolations, launchBrowser, screenshot, usePages, type Browser } from "./harness.ts";

const ADMIN = "admin-token-browser-0123456789";
const VIEWER = "viewer-token-browser-0123456789";

let server: NpmServer;
let browser: Browser;
let proxy: Server;
let publicUrl: string;

/**
 * A reverse proxy as nginx's default `proxy_pass` is: it forwards every request to the server with the server's own
 * Host, so the Worker sees http://127.0.0.1:<port> while the browser is on http://127.0.0.2:<proxy port>.
 */
function startProxy(target: () => URL): Promise<Server> {
  const proxyServer = createServer((req, res) => {
    const upstream = target();
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => proxyServer.listen(0, "127.0.0.2", () => resolve(proxyServer)));
}

before(async () => {
  proxy = await startProxy(() => new URL(server.url));
  const address = proxy.address();
  assert.ok(address && typeof address === "object");
  publicUrl = `http://127.0.0.2:${address.port}`;
  // The browser first: without Chromium it throws before a server is started that no after hook could close.
  browser = await launchBrowser();
  server = await npmStart(undefined, { FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_VIEWER_TOKEN: VIEWER, FAULTLINE_PUBLIC_URL: publicUrl });
});
after(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => proxy?.close(resolve));
});
// Registered before the cookie reset below: the pages are checked and closed first, then the sign-in is forgotten.
const newPage = usePages(() => browser.context);
afterEach(() => browser.context.clearCookies());


/** Opens the dashboard at `base`, which answers with the login form, and submits `token` in it as a user would. */
async function signIn(page: Page, base: string, token: string) {
  const first = await page.goto(`${base}/`);
  assert.equal(first?.status(), 401);
  await page.fill("#token", token);
  const [answer] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  return answer;
}

test("a real form submit with the admin token reaches the dashboard, signed in as admin, with an HttpOnly SameSite=Strict cookie", async () => {
  const page = await newPage();
  const answer = await signIn(page, server.url, ADMIN);
  assert.equal(answer?.status(), 200);
  assert.equal(new URL(page.url()).pathname, "/");
  assert.equal(await page.title(), "Sessions · Faultline");
  assert.equal((await page.locator(".signed-in").textContent())?.replace(/\s+/g, " ").trim(), "Signed in as admin");
  const [cookie] = await browser.context.cookies(server.url);
  assert.equal(cookie?.name, "faultline_login");
  assert.equal(cookie?.httpOnly, true);
  assert.equal(cookie?.sameSite, "Strict");
  assert.equal(cookie?.secure, false, "plain http: a Secure cookie would never be sent back");
  assert.deepEqual(await axeViolations(page), [], "the top bar's mark and sign-out control pass axe");
  await screenshot(page, "login-signed-in");
});

test("the login page's token field is styled as the dashboard's fields and says where the token comes from, at 1,400 and 390 px", async () => {
  const page = await newPage();
  for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    assert.equal((await page.goto(`${server.url}/`))?.status(), 401);
    const look = await page.evaluate(() => {
      const input = document.querySelector("#token") as HTMLInputElement;
      const style = getComputedStyle(input);
      const box = input.getBoundingClientRect();
      const field = input.closest(".field")!.getBoundingClientRect();
      const hint = document.getElementById(input.getAttribute("aria-describedby") ?? "");
      return {
        radius: parseFloat(style.borderTopLeftRadius) > 0,
        padded: parseFloat(style.paddingLeft) >= 6,
        fillsField: Math.abs(box.width - field.width) <= 1,
        inView: box.left >= 0 && box.right <= window.innerWidth,
        hint: hint?.textContent ?? "",
      };
    });
    assert.deepEqual({ ...look, hint: undefined }, { radius: true, padded: true, fillsField: true, inView: true, hint: undefined }, `at ${viewport.width} px`);
    assert.match(look.hint, /FAULTLINE_ADMIN_TOKEN.*FAULTLINE_VIEWER_TOKEN/);
    assert.deepEqual(await axeViolations(page), [], `the login page at ${viewport.width} px`);
    await screenshot(page, `login-${viewport.width}`);
  }
});

test("a wrong token shows the login page again saying so, not raw JSON", async () => {
  const page = await newPage();
  const answer = await signIn(page, server.url, "not-the-token-0123456789");
  assert.equal(answer?.status(), 401);
  assert.match(answer?.headers()["content-type"] ?? "", /^text\/html/);
  assert.equal((await page.locator(".field-error").textContent())?.trim(), "That token is not valid");
  assert.equal(await page.locator("#token").count(), 1, "the form is there to try again");
  assert.deepEqual(await browser.context.cookies(server.url), []);
  await screenshot(page, "login-wrong-token");
});

test("sign-out from the top bar ends the sign-in: the dashboard asks for the token again", async () => {
  const page = await newPage();
  await signIn(page, server.url, VIEWER);
  assert.match((await page.locator(".signed-in").textContent()) ?? "", /Signed in as\s*viewer/);
  const [answer] = await Promise.all([page.waitForNavigation(), page.click('form.account button[type="submit"]')]);
  assert.equal(answer?.status(), 200);
  assert.equal(new URL(page.url()).pathname, "/login");
  assert.equal(await page.locator(".signed-in").count(), 0);
  const again = await page.goto(`${server.url}/`);
  assert.equal(again?.status(), 401, "signed out");
});

test("behind a reverse proxy on the published origin: sign-in, a reset and an MCP session expiry from the session page, and sign-out all work", async () => {
  const id = `proxied-${process.pid}`;
  const created = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify({ id, scenario: "baseline" }),
  });
  assert.equal(created.status, 201);
  const page = await newPage();
  const answer = await signIn(page, publicUrl, ADMIN);
  assert.equal(answer?.status(), 200, "the login POST's Origin is the published one, which the server takes as its own");
  assert.equal(new URL(page.url()).origin, publicUrl);
  assert.match((await page.locator(".signed-in").textContent()) ?? "", /Signed in as\s*admin/);

  await page.goto(`${publicUrl}/sessions/${id}`);
  const reset = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${id}/reset`));
  await page.click('[data-action="reset"]');
  assert.equal((await reset).status(), 200, "a dashboard write signed in by cookie passes the Origin rule behind the proxy");
  await page.locator("#toast", { hasText: "reset" }).waitFor();
  const expired = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${id}/expire-mcp-sessions`));
  await page.click('[data-action="expire-mcp-sessions"]');
  assert.equal((await expired).status(), 200, "expiring the MCP sessions passes the same Origin rule");
  await page.locator("#toast", { hasText: "MCP sessions expired" }).waitFor();
  // "Try it" posts to the session's capability MCP URL from the published origin: its Origin passes too.
  await page.click('[data-action="try-it"]');
  await page.locator("[data-role=try-it-entry]").waitFor();
  assert.equal(await page.locator("[data-role=try-it-status]").textContent(), "HTTP 200");

  const [out] = await Promise.all([page.waitForNavigation(), page.click('form.account button[type="submit"]')]);
  assert.equal(out?.status(), 200);
  assert.equal(new URL(page.url()).pathname, "/login");
  assert.equal((await page.goto(`${publicUrl}/`))?.status(), 401);
});
