import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as surface from "../../src/classify/index.ts";
import { OUTCOME_LAYER, OutcomeSchema } from "../../src/classify/index.ts";

test("the entry point exports exactly the named classifier surface, and nothing by export *", () => {
  assert.deepEqual(Object.keys(surface).sort(), [
    "BodySchema",
    "CLASSIFIER_VERSION",
    "DEFAULT_INITIAL_BACKOFF_MS",
    "DEFAULT_MAX_ATTEMPTS",
    "ExchangeSchema",
    "FindingSchema",
    "FlatExchangeInputSchema",
    "HarSchema",
    "HeadersSchema",
    "HttpMessageParamsSchema",
    "LayerSchema",
    "NestedExchangeInputSchema",
    "OUTCOMES",
    "OUTCOME_LAYER",
    "OutcomeSchema",
    "ProtocolVersionSchema",
    "RetryAdviceSchema",
    "RetryDecisionSchema",
    "VerdictSchema",
    "classify",
    "exchangeFromRawHttp",
    "exchangesFromHar",
    "formatPath",
    "isRecord",
    "issuesFromZod",
    "looksLikeHar",
    "looksLikeRawHttp",
    "parseChallenges",
    "parseClassifyInput",
    "parseExchangeInput",
    "parseHttpDate",
    "parseHttpMessage",
    "parseJsonText",
    "parseSse",
    "retryAfter",
    "schemaMismatch",
    "sessionGoneReading",
    "show",
    "sseBodyAlone",
  ]);
  assert.doesNotMatch(readFileSync(new URL("../../src/classify/index.ts", import.meta.url), "utf8"), /export \*/);
});

// The one file outside src/classify/ the classifier reads: the wire facts' table (src/wire/facts.ts), which the server,
// the checks and the dashboard read too. It imports nothing itself, so the classifier stays zod-only and runtime-neutral.
const WIRE_FACTS = "../wire/facts.ts";

test("every classifier module imports only zod, other classifier modules and the wire facts, and touches no runtime's own globals", () => {
  const dir = new URL("../../src/classify/", import.meta.url);
  const files = readdirSync(dir).filter((name) => name.endsWith(".ts"));
  assert.ok(files.length > 20, `only ${files.length} modules found`);
  for (const name of files) {
    const text = readFileSync(new URL(name, dir), "utf8");
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      assert.ok(specifier === "zod" || specifier === WIRE_FACTS || /^\.\/[\w-]+\.ts$/.test(specifier ?? ""), `${name} imports ${specifier}`);
    }
    assert.doesNotMatch(text, /\b(?:process|Buffer|Deno|require|globalThis|__dirname)\b/, `${name} uses a runtime global`);
  }
  const facts = readFileSync(new URL(WIRE_FACTS, dir), "utf8");
  assert.doesNotMatch(facts, /(?:from|import)\s*\(?\s*["']/, "src/wire/facts.ts imports nothing");
  assert.doesNotMatch(facts, /\b(?:process|Buffer|Deno|require|globalThis|__dirname)\b/, "src/wire/facts.ts uses a runtime global");
});

test("retryAfter reads the wait a response asks for from plain headers, and says why when it cannot", () => {
  assert.deepEqual(surface.retryAfter({ "Retry-After": "3" }), { afterMs: 3000, source: "retry-after-seconds", value: "3", findings: [] });
  assert.deepEqual(surface.retryAfter({ "retry-after-ms": "250", "retry-after": "9" }), { afterMs: 250, source: "retry-after-ms", value: "250", findings: [] });
  const dated = surface.retryAfter({ "retry-after": "Wed, 21 Oct 2026 07:28:30 GMT", date: "Wed, 21 Oct 2026 07:28:00 GMT" });
  assert.equal(dated.afterMs, 30_000);
  const unusable = surface.retryAfter({ "retry-after": "soon" });
  assert.equal(unusable.afterMs, undefined);
  assert.deepEqual(unusable.findings.map((f) => f.code), ["RETRY_AFTER_INVALID"]);
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
    // Issue 29: a GET stream and a DELETE are judged at the transport, where they live.
    STREAM_OPEN: "transport",
    SESSION_ENDED: "transport",
    // SEP-2663: the application's work, accepted as a task.
    TASK_CREATED: "application",
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
