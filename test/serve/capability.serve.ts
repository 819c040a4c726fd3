import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { npmRun, npmStart, type NpmServer } from "../helpers/npm-start.ts";

// `npm run serve` with FAULTLINE_ADMIN_TOKEN: the start-up line is where the default session's capability URL is
// found; and without the token it will not listen beyond loopback.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ADMIN = "serve-admin-token-0123456789";

let server: NpmServer | undefined;
before(async () => {
  server = await npmRun("serve", undefined, { FAULTLINE_ADMIN_TOKEN: ADMIN });
});
after(() => server?.close());

test("with FAULTLINE_ADMIN_TOKEN, npm run serve prints the default session's capability URL, which the SDK client uses while /mcp is refused", async () => {
  const [line] = await server!.linesWith("Faultline (npm run serve");
  const url = line?.match(/MCP endpoint: (\S+)$/)?.[1] ?? "";
  assert.match(url, new RegExp(`^${server!.url}/s/default\\.[A-Za-z0-9_-]{22}/mcp$`), server!.log());
  const client = new Client({ name: "faultline-serve", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: "echo", arguments: { text: "printed at start" } });
    assert.deepEqual(result.content, [{ type: "text", text: "printed at start" }]);
  } finally {
    await client.close();
  }
  const plain = await fetch(`${server!.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
  assert.equal(plain.status, 404);
  assert.equal(((await plain.json()) as { error: { code: number } }).error.code, -32600);
  const list = await fetch(`${server!.url}/api/sessions`);
  assert.equal(list.status, 401, "the token reached the Worker: the API is closed");
});

test("npm run serve refuses HOST=0.0.0.0 without FAULTLINE_ADMIN_TOKEN: a non-zero exit and one line naming it", async () => {
  const env = { ...process.env, HOST: "0.0.0.0", PORT: "0", FAULTLINE_ADMIN_TOKEN: "", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  const child = spawn(process.execPath, ["scripts/serve.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  // Ends when the script exits, or when it says it is ready (the rule is broken: stop it and fail).
  const code = await new Promise<number | null | "listening">((resolve) => {
    child.once("exit", resolve);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes("is ready")) {
        child.kill("SIGTERM");
        resolve("listening");
      }
    });
  });
  assert.notEqual(code, "listening", "it listened on 0.0.0.0 without a token");
  assert.notEqual(code, 0);
  assert.equal(stdout, "");
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, /FAULTLINE_ADMIN_TOKEN/);
  assert.match(lines[0]!, /0\.0\.0\.0/);
});

test("npm start hands FAULTLINE_ADMIN_TOKEN from its environment to wrangler dev and prints the default session's capability URL", async () => {
  const dev = await npmStart(undefined, { FAULTLINE_ADMIN_TOKEN: ADMIN });
  try {
    const [line] = await dev.linesWith("Faultline (npm start");
    const url = line?.match(/MCP endpoint: (\S+)$/)?.[1] ?? "";
    assert.match(url, new RegExp(`^${dev.url}/s/default\\.[A-Za-z0-9_-]{22}/mcp$`), dev.log());
    assert.equal((await fetch(`${dev.url}/api/sessions`)).status, 401);
    assert.equal((await fetch(`${dev.url}/api/sessions`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 200);
    assert.ok(!dev.log().includes(ADMIN), "the token is not printed");
  } finally {
    await dev.close();
  }
});
