import { test } from "node:test";
import assert from "node:assert/strict";
import { outboundAllow, workerdConfig, type ServeConfig } from "../../scripts/workerd-config.ts";

// `npm run serve` lets the Worker reach exactly the addresses FAULTLINE_UPSTREAMS needs, and nothing else.

const BASE: ServeConfig = {
  modules: ["worker.js"],
  compatibilityDate: "2026-11-01",
  compatibilityFlags: ["nodejs_compat"],
  vars: {},
  durableObjects: [{ binding: "SESSIONS", className: "SessionObject" }],
  workerName: "faultline",
  durableObjectDir: "/tmp/do",
  address: "127.0.0.1:8787",
};

const networkLine = (config: ServeConfig) => workerdConfig(config).split("\n").find((line) => line.includes('(name = "upstreams", network'));

test("unset, the list allows loopback upstreams when serving on loopback (workerd's \"local\" class) and nothing when serving on all interfaces", () => {
  assert.deepEqual(outboundAllow(undefined, "127.0.0.1:8787"), { allow: ["local"], tls: false });
  assert.deepEqual(outboundAllow("", "[::1]:8787"), { allow: ["local"], tls: false });
  assert.deepEqual(outboundAllow(undefined, "0.0.0.0:8787"), { allow: [], tls: false });
  assert.equal(networkLine(BASE), '    (name = "upstreams", network = (allow = ["local"])),');
  assert.equal(networkLine({ ...BASE, address: "0.0.0.0:8787" }), '    (name = "upstreams", network = (allow = [])),');
});

test("listed origins open only their address class: an IP origin its one address, a host name public addresses (with TLS for https), none nothing", () => {
  assert.deepEqual(outboundAllow("http://10.0.0.7:3000", "0.0.0.0:8787"), { allow: ["10.0.0.7/32"], tls: false });
  assert.deepEqual(outboundAllow("https://mcp.example.com, http://localhost:3000", "0.0.0.0:8787"), { allow: ["public", "local"], tls: true });
  assert.deepEqual(outboundAllow("none", "127.0.0.1:8787"), { allow: [], tls: false });
  assert.equal(
    networkLine({ ...BASE, vars: { FAULTLINE_UPSTREAMS: "https://mcp.example.com" } }),
    '    (name = "upstreams", network = (allow = ["public"], tlsOptions = (trustBrowserCas = true))),',
  );
});
