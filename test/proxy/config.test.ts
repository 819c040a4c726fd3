import { test } from "node:test";
import assert from "node:assert/strict";
import { allowedUpstreams, refusedUpstream, shownUpstreamUrl } from "../../src/proxy/config.ts";
import { proxyRefusal } from "../../src/proxy/support.ts";
import { findScenario, SCENARIOS } from "../../scenarios/index.ts";

const LOCAL = new URL("http://127.0.0.1:8787/api/sessions");
const PUBLIC = new URL("https://faultline.example.com/api/sessions");

test("with FAULTLINE_UPSTREAMS unset, a server reached on loopback allows loopback upstreams and one reached by a public name allows none", () => {
  assert.deepEqual(allowedUpstreams(undefined, LOCAL), ["loopback"]);
  assert.deepEqual(allowedUpstreams("", LOCAL), ["loopback"]);
  assert.deepEqual(allowedUpstreams(undefined, PUBLIC), []);
  assert.equal(refusedUpstream("http://127.0.0.1:3000/mcp", allowedUpstreams(undefined, LOCAL)), undefined);
  assert.equal(refusedUpstream("http://localhost:9/mcp", allowedUpstreams(undefined, LOCAL)), undefined);
  assert.equal(refusedUpstream("http://127.0.0.1:3000/mcp", allowedUpstreams(undefined, PUBLIC))?.rule, "upstream_not_allowed");
});

test("a listed origin allows that origin only: another port, scheme or host is refused", () => {
  const allowed = allowedUpstreams("https://mcp.example.com, http://127.0.0.1:3000/", PUBLIC);
  assert.equal(refusedUpstream("https://mcp.example.com/mcp", allowed), undefined);
  assert.equal(refusedUpstream("http://127.0.0.1:3000/deep/mcp?x=1", allowed), undefined);
  for (const url of ["http://mcp.example.com/mcp", "https://mcp.example.com:8443/mcp", "https://evil.example.com/mcp", "http://127.0.0.1:3001/mcp", "http://localhost:3000/mcp"]) {
    assert.equal(refusedUpstream(url, allowed)?.rule, "upstream_not_allowed", url);
  }
});

test("`none` allows nothing, even on loopback", () => {
  assert.deepEqual(allowedUpstreams("none", LOCAL), []);
  assert.equal(refusedUpstream("http://127.0.0.1:3000/mcp", allowedUpstreams("none", LOCAL))?.rule, "upstream_not_allowed");
});

test("an upstream that is not an http(s) URL, or carries credentials or a fragment, is refused whatever the list says", () => {
  const allowed = ["loopback"];
  assert.equal(refusedUpstream("127.0.0.1:3000/mcp", allowed)?.rule, "url");
  assert.equal(refusedUpstream("file:///etc/passwd", allowed)?.rule, "url");
  assert.equal(refusedUpstream("ws://127.0.0.1:3000/mcp", allowed)?.rule, "url");
  assert.equal(refusedUpstream("http://user:secret@127.0.0.1:3000/mcp", allowed)?.rule, "no_credentials");
  assert.equal(refusedUpstream("http://127.0.0.1:3000/mcp#x", allowed)?.rule, "no_fragment");
});

test("scenarios that serve tools or methods of their own, or count Faultline's own MCP sessions, cannot run in front of an upstream; the fault-only ones can", () => {
  const refused = SCENARIOS.filter((s) => proxyRefusal(s) !== undefined).map((s) => s.id);
  for (const id of ["elicitation.approval", "conformance", "compat.sdk_v2", "pagination.bad_cursor", "catalog.mutation", "session.expire_after"]) {
    const scenario = findScenario(id);
    assert.ok(scenario, id);
    assert.ok(refused.includes(id), id);
  }
  for (const id of ["baseline", "errors.http_status_sequence", "errors.jsonrpc_error", "streams.cut_before_response", "results.content_not_array", "timeouts.slow_drip"]) {
    assert.equal(proxyRefusal(findScenario(id)!), undefined, id);
  }
});

test("an upstream URL is shown with each credential-named query value redacted, and left as it is otherwise", () => {
  assert.equal(shownUpstreamUrl("https://mcp.example.com/mcp?api_key=s3cr3t&region=eu"), "https://mcp.example.com/mcp?api_key=%5Bredacted%5D&region=eu");
  assert.equal(shownUpstreamUrl("https://mcp.example.com/mcp?access_token=a&access_token=b"), "https://mcp.example.com/mcp?access_token=%5Bredacted%5D");
  assert.equal(shownUpstreamUrl("http://127.0.0.1:3000/mcp?region=eu"), "http://127.0.0.1:3000/mcp?region=eu");
  assert.equal(shownUpstreamUrl("not a url"), "not a url");
});
