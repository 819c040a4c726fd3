// Sign-in behind a TLS reverse proxy (finding 5 of issue 27), in a real Chromium: the proxy serves https on
// 127.0.0.3 with a certificate this test makes with openssl, forwards to the real `npm start` with the server's own
// Host (as nginx's default proxy_pass does), and FAULTLINE_PUBLIC_URL names the https origin. The browser's Origin is
// then https://127.0.0.3:<port> while the Worker is reached over http: the login, a dashboard write and sign-out must
// all work, and the cookie must be Secure. Run alone: node --test test/browser/login-https.browser.ts
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { launchBrowser, openPage, type Browser } from "./harness.ts";

const ADMIN = "admin-token-https-browser-0123456789";
const HOST = "127.0.0.3";

let server: NpmServer;
let browser: Browser;
let proxy: Server;
let publicUrl: string;
let certDir: string;

/** A self-signed certificate for HOST, valid for a day. */
function makeCertificate(dir: string): { key: Buffer; cert: Buffer } {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", `/CN=${HOST}`, "-addext", `subjectAltName=IP:${HOST}`], { stdio: "ignore" });
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

function startTlsProxy(target: () => URL): Promise<Server> {
  const tls = createServer(makeCertificate(certDir), (req, res) => {
    const upstream = target();
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => tls.listen(0, HOST, () => resolve(tls)));
}

before(async () => {
  certDir = mkdtempSync(join(tmpdir(), "faultline-tls-"));
  // The browser first: without Chromium it throws before a server is started that no after hook could close.
  browser = await launchBrowser({ ignoreHTTPSErrors: true });
  proxy = await startTlsProxy(() => new URL(server.url));
  const address = proxy.address();
  assert.ok(address && typeof address === "object");
  publicUrl = `https://${HOST}:${address.port}`;
  server = await npmStart(undefined, { FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_PUBLIC_URL: publicUrl });
});
after(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  rmSync(certDir, { recursive: true, force: true });
});

test("behind a TLS reverse proxy with an https public URL: a real sign-in reaches the dashboard with a Secure cookie, a write passes, sign-out ends it", async () => {
  const id = `tls-${process.pid}`;
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: JSON.stringify({ id, scenario: "baseline" }) });
  assert.equal(created.status, 201);
  const { page, problems } = await openPage(browser.context);
  const first = await page.goto(`${publicUrl}/`);
  assert.equal(first?.status(), 401);
  await page.fill("#token", ADMIN);
  const [answer] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  assert.equal(answer?.status(), 200, "the login POST's https Origin is the published one, which the server takes as its own");
  assert.equal(new URL(page.url()).origin, publicUrl);
  assert.match((await page.locator(".signed-in").textContent()) ?? "", /Signed in as\s*admin/);
  const cookies = await browser.context.cookies(publicUrl);
  assert.ok(cookies.length > 0 && cookies.every((c) => c.secure && c.httpOnly), JSON.stringify(cookies));

  await page.goto(`${publicUrl}/sessions/${id}`);
  const reset = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${id}/reset`));
  await page.click('[data-action="reset"]');
  assert.equal((await reset).status(), 200, "a dashboard write signed in by cookie passes the Origin rule behind the TLS proxy");

  const [out] = await Promise.all([page.waitForNavigation(), page.click('form.account button[type="submit"]')]);
  assert.equal(out?.status(), 200);
  assert.equal((await page.goto(`${publicUrl}/`))?.status(), 401);
  assert.deepEqual(problems, []);
  await page.close();
});
