import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { npmRun, type NpmServer } from "../helpers/npm-start.ts";

// The official SDK v1 and v2 clients' scenario tests (test/clients/), run unchanged against `npm run serve`:
// useServer() in those files takes the server from FAULTLINE_TEST_URL instead of starting one in process.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let server: NpmServer;

before(async () => {
  server = await npmRun("serve");
});

after(() => server?.close());

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, ...rest } = env;
  return rest;
}

/** Runs test files in a child `node --test` against the served URL; returns its exit code and output. */
function runAgainstServe(files: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--test", "--test-concurrency=1", ...files], {
      cwd: ROOT,
      // Without NODE_TEST_CONTEXT the child is a runner of its own, not a subprocess reporting to this one.
      env: { ...withoutTestContext(process.env), FAULTLINE_TEST_URL: server.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

function count(output: string, key: "pass" | "fail"): number {
  return Number(new RegExp(`^# ${key} (\\d+)$`, "m").exec(output)?.[1] ?? NaN);
}

for (const file of ["test/clients/sdk-v1.test.ts", "test/clients/sdk-v2.test.ts"]) {
  test(`the scenario tests of ${file} pass against npm run serve`, async () => {
    const { code, output } = await runAgainstServe([file]);
    assert.equal(count(output, "fail"), 0, output);
    assert.ok(count(output, "pass") > 0, output);
    assert.equal(code, 0, output);
  });
}
