// The official suite's CLIENT mode runs scripted servers nobody on this project wrote; the recording client
// drives each one and keeps the raw HTTP exchanges, and Faultline's classifier must read them the way the
// scenario meant them. Spawns the suite, so it runs from .ci/conformance.sh, not from npm test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classify, type Verdict } from "../../src/classify/index.ts";

const SUITES = {
  stable: "node_modules/conformance-stable/dist/index.js",
  next: "node_modules/conformance-next/dist/index.js",
} as const;
const OUT = process.env.FAULTLINE_CONFORMANCE_OUT ?? mkdtempSync(join(tmpdir(), "faultline-client-scenarios-"));
mkdirSync(OUT, { recursive: true });

interface Recorded {
  scenario: string;
  seq: number;
  label: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  expectedId?: string | number;
  jsonrpcMethod?: string;
  error?: string;
}

interface Classified extends Recorded {
  response: NonNullable<Recorded["response"]>;
  verdict: Verdict;
}

/** Runs one client scenario with the recording client, then classifies every exchange it kept. */
function runScenario(suite: keyof typeof SUITES, scenario: string): Classified[] {
  const file = join(OUT, `client-${scenario}.jsonl`);
  writeFileSync(file, "");
  const run = spawnSync(process.execPath, [SUITES[suite], "client", "--command", "node test/conformance/recording-client.mjs", "--scenario", scenario], {
    env: { ...process.env, FAULTLINE_EXCHANGES_FILE: file },
    encoding: "utf8",
    timeout: 120_000,
  });
  writeFileSync(join(OUT, `client-${scenario}.txt`), `${run.stdout}\n${run.stderr}`);
  assert.equal(run.status, 0, `the suite failed the recording client in ${scenario}:\n${run.stdout}\n${run.stderr}`);
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  const exchanges = lines.map((line) => JSON.parse(line) as Recorded);
  assert.ok(exchanges.length > 0, `${scenario}: the client recorded no exchange`);
  const classified = exchanges.map((x) => {
    assert.ok(x.response, `${scenario} #${x.seq} ${x.label}: the request failed (${x.error})`);
    const verdict = classify({
      request: { headers: x.request.headers, body: x.request.body },
      response: x.response,
      ...(x.expectedId === undefined ? {} : { expectedId: x.expectedId }),
      ...(x.jsonrpcMethod === undefined ? {} : { method: x.jsonrpcMethod }),
    });
    return { ...x, response: x.response, verdict };
  });
  writeFileSync(join(OUT, `client-${scenario}.verdicts.json`), JSON.stringify(classified.map(({ seq, label, response, verdict }) => ({ seq, label, status: response.status, verdict })), null, 2));
  return classified;
}

const codes = (x: Classified) => x.verdict.findings.map((f) => f.code);
const errors = (x: Classified) => x.verdict.findings.filter((f) => f.severity === "error").map((f) => f.code);

function one(exchanges: Classified[], label: string): Classified {
  const found = exchanges.filter((x) => x.label === label);
  assert.equal(found.length, 1, `expected one exchange labelled '${label}', got ${found.length}: ${exchanges.map((x) => x.label).join(" | ")}`);
  return found[0] as Classified;
}

/** The body's JSON-RPC result, when the response is one JSON object. */
function jsonResult(x: Classified): Record<string, unknown> | undefined {
  try {
    return (JSON.parse(x.response.body) as { result?: Record<string, unknown> }).result;
  } catch {
    return undefined;
  }
}

test("sse-retry (0.1.16): the cut POST stream is STREAM_INCOMPLETE and resumable, and the GET resumption carries the result", () => {
  const exchanges = runScenario("stable", "sse-retry");
  assert.equal(one(exchanges, "initialize").verdict.outcome, "TOOL_SUCCESS");
  assert.equal(one(exchanges, "notifications/initialized").verdict.outcome, "NOTIFICATION_ACCEPTED");

  const cut = one(exchanges, "tools/call test_reconnection");
  const retryField = Number(/^retry: (\d+)$/m.exec(cut.response.body)?.[1]);
  const eventId = /^id: (.+)$/m.exec(cut.response.body)?.[1];
  assert.equal(cut.verdict.outcome, "STREAM_INCOMPLETE");
  assert.equal(cut.verdict.transport, "sse");
  assert.ok(codes(cut).includes("SSE_RESUMABLE"), `findings: ${codes(cut).join(", ")}`);
  assert.equal(cut.verdict.retry.decision, "conditional");
  assert.equal(cut.verdict.retry.afterMs, retryField, "the advice waits the stream's retry field");
  assert.match(cut.verdict.retry.reason, new RegExp(`Last-Event-ID: "${eventId}"`));

  const resumed = one(exchanges, "GET resume 1");
  assert.equal(resumed.request.headers["last-event-id"], eventId);
  assert.equal(resumed.verdict.outcome, "TOOL_SUCCESS");
  assert.equal(resumed.verdict.id, cut.verdict.expectedId);
});

test("sep-2322-client-request-state: input_required rounds are follow-ups naming their keys, and a result without resultType is complete with a warning", () => {
  const exchanges = runScenario("next", "sep-2322-client-request-state");
  for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state"]) {
    const first = one(exchanges, `tools/call ${name}`);
    const asked = Object.keys((jsonResult(first)?.inputRequests ?? {}) as Record<string, unknown>);
    assert.equal(first.verdict.outcome, "INPUT_REQUIRED", name);
    assert.equal(first.verdict.layer, "interaction");
    assert.equal(first.verdict.retry.decision, "follow-up");
    assert.deepEqual(first.verdict.retry.inputKeys, asked);
    assert.equal(first.verdict.requestStatePresent, typeof jsonResult(first)?.requestState === "string", name);
    assert.deepEqual(errors(first), []);
    assert.equal(one(exchanges, `tools/call ${name} retry 1`).verdict.outcome, "TOOL_SUCCESS", `${name} retry`);
  }
  assert.equal(one(exchanges, "tools/call test_mrtr_unrelated").verdict.outcome, "TOOL_SUCCESS");

  const bare = one(exchanges, "tools/call test_mrtr_no_result_type");
  assert.equal(jsonResult(bare)?.resultType, undefined, "the mock really omits resultType");
  assert.equal(bare.verdict.outcome, "TOOL_SUCCESS");
  const missing = bare.verdict.findings.find((f) => f.code === "RESULT_TYPE_MISSING");
  assert.equal(missing?.severity, "warning");
});

test("request-metadata: the simulated -32022 rejection is read as renegotiate with the server's supported versions", () => {
  const exchanges = runScenario("next", "request-metadata");
  const [rejected, retried] = exchanges;
  assert.ok(rejected && retried);
  const data = (JSON.parse(rejected.response.body) as { error: { data: { supported: string[] } } }).error.data;
  assert.equal(rejected.response.status, 400);
  assert.equal(rejected.verdict.code, -32022);
  assert.equal(rejected.verdict.retry.decision, "renegotiate");
  assert.deepEqual(rejected.verdict.retry.supportedVersions, data.supported);
  assert.equal(retried.verdict.outcome, "TOOL_SUCCESS");
  assert.notEqual(JSON.parse(retried.request.body ?? "{}").id, JSON.parse(rejected.request.body ?? "{}").id, "the retry is a new request");
});

for (const scenario of ["http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"]) {
  test(`${scenario}: every answer is a success, with a warning wherever the 2026 mock mints Mcp-Session-Id`, () => {
    const exchanges = runScenario("next", scenario);
    for (const x of exchanges) {
      assert.equal(x.verdict.outcome, "TOOL_SUCCESS", `${x.label}: ${JSON.stringify(x.verdict.findings)}`);
      assert.deepEqual(errors(x), [], x.label);
      assert.equal(codes(x).includes("SESSION_ID_MINTED_2026"), "mcp-session-id" in x.response.headers, x.label);
    }
  });
}
