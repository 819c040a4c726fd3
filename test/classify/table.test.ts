import { test } from "node:test";
import assert from "node:assert/strict";
import { classify, exchangeFromRawHttp, OutcomeSchema, parseClassifyInput, RetryDecisionSchema, VerdictSchema } from "../../src/classify/index.ts";
import type { Exchange, Verdict } from "../../src/classify/index.ts";
import { cases } from "./cases.ts";
import type { Case, Expect } from "./cases.ts";

/** The exchange a case classifies: given directly, or built from the wire shape the route and the CLI accept. */
function exchangeOf(c: Case): Exchange {
  if (!c.via) return c.exchange as Exchange;
  if (c.via.kind === "http") {
    const parsed = exchangeFromRawHttp(c.via.text, c.via.params ?? {}, undefined, c.via.request);
    assert.ok(parsed.ok, `message/http must parse: ${parsed.ok ? "" : parsed.error.message}`);
    return parsed.value;
  }
  const parsed = parseClassifyInput(c.via.kind === "har" ? c.via.doc : c.via.value);
  assert.ok(parsed.ok, `input must parse: ${parsed.ok ? "" : parsed.error.message}`);
  const input = parsed.value;
  if (input.kind === "single") return input.exchange;
  if (input.kind === "batch") return input.exchanges[c.via.kind === "json" ? (c.via.index ?? 0) : 0] as Exchange;
  const wanted = c.via.kind === "har" ? c.via.index : 0;
  const entry = input.entries.find((e) => e.index === wanted);
  assert.ok(entry, `HAR entry ${wanted} must be a JSON-RPC exchange`);
  return entry.exchange;
}

function findingPresent(verdict: Verdict, entry: string): boolean {
  const [a, b] = entry.split(":");
  const [severity, code] = b === undefined ? [undefined, a] : [a, b];
  return verdict.findings.some((f) => f.code === code && (severity === undefined || f.severity === severity));
}

function check(verdict: Verdict, expect: Expect): void {
  const codes = verdict.findings.map((f) => `${f.severity}:${f.code}`).join(", ");
  assert.equal(verdict.outcome, expect.outcome, `outcome (findings: ${codes})`);
  if (expect.layer !== undefined) assert.equal(verdict.layer, expect.layer, "layer");
  if (expect.decision !== undefined) assert.equal(verdict.retry.decision, expect.decision, `decision (${verdict.retry.reason})`);
  if (expect.afterMs === null) assert.equal(verdict.retry.afterMs, undefined, "afterMs must be absent");
  else if (expect.afterMs !== undefined) assert.equal(verdict.retry.afterMs, expect.afterMs, "afterMs");
  if (expect.maxAttempts !== undefined) assert.equal(verdict.retry.maxAttempts, expect.maxAttempts, "maxAttempts");
  if (expect.initialBackoffMs !== undefined) assert.equal(verdict.retry.initialBackoffMs, expect.initialBackoffMs, "initialBackoffMs");
  if (expect.code === null) assert.equal(verdict.code, undefined, "code must be absent");
  else if (expect.code !== undefined) assert.equal(verdict.code, expect.code, "code");
  if (expect.status !== undefined) assert.equal(verdict.status, expect.status, "status");
  if (expect.findingCodes !== undefined) {
    if (expect.findingCodes.length === 0) assert.deepEqual(verdict.findings, [], "no findings expected");
    for (const entry of expect.findingCodes) assert.ok(findingPresent(verdict, entry), `finding ${entry} missing; got ${codes}`);
  }
  for (const code of expect.absentFindingCodes ?? []) assert.ok(!findingPresent(verdict, code), `finding ${code} must be absent; got ${codes}`);
  if (expect.inputKeys !== undefined) assert.deepEqual(verdict.retry.inputKeys, expect.inputKeys, "inputKeys");
  if (expect.supportedVersions !== undefined) assert.deepEqual(verdict.retry.supportedVersions, expect.supportedVersions, "supportedVersions");
  if (expect.pendingRequests !== undefined) assert.deepEqual(verdict.retry.pendingRequests, expect.pendingRequests, "pendingRequests");
  if (expect.retrySpecRef !== undefined) assert.equal(verdict.retry.specRef, expect.retrySpecRef, "retry.specRef");
  for (const [key, value] of Object.entries(expect.details ?? {})) assert.deepEqual(verdict[key], value, `detail ${key}`);
}

for (const c of cases) {
  test(c.name, () => {
    const verdict = classify(exchangeOf(c), c.options);
    const parsed = VerdictSchema.safeParse(verdict);
    assert.ok(parsed.success, `verdict must match VerdictSchema: ${parsed.success ? "" : parsed.error.message}`);
    check(verdict, c.expect);
  });
}

test("the table has at least 70 cases with unique sentence names", () => {
  assert.ok(cases.length >= 70, `only ${cases.length} cases`);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length);
});

test("the table covers every outcome and every retry decision", () => {
  const outcomes = new Set(cases.map((c) => c.expect.outcome));
  for (const outcome of OutcomeSchema.options) assert.ok(outcomes.has(outcome), `no case for ${outcome}`);
  const decisions = new Set(cases.map((c) => c.expect.decision));
  for (const decision of RetryDecisionSchema.options) assert.ok(decisions.has(decision), `no case for ${decision}`);
});
