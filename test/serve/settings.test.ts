import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, loadProject, readSecrets, readSettings, readyLine, refusedHost } from "../../scripts/settings.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

test("without HOST, PORT or FAULTLINE_STATE_DIR, the server listens on 127.0.0.1:8787 and keeps state in .wrangler/state", () => {
  assert.deepEqual(readSettings({}, "/repo"), { host: "127.0.0.1", port: 8787, stateDir: "/repo/.wrangler/state", publicUrl: undefined });
  assert.equal(readSettings({ FAULTLINE_STATE_DIR: "/var/lib/faultline" }, "/repo").stateDir, "/var/lib/faultline");
  assert.equal(readSettings({ FAULTLINE_STATE_DIR: "state" }, "/repo").stateDir, "/repo/state");
});

test("a PORT that is not a whole number from 0 to 65535 is refused with a message naming PORT", () => {
  for (const port of ["http", "-1", "65536", "80.5", " 80"]) assert.throws(() => readSettings({ PORT: port }, "/repo"), /^Error: PORT must be a whole number from 0 to 65535/);
  assert.equal(readSettings({ PORT: "0" }, "/repo").port, 0);
});

test("FAULTLINE_PUBLIC_URL must be an http(s) origin; its trailing slash is dropped", () => {
  assert.equal(readSettings({ FAULTLINE_PUBLIC_URL: "https://faultline.example.com/" }, "/repo").publicUrl, "https://faultline.example.com");
  assert.equal(readSettings({ FAULTLINE_PUBLIC_URL: "http://10.0.0.5:8080" }, "/repo").publicUrl, "http://10.0.0.5:8080");
  for (const bad of ["faultline.example.com", "ftp://example.com", "https://example.com/faultline", "https://example.com/?a=1", "https://u:p@example.com"]) {
    assert.throws(() => readSettings({ FAULTLINE_PUBLIC_URL: bad }, "/repo"), /^Error: FAULTLINE_PUBLIC_URL must be/, bad);
  }
});

test("the printed base URL is the public URL when set, else the address listened on, with a wildcard shown as loopback", async () => {
  assert.equal(baseUrl({ host: "127.0.0.1", publicUrl: "https://f.example" }, 8787), "https://f.example");
  assert.equal(baseUrl({ host: "127.0.0.1", publicUrl: undefined }, 8787), "http://127.0.0.1:8787");
  assert.equal(baseUrl({ host: "0.0.0.0", publicUrl: undefined }, 80), "http://127.0.0.1:80");
  assert.equal(baseUrl({ host: "::1", publicUrl: undefined }, 80), "http://[::1]:80");
  assert.equal(await readyLine("npm run serve", "http://h:1"), "Faultline (npm run serve) is ready. Dashboard: http://h:1/  MCP endpoint: http://h:1/mcp");
});

test("wrangler.toml's vars apply, and an environment variable of the same name overrides one", () => {
  const plain = loadProject(ROOT, {});
  assert.equal(plain.vars.JOURNAL_BODY_CAP, "65536");
  assert.equal(plain.vars.FAULTLINE_PUBLIC_URL, "");
  const overridden = loadProject(ROOT, { JOURNAL_BODY_CAP: "1024", FAULTLINE_PUBLIC_URL: "https://f.example/" });
  assert.equal(overridden.vars.JOURNAL_BODY_CAP, "1024");
  assert.equal(overridden.vars.FAULTLINE_PUBLIC_URL, "https://f.example");
  assert.equal(overridden.settings.publicUrl, "https://f.example");
});

test("with FAULTLINE_ADMIN_TOKEN set, the start-up line shows the default session's capability URL, not /mcp", async () => {
  const line = await readyLine("npm start", "http://h:1", { FAULTLINE_ADMIN_TOKEN: "t0ken-for-the-line" });
  const url = line.match(/MCP endpoint: (\S+)$/)?.[1];
  assert.match(url ?? "", /^http:\/\/h:1\/s\/default\.[A-Za-z0-9_-]{22}\/mcp$/, line);
  const other = await readyLine("npm start", "http://h:1", { FAULTLINE_ADMIN_TOKEN: "another-t0ken" });
  assert.notEqual(other, line, "the secret depends on the token");
});

test("a HOST beyond loopback is refused without FAULTLINE_ADMIN_TOKEN, with a message naming it; loopback or a token passes", () => {
  for (const host of ["0.0.0.0", "::", "192.168.1.20", "faultline.example.com"]) {
    assert.match(refusedHost(host, {}) ?? "", /FAULTLINE_ADMIN_TOKEN/, host);
    assert.equal(refusedHost(host, { FAULTLINE_ADMIN_TOKEN: "t" }), undefined, host);
  }
  for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"]) assert.equal(refusedHost(host, {}), undefined, host);
});

test("the secrets come from the environment, else from .dev.vars, as wrangler dev reads them", () => {
  const root = mkdtempSync(join(tmpdir(), "faultline-secrets-"));
  try {
    assert.deepEqual(readSecrets(root, {}), {});
    writeFileSync(join(root, ".dev.vars"), 'FAULTLINE_ADMIN_TOKEN="from-file"\nFAULTLINE_URL_KEY=key-from-file\nOTHER=x\n');
    assert.deepEqual(readSecrets(root, {}), { FAULTLINE_ADMIN_TOKEN: "from-file", FAULTLINE_URL_KEY: "key-from-file" });
    assert.deepEqual(readSecrets(root, { FAULTLINE_ADMIN_TOKEN: "from-env", FAULTLINE_VIEWER_TOKEN: "v" }), {
      FAULTLINE_ADMIN_TOKEN: "from-env",
      FAULTLINE_VIEWER_TOKEN: "v",
      FAULTLINE_URL_KEY: "key-from-file",
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
