import { test } from "node:test";
import assert from "node:assert/strict";
import { capnpText, workerdConfig, type ServeConfig } from "../../scripts/workerd-config.ts";

const BASE: ServeConfig = {
  modules: ["index.js"],
  compatibilityDate: "2026-11-01",
  compatibilityFlags: ["nodejs_compat"],
  vars: { ALLOWED_HOSTS: "", JOURNAL_BODY_CAP: "65536" },
  durableObjects: [
    { binding: "SESSIONS", className: "SessionObject" },
    { binding: "INDEX", className: "SessionIndex" },
  ],
  workerName: "faultline",
  durableObjectDir: "/var/lib/faultline/v3/do",
  address: "127.0.0.1:8787",
};

/** The config's lines without comments, so that a rule written only in a comment does not count. */
const code = (config: ServeConfig) =>
  workerdConfig(config)
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"));

test("capnpText escapes quotes, backslashes and control characters and keeps UTF-8 as is", () => {
  assert.equal(capnpText('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(capnpText("line\nnext\ttab\x7f"), '"line\\x0anext\\x09tab\\x7f"');
  assert.equal(capnpText("café ✓"), '"café ✓"');
});

test("with no upstream allowed (FAULTLINE_UPSTREAMS=none), the served Worker's only outbound service is a network that allows no address", () => {
  const lines = code({ ...BASE, vars: { ...BASE.vars, FAULTLINE_UPSTREAMS: "none" } });
  assert.ok(lines.includes('  globalOutbound = "upstreams",'), lines.join("\n"));
  assert.ok(lines.includes('    (name = "upstreams", network = (allow = [])),'), lines.join("\n"));
  // No other network or external service is declared, so nothing else can be bound to reach out.
  assert.equal(lines.filter((line) => /network =|external =/.test(line)).length, 1);
});

test("Durable Objects use wrangler dev's keys and folder, so npm start and npm run serve open the same objects", () => {
  const lines = code(BASE);
  assert.ok(lines.includes('    (className = "SessionObject", uniqueKey = "faultline-SessionObject", enableSql = true),'));
  assert.ok(lines.includes('    (className = "SessionIndex", uniqueKey = "faultline-SessionIndex", enableSql = true),'));
  assert.ok(lines.some((line) => line.includes('disk = (path = "/var/lib/faultline/v3/do", writable = true)')));
  assert.ok(lines.includes('  durableObjectStorage = (localDisk = "durable-object-storage"),'));
});

test("every var becomes a text binding, quoted so that a value cannot break out of the config", () => {
  const lines = code({ ...BASE, vars: { ALLOWED_HOSTS: 'a"), (name = "X' } });
  assert.ok(lines.includes('    (name = "ALLOWED_HOSTS", text = "a\\"), (name = \\"X"),'), lines.join("\n"));
  assert.ok(lines.includes('    (name = "SESSIONS", durableObjectNamespace = "SessionObject"),'));
});

test("the entry module comes first and each module kind follows its extension", () => {
  const lines = code({ ...BASE, modules: ["index.js", "a.wasm", "b.txt", "c.bin"] });
  const modules = lines.filter((line) => line.includes("embed"));
  assert.deepEqual(modules, [
    '    (name = "index.js", esModule = embed "index.js"),',
    '    (name = "a.wasm", wasm = embed "a.wasm"),',
    '    (name = "b.txt", text = embed "b.txt"),',
    '    (name = "c.bin", data = embed "c.bin"),',
  ]);
});

test("the socket listens on the address given", () => {
  assert.ok(code({ ...BASE, address: "[::1]:9000" }).includes('    (name = "http", address = "[::1]:9000", http = (), service = "faultline"),'));
});
