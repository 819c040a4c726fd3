import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { app } from "../helpers/app.ts";
import { CLIENTS_MAX, FAILS_ALL_CLIENTS, FAILS_PER_CLIENT, rememberedClients, resetThrottle, throttledFor, recordFailure, WINDOW_MS } from "../../src/access/throttle.ts";

// The throttle on token guesses (finding 9 of issue 27): over the app in process, and on the module for the bounds.

const ADMIN = "admin-token-throttle-0123456789";
const env = { FAULTLINE_ADMIN_TOKEN: ADMIN };
const ORIGIN = "http://127.0.0.1";

beforeEach(() => resetThrottle());

const bearer = (token: string, client: string) => app.request(`${ORIGIN}/api/sessions`, { headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": client } }, env);
const login = (token: string, client: string, accept = "text/html") =>
  app.request(`${ORIGIN}/login`, {
    method: "POST",
    headers: { origin: ORIGIN, accept, "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": client },
    body: new URLSearchParams({ token }).toString(),
  }, env);

test("after 10 wrong Bearer tokens a client gets 429 with Retry-After, even for the right token; another client does not", async () => {
  assert.equal(FAILS_PER_CLIENT, 10);
  for (let i = 0; i < FAILS_PER_CLIENT; i++) assert.equal((await bearer(`wrong-${i}-0123456789abcdef`, "198.51.100.1")).status, 401, `guess ${i + 1}`);
  const throttled = await bearer(ADMIN, "198.51.100.1");
  assert.equal(throttled.status, 429);
  const wait = Number(throttled.headers.get("retry-after"));
  assert.ok(wait >= 1 && wait <= WINDOW_MS / 1000, `Retry-After ${wait}`);
  const body = (await throttled.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, "too_many_attempts");
  assert.match(body.error.message, /try again in \d+ s/);
  assert.equal((await bearer(`wrong-0123456789abcdef`, "198.51.100.2")).status, 401, "another client still guesses (and is told it is wrong)");
});

test("after 10 wrong tokens in the login form a browser gets the form again with 429 and Retry-After", async () => {
  for (let i = 0; i < FAILS_PER_CLIENT; i++) assert.equal((await login(`wrong-${i}-0123456789abcdef`, "198.51.100.3")).status, 401);
  const res = await login(ADMIN, "198.51.100.3");
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get("retry-after")) >= 1);
  assert.match(await res.text(), /Too many wrong tokens from this client: try again in \d+ s/);
  assert.equal(res.headers.get("set-cookie"), null, "the right token is not even compared");
  const json = await login(ADMIN, "198.51.100.3", "application/json");
  assert.equal(json.status, 429);
});

test("the login form and Bearer guesses count together", async () => {
  for (let i = 0; i < FAILS_PER_CLIENT / 2; i++) await login(`wrong-${i}-0123456789abcdef`, "198.51.100.4");
  for (let i = 0; i < FAILS_PER_CLIENT / 2; i++) await bearer(`wrong-${i}-0123456789abcdef`, "198.51.100.4");
  assert.equal((await bearer(ADMIN, "198.51.100.4")).status, 429);
});

test("the right token does not count: a client that signs in 20 times is never throttled", async () => {
  for (let i = 0; i < 2 * FAILS_PER_CLIENT; i++) assert.notEqual((await login(ADMIN, "198.51.100.5")).status, 429);
});

test("all clients together get at most 100 wrong guesses a window, however many addresses they claim", async () => {
  assert.equal(FAILS_ALL_CLIENTS, 100);
  const now = 1_000_000;
  for (let i = 0; i < FAILS_ALL_CLIENTS; i++) {
    assert.equal(throttledFor(`203.0.113.${i}`, now), undefined);
    recordFailure(`203.0.113.${i}`, now);
  }
  assert.ok(throttledFor("203.0.113.250", now + 1) !== undefined, "a new address is throttled too");
  assert.equal(throttledFor("203.0.113.250", now + WINDOW_MS), undefined, "until the window ends");
});

test("a window ends: the client may guess again after WINDOW_MS", () => {
  const now = 5_000_000;
  for (let i = 0; i < FAILS_PER_CLIENT; i++) recordFailure("client-a", now);
  assert.equal(throttledFor("client-a", now + 1), Math.ceil((WINDOW_MS - 1) / 1000));
  assert.equal(throttledFor("client-a", now + WINDOW_MS), undefined);
});

test("memory stays bounded: 3,000 guessing clients are remembered as at most CLIENTS_MAX + 1 buckets", () => {
  assert.equal(CLIENTS_MAX, 1_000);
  const now = 9_000_000;
  for (let i = 0; i < 3 * CLIENTS_MAX; i++) {
    throttledFor(`client-${i}`, now);
    recordFailure(`client-${i}`, now + WINDOW_MS * Math.floor(i / 10));
  }
  assert.ok(rememberedClients() <= CLIENTS_MAX + 1, `${rememberedClients()} remembered`);
});
