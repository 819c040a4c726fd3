import { test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../helpers/app.ts";
import { MIN_TOKEN_CHARS, weakToken } from "../../src/access/token-rules.ts";

// The minimum token length (finding 9 of issue 27). npm start's refusal is in test/e2e/start-hygiene.test.ts.

const SHORT = "x".repeat(MIN_TOKEN_CHARS - 1);
const LONG = "y".repeat(MIN_TOKEN_CHARS);

test("a token shorter than 16 characters is named with its length and the rule; 16 is enough", () => {
  assert.equal(MIN_TOKEN_CHARS, 16);
  assert.equal(weakToken({ FAULTLINE_ADMIN_TOKEN: SHORT }), "FAULTLINE_ADMIN_TOKEN is 15 characters long; it must be at least 16 (use a random one: openssl rand -hex 32)");
  assert.match(weakToken({ FAULTLINE_ADMIN_TOKEN: LONG, FAULTLINE_VIEWER_TOKEN: "v" }) ?? "", /^FAULTLINE_VIEWER_TOKEN is 1 characters long/);
  assert.equal(weakToken({ FAULTLINE_ADMIN_TOKEN: LONG, FAULTLINE_VIEWER_TOKEN: `${LONG}z` }), undefined);
  assert.equal(weakToken({}), undefined, "no token, nothing to refuse (the loopback rule covers that case)");
});

test("the Worker with a short admin token keeps the API and the dashboard off (503 naming the rule), even for the right token", async () => {
  const env = { FAULTLINE_ADMIN_TOKEN: SHORT };
  const api = await app.request("http://127.0.0.1/api/sessions", { headers: { authorization: `Bearer ${SHORT}` } }, env);
  assert.equal(api.status, 503);
  const body = (await api.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, "weak_token");
  assert.match(body.error.message, /FAULTLINE_ADMIN_TOKEN is 15 characters long; it must be at least 16/);
  const page = await app.request("http://127.0.0.1/", { headers: { accept: "text/html" } }, env);
  assert.equal(page.status, 503);
  assert.match(await page.text(), /at least 16/);
  const login = await app.request("http://127.0.0.1/login", { method: "POST", headers: { origin: "http://127.0.0.1", "content-type": "application/x-www-form-urlencoded" }, body: `token=${SHORT}` }, env);
  assert.equal(login.status, 503, "sign-in with it is off too");
});

test("a short viewer token turns the management surface off as well", async () => {
  const env = { FAULTLINE_ADMIN_TOKEN: LONG, FAULTLINE_VIEWER_TOKEN: "viewer" };
  const res = await app.request("http://127.0.0.1/api/sessions", { headers: { authorization: `Bearer ${LONG}` } }, env);
  assert.equal(res.status, 503);
});
