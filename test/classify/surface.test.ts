import { test } from "node:test";
import assert from "node:assert/strict";
import * as surface from "../../src/classify/index.ts";
import { OUTCOME_LAYER, OutcomeSchema } from "../../src/classify/index.ts";

test("the entry point exports the names other modules build on", () => {
  for (const name of ["classify", "ExchangeSchema", "VerdictSchema", "OutcomeSchema", "RetryDecisionSchema", "FindingSchema", "LayerSchema"]) {
    assert.ok(name in surface, `${name} is not exported`);
  }
  assert.equal(typeof surface.classify, "function");
});

test("every outcome maps to the layer the issue pins", () => {
  const pinned = {
    HTTP_ERROR: "transport",
    STREAM_INCOMPLETE: "transport",
    NOTIFICATION_ACCEPTED: "transport",
    MALFORMED_JSON: "protocol",
    INVALID_ENVELOPE: "protocol",
    JSONRPC_ERROR: "protocol",
    INPUT_REQUIRED: "interaction",
    TOOL_SUCCESS: "application",
    TOOL_ERROR: "application",
    INVALID_TOOL_RESULT: "protocol",
  };
  assert.deepEqual(Object.keys(OUTCOME_LAYER).sort(), [...OutcomeSchema.options].sort());
  assert.deepEqual(OUTCOME_LAYER, pinned);
});

test("classify reads no clock: the same exchange gives the same verdict", () => {
  const exchange = { response: { status: 429, headers: { "Retry-After": "Wed, 21 Oct 2026 07:28:30 GMT" }, body: "" } };
  assert.deepEqual(surface.classify(exchange), surface.classify(exchange));
  assert.equal(surface.classify(exchange).retry.afterMs, undefined);
});

test("classify returns a verdict instead of throwing when reading the input throws", () => {
  const hostile = {
    get response(): never {
      throw new Error("boom");
    },
  };
  const verdict = surface.classify(hostile as never);
  assert.equal(verdict.outcome, "INVALID_ENVELOPE");
  assert.equal(verdict.retry.decision, "investigate");
  assert.ok(verdict.findings.some((f) => f.code === "CLASSIFIER_INTERNAL_ERROR"));
  assert.ok(surface.VerdictSchema.safeParse(verdict).success);
});
