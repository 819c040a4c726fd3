import { test } from "node:test";
import assert from "node:assert/strict";
import { REDACTED, redactHeaders, redactNames, redactText } from "../../src/journal/redact.ts";

// Redaction of what the journal stores: the pure module, rule by rule.

test("a real authentication scheme stays visible and the credential is hidden", () => {
  const out = redactHeaders({ Authorization: "Bearer abc.def", "Proxy-Authorization": "Basic dXNlcjpwYXNz", "x-dpop": "DPoP eyJabc" });
  assert.equal(out.authorization, `Bearer ${REDACTED}`);
  assert.equal(out["proxy-authorization"], `Basic ${REDACTED}`);
});

test("the first word of a secret header is not kept as if it were a scheme", () => {
  const out = redactHeaders({ "X-Password": "hunter2 extra", authorization: "hunter2 extra" });
  assert.equal(out["x-password"], REDACTED);
  assert.equal(out.authorization, REDACTED);
});

test("headers named like keys, tokens, secrets, passwords, cookies or subscription keys are redacted", () => {
  const names = ["x-api-key", "api-key", "X-Auth-Token", "x-client-secret", "x-db-password", "cookie", "set-cookie", "Ocp-Apim-Subscription-Key", "x-amz-security-token", "private-key"];
  const out = redactHeaders(Object.fromEntries(names.map((n) => [n, "s3cr3tvalue"])));
  for (const name of names) assert.equal(out[name.toLowerCase()], REDACTED, name);
});

test("values that look like credentials are redacted whatever the header's name", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl";
  const out = redactHeaders({
    "x-custom": "sk-live-ABCDEF123456",
    "x-gh": "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "x-slack": "xoxb-1234567890-abcdefgh",
    "x-aws": "AKIAIOSFODNN7EXAMPLE",
    "x-jwt": jwt,
    "x-plain": "nothing secret here",
  });
  for (const name of ["x-custom", "x-gh", "x-slack", "x-aws", "x-jwt"]) assert.equal(out[name], REDACTED, name);
  assert.equal(out["x-plain"], "nothing secret here");
});

test("Faultline's own OAuth access and refresh tokens and codes are redacted wherever they appear", () => {
  const tokens = { "x-a": "fla_Q2hhbmdlZCBieSBub2JvZHkgYXQgYWxsIHJlYWxseQ", "x-r": "flr_c29tZSByZWZyZXNoIHRva2VuIHZhbHVlIGhlcmU", "x-c": "flc_YW4gYXV0aG9yaXphdGlvbiBjb2RlIGZvciB0ZXN0" };
  const out = redactHeaders(tokens);
  for (const name of Object.keys(tokens)) assert.equal(out[name], REDACTED, name);
  const body = redactText(JSON.stringify({ note: `got ${tokens["x-a"]} back` }));
  assert.ok(!body.includes(tokens["x-a"]), body);
});

test("the protocol's own headers are never redacted", () => {
  const headers = { "mcp-session-id": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl", "last-event-id": "tok-1", "www-authenticate": 'Bearer realm="x"', "mcp-protocol-version": "2026-07-28" };
  assert.deepEqual(redactHeaders(headers), headers);
});

test("JSON fields with secret-like names are redacted at any depth, in requests and results alike", () => {
  const body = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "login", arguments: { user: "ann", password: "hunter2", nested: { apiKey: "k-1", client_secret: 42, list: [{ access_token: "at" }, { refresh_token: "rt" }] }, token: "t" } },
  };
  const out = JSON.parse(redactText(JSON.stringify(body)));
  const args = out.params.arguments;
  assert.equal(args.user, "ann");
  assert.equal(args.password, REDACTED);
  assert.equal(args.token, REDACTED);
  assert.equal(args.nested.apiKey, REDACTED);
  assert.equal(args.nested.client_secret, REDACTED);
  assert.equal(args.nested.list[0].access_token, REDACTED);
  assert.equal(args.nested.list[1].refresh_token, REDACTED);
  assert.equal(out.id, 7);
});

test("credential-looking values inside JSON strings are redacted, the rest of the string kept", () => {
  const out = JSON.parse(redactText(JSON.stringify({ result: { content: [{ type: "text", text: "your key is sk-proj-ABCDEFGH1234 keep it" }] } })));
  assert.equal(out.result.content[0].text, `your key is ${REDACTED} keep it`);
});

test("the protocol's own JSON fields are never redacted", () => {
  const body = { jsonrpc: "2.0", id: "tok", method: "tools/call", params: { name: "x", requestState: "abc", cursor: "c1", _meta: { progressToken: "p1" } }, result: { nextCursor: "n" } };
  const text = JSON.stringify(body);
  assert.equal(redactText(text), text, "unchanged, byte for byte");
});

test("extra names from configuration are redacted in headers and bodies", () => {
  const extraNames = redactNames(" tenant-pin , X_Org_Code");
  assert.equal(redactHeaders({ "tenant-pin": "1234" }, { extraNames })["tenant-pin"], REDACTED);
  assert.equal(JSON.parse(redactText('{"orgCode":"A1","tenantPin":"99"}', { extraNames })).tenantPin, REDACTED);
  assert.equal(JSON.parse(redactText('{"tenantPin":"99"}')).tenantPin, "99", "not without the configuration");
});

test("a body cut by the journal's cap (not valid JSON) is still redacted by pattern", () => {
  const cut = '{"params":{"arguments":{"password":"hunter2","note":"sk-abcdefgh12345","more":"…[truncated by Faultline]';
  const out = redactText(cut);
  assert.doesNotMatch(out, /hunter2/);
  assert.doesNotMatch(out, /sk-abcdefgh12345/);
  assert.match(out, /"password":"\[redacted\]"/);
});

test("SSE data and plain text are redacted by pattern", () => {
  assert.equal(redactText("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"), `token=${REDACTED}`);
});

test("a value nested far deeper than the nesting limit is redacted without overflowing the stack", () => {
  const depth = 50_000;
  const text = `${'{"a":'.repeat(depth)}{"password":"hunter2"}${"}".repeat(depth)}`;
  const out = redactText(text);
  assert.doesNotMatch(out, /hunter2/);
});

// Issue 27, finding 6: a capability URL's secret, wherever it appears in a header value or a body, in every form a
// URL takes there. The session id stays, so a reader still sees which session is named.
const SECRET = "Iruid_b8-eWMbQTUJ6xa_8";

test("a capability secret in a protocol header (a 401's WWW-Authenticate) is hidden and the rest of the header kept", () => {
  const challenge = `Bearer resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource/s/abc-1.${SECRET}/mcp", scope="x"`;
  const out = redactHeaders({ "WWW-Authenticate": challenge, location: `http://h/s/abc-1.${SECRET}/oauth/authorize` });
  assert.equal(out["www-authenticate"], challenge.replace(SECRET, REDACTED));
  assert.equal(out.location, `http://h/s/abc-1.${REDACTED}/oauth/authorize`);
});

test("a capability secret in a body is hidden: plain, percent-encoded and with JSON's escaped slashes", () => {
  const forms = [`/s/abc-1.${SECRET}/mcp`, `%2Fs%2Fabc-1.${SECRET}%2Fmcp`, `%2fs%2fabc-1%2E${SECRET}%2fmcp`, String.raw`\/s\/abc-1.${SECRET}\/mcp`];
  for (const form of forms) {
    const json = redactText(JSON.stringify({ result: { content: [{ type: "text", text: `see http://h${form}` }] } }));
    assert.ok(!json.includes(SECRET), `${form} → ${json}`);
    assert.ok(json.includes(REDACTED), json);
    assert.ok(!redactText(`not json ${form}`).includes(SECRET), form);
  }
});

test("a session URL without a secret, and a path that only looks alike, are left as they are", () => {
  const text = JSON.stringify({ a: "http://h/s/abc-1/mcp", b: "/files/s/report.pdf" });
  assert.equal(redactText(text), text);
  assert.equal(redactHeaders({ link: "</s/abc-1/mcp>" }).link, "</s/abc-1/mcp>");
});
