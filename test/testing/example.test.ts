/**
 * faultline/testing as a user's test suite uses it: docs/testing.md's example file, run under node:test on the
 * system node (Node 20 on the project's machines), importing "faultline/testing" through a node_modules folder
 * outside the checkout, from the package as `npm pack` builds it.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPackage } from "../../bin/build-package.ts";
import { systemNode } from "../cli/built-cli.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MARKER = "<!-- not-run: test/testing/example.test.ts runs this file under node:test on the system Node -->";

/** The ```js block after the marker in docs/testing.md. */
function example(): string {
  const page = readFileSync(join(ROOT, "docs", "testing.md"), "utf8");
  const at = page.indexOf(MARKER);
  assert.notEqual(at, -1, "docs/testing.md has the example's marker");
  const block = /^```js\n([\s\S]*?)^```$/m.exec(page.slice(at));
  assert.ok(block, "a ```js block follows the marker");
  return block[1]!;
}

/** Runs `source` as a test file in a folder of its own that has only faultline in node_modules. */
function runUnderNodeTest(t: { after(fn: () => void): void }, source: string): Promise<{ code: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), "faultline-example-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules", "faultline"));
  writeFileSync(join(dir, "retries.test.mjs"), source);
  // NODE_TEST_CONTEXT would make the child a part of this run, which then skips its files.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(systemNode(), ["--test", "retries.test.mjs"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, out })));
}

before(() => buildPackage());

test("docs/testing.md's example passes under node:test with a client that waits as asked", async (t) => {
  const { code, out } = await runUnderNodeTest(t, example());
  assert.equal(code, 0, out);
  assert.match(out, /^# pass 1$/m);
  assert.match(out, /^# fail 0$/m);
});

test("the same example fails with the check's message and evidence when the client does not wait", async (t) => {
  const wait = 'await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after") ?? "1") * 1000));';
  const source = example();
  assert.ok(source.includes(wait), "the example's client waits with this line");
  const { code, out } = await runUnderNodeTest(t, source.replace(wait, ""));
  assert.equal(code, 1, out);
  assert.match(out, /Faultline checks failed:\n\s+http-retry-after-honoured \(fail\): Retried \d+ ms after a 503 to tools\/call echo that asked for Retry-After: 1 s.*\[evidence: #1, #2\]/);
});
