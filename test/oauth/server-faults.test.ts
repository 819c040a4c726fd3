import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { createSession, postModern, useServer } from "../helpers/server.ts";
import { MAX_SERVER_RETRIES } from "../../src/checks/auth-server.ts";
import { REDIRECT, authorizeRequest, form, issuerOf, pkce, registerClient } from "./flow.ts";

// auth.server_faults over the real server: the session's authorization server faults one endpoint, and small scripted
// fetch clients meet it, each keeping or breaking one rule of auth-server-retry-bounded.
const server = useServer();
type Json = Record<string, any>;

const checksOf = async (id: string) => ((await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as Json).checks as Json[];
const verdictOf = async (id: string) => (await checksOf(id)).find((c) => c.id === "auth-server-retry-bounded");

/** A client up to its token request: registered, authorized, holding a code; `ask` sends the token request once. */
async function beforeToken(mcpUrl: string) {
  const issuer = issuerOf(mcpUrl);
  const clientId = await registerClient(issuer);
  const { verifier, challenge } = pkce();
  const { query } = await authorizeRequest(issuer, { clientId, challenge, resource: mcpUrl });
  const fields = { grant_type: "authorization_code", code: query!.get("code")!, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: mcpUrl };
  return { ask: () => fetch(`${issuer}/token`, form(fields)) };
}

test("token 503 twice: a client that retries gets its token on the third request and passes auth-server-retry-bounded; its MCP call then works", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "5xx", times: 2 });
  const c = await beforeToken(mcpUrl);
  const statuses: number[] = [];
  let res: Response;
  do {
    res = await c.ask();
    statuses.push(res.status);
  } while (res.status === 503 && statuses.length < 5);
  assert.deepEqual(statuses, [503, 503, 200]);
  const token = ((await res.json()) as Json).access_token as string;
  assert.equal((await postModern(mcpUrl, 1, "tools/list", {}, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  const verdict = await verdictOf(id);
  assert.equal(verdict?.status, "pass", JSON.stringify(verdict));
  assert.match(verdict!.message, /^The client met 2 faulted answers in a row from the token endpoint \(503, 503\) from \S+, then got the real answer \(HTTP 200\)/);
});

test("token 503 on and on: a client that retries past the bound fails auth-server-retry-bounded", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "5xx", status: 502, times: 20 });
  const c = await beforeToken(mcpUrl);
  for (let i = 0; i <= MAX_SERVER_RETRIES; i++) assert.equal((await c.ask()).status, 502);
  const verdict = await verdictOf(id);
  assert.equal(verdict?.status, "fail", JSON.stringify(verdict));
  assert.match(verdict!.message, new RegExp(`met ${MAX_SERVER_RETRIES + 1} faulted answers in a row from the token endpoint \\(502(, 502)+\\).*kept retrying past ${MAX_SERVER_RETRIES}`));
});

test("token 429: a retry sooner than Retry-After fails, one that waits it passes", async () => {
  const fast = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "429", times: 1, retryAfter: 1 });
  const hasty = await beforeToken(fast.mcpUrl);
  const first = await hasty.ask();
  assert.equal(first.status, 429);
  assert.equal(first.headers.get("retry-after"), "1");
  assert.equal((await hasty.ask()).status, 200);
  const failed = await verdictOf(fast.id);
  assert.equal(failed?.status, "fail", JSON.stringify(failed));
  assert.match(failed!.message, /After the 429 from the token endpoint at \S+ \(Retry-After: 1\), the client asked it again \d+ ms later/);

  const slow = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "429", times: 1, retryAfter: 1 });
  const patient = await beforeToken(slow.mcpUrl);
  assert.equal((await patient.ask()).status, 429);
  await sleep(1_000);
  assert.equal((await patient.ask()).status, 200);
  assert.equal((await verdictOf(slow.id))?.status, "pass");
});

test("register 500 once: the client registers again and passes; the fault is on registration only", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "register", fault: "5xx", status: 500, times: 1 });
  const issuer = issuerOf(mcpUrl);
  const register = () => fetch(`${issuer}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
  assert.equal((await register()).status, 500);
  assert.equal((await register()).status, 201);
  const verdict = await verdictOf(id);
  assert.equal(verdict?.status, "pass", JSON.stringify(verdict));
  assert.match(verdict!.message, /from the register endpoint \(500\) from \S+, then got the real answer \(HTTP 201\)/);
});

test("metadata that flaps answers 503 and the document by turns; a client that fetches it again each time passes", async () => {
  const { id, mcpUrl } = await createSession(server, "auth.server_faults", { endpoint: "metadata", fault: "flap", times: 2 });
  const url = `${server.url}/.well-known/oauth-authorization-server${new URL(issuerOf(mcpUrl)).pathname}`;
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await fetch(url)).status);
  assert.deepEqual(statuses, [503, 200, 503, 200, 200]);
  const verdict = await verdictOf(id);
  assert.equal(verdict?.status, "pass", JSON.stringify(verdict));
  assert.match(verdict!.message, /1 faulted answer in a row from the metadata endpoint \(503\)/);
});

test("a slow token endpoint: a client that waits passes; one that sends the token request again while it is pending is warned, and its code is spent twice", async () => {
  const waited = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "slow", delayMs: 400, times: 1 });
  assert.equal((await (await beforeToken(waited.mcpUrl)).ask()).status, 200);
  const pass = await verdictOf(waited.id);
  assert.equal(pass?.status, "pass", JSON.stringify(pass));
  assert.match(pass!.message, /waited for the slow answer of the token endpoint/);

  const hurried = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "slow", delayMs: 400, times: 1 });
  const c = await beforeToken(hurried.mcpUrl);
  const pending = c.ask();
  await sleep(100);
  const second = await c.ask();
  assert.equal(second.status, 200, "the second request is answered at once");
  assert.equal((await pending).status, 400, "the first, answered late, finds its code spent");
  const warned = await verdictOf(hurried.id);
  assert.equal(warned?.status, "warning", JSON.stringify(warned));
  assert.match(warned!.message, /sent the token endpoint a second request while the slow answer to its first/);
});

test("bad params are refused at creation with 400 naming the field", async () => {
  for (const [params, field] of [[{ endpoint: "authorize" }, "params.endpoint"], [{ fault: "teapot" }, "params.fault"], [{ times: 0 }, "params.times"], [{ authorizationServer: "none" }, "params.authorizationServer"]] as const) {
    const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "auth.server_faults", params }) });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.deepEqual(body.error.issues.map((i: Json) => i.path), [field]);
  }
});
