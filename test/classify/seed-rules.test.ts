// The seed's own verdicts (issue 13 §4), where Faultline now follows the seed article's classifier:
// an empty JSON body is malformed JSON, every invalid result breaks the protocol layer, and an error
// response without an id member is no valid envelope. Where Faultline is stricter than the seed it
// stays so; only the layer follows the rule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CLASSIFIER_VERSION, classify } from "../../src/classify/index.ts";
import type { Layer, Outcome } from "../../src/classify/index.ts";

const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } };
const JSON_CT = { "content-type": "application/json" };

function answer(body: string, headers: Record<string, string> = JSON_CT, status = 200, protocolVersion?: string) {
  return { request: { body: call }, response: { status, headers, body }, ...(protocolVersion === undefined ? {} : { protocolVersion }) };
}
const result = (value: unknown, protocolVersion?: string) => answer(JSON.stringify({ jsonrpc: "2.0", id: 1, result: value }), JSON_CT, 200, protocolVersion);
const error = (envelope: Record<string, unknown>, protocolVersion?: string) =>
  answer(JSON.stringify({ jsonrpc: "2.0", ...envelope, error: { code: -32603, message: "boom" } }), JSON_CT, 200, protocolVersion);

interface Rule {
  name: string;
  exchange: unknown;
  outcome: Outcome;
  layer: Layer;
  /** "severity:CODE" findings that must be present. */
  findings: string[];
}

const rules: Rule[] = [
  // 621 disagreements: JSON.parse("") fails, so the seed says MALFORMED_JSON; the RESPONSE_MISSING finding stays.
  { name: "an empty 200 application/json body is malformed JSON and names the missing response", exchange: answer(""), outcome: "MALFORMED_JSON", layer: "protocol", findings: ["error:RESPONSE_MISSING"] },
  { name: "a blank 200 application/json body is malformed JSON too", exchange: answer(" \r\n\t"), outcome: "MALFORMED_JSON", layer: "protocol", findings: ["error:RESPONSE_MISSING"] },
  {
    name: "a blank 200 body whose JSON content type has parameters is malformed JSON",
    exchange: answer("\n", { "Content-Type": "application/json; charset=utf-8" }),
    outcome: "MALFORMED_JSON",
    layer: "protocol",
    findings: ["error:RESPONSE_MISSING"],
  },
  { name: "an empty 200 body without a content type stays a missing response", exchange: answer("", {}), outcome: "INVALID_ENVELOPE", layer: "protocol", findings: ["error:RESPONSE_MISSING"] },
  { name: "an empty 202 to a request stays a request accepted without a response", exchange: answer("", JSON_CT, 202), outcome: "INVALID_ENVELOPE", layer: "protocol", findings: ["error:ACCEPTED_WITHOUT_RESPONSE"] },
  { name: "an empty 503 application/json body stays an HTTP error", exchange: answer("", JSON_CT, 503), outcome: "HTTP_ERROR", layer: "transport", findings: [] },

  // 203 disagreements: the result broke the protocol's schema, so the layer is protocol.
  { name: "a resultType that is not a known string is an invalid result in the protocol layer", exchange: result({ resultType: "done", content: [] }, "2026-07-28"), outcome: "INVALID_TOOL_RESULT", layer: "protocol", findings: ["error:RESULT_TYPE_UNKNOWN"] },
  { name: "a resultType that is not a string is an invalid result in the protocol layer", exchange: result({ resultType: 1, content: [] }, "2026-07-28"), outcome: "INVALID_TOOL_RESULT", layer: "protocol", findings: ["error:RESULT_TYPE_INVALID"] },
  { name: "a tools/call result without content is an invalid result in the protocol layer", exchange: result({ isError: false }), outcome: "INVALID_TOOL_RESULT", layer: "protocol", findings: ["error:CONTENT_MISSING"] },
  { name: "a tools/call result whose content is not an array is an invalid result in the protocol layer", exchange: result({ content: "hi" }), outcome: "INVALID_TOOL_RESULT", layer: "protocol", findings: ["error:CONTENT_NOT_ARRAY"] },

  // 140 and 60: Faultline stays stricter than the seed, and the layer follows the rule above.
  { name: "an invalid content block stays an invalid result, in the protocol layer", exchange: result({ content: [{ type: "text" }] }), outcome: "INVALID_TOOL_RESULT", layer: "protocol", findings: ["error:CONTENT_BLOCK_INVALID"] },
  {
    name: "a 2025-11-25 structuredContent that is not an object stays an invalid result, in the protocol layer",
    exchange: result({ content: [{ type: "text", text: "[1]" }], structuredContent: [1] }, "2025-11-25"),
    outcome: "INVALID_TOOL_RESULT",
    layer: "protocol",
    findings: ["error:STRUCTURED_CONTENT_NOT_OBJECT"],
  },
  { name: "input_required without inputRequests or requestState stays an invalid result, in the protocol layer", exchange: result({ resultType: "input_required" }, "2026-07-28"), outcome: "INVALID_TOOL_RESULT", layer: "protocol", findings: ["error:INPUT_REQUIRED_EMPTY"] },

  // 17 disagreements: JSON-RPC 2.0 §5 requires the id member in every response.
  { name: "a 2025-11-25 error response with no id member is an invalid envelope", exchange: error({}, "2025-11-25"), outcome: "INVALID_ENVELOPE", layer: "protocol", findings: ["error:ERROR_ID_MISSING"] },
  { name: "a 2026-07-28 error response with no id member is an invalid envelope", exchange: error({}, "2026-07-28"), outcome: "INVALID_ENVELOPE", layer: "protocol", findings: ["error:ERROR_ID_MISSING"] },
  { name: "a 2025-06-18 error response with no id member is an invalid envelope", exchange: error({}, "2025-06-18"), outcome: "INVALID_ENVELOPE", layer: "protocol", findings: ["error:ERROR_ID_MISSING"] },
  { name: "an error response with an explicit null id stays a JSON-RPC error with a warning", exchange: error({ id: null }), outcome: "JSONRPC_ERROR", layer: "protocol", findings: ["warning:ID_NULL"] },
  { name: "an error response with the request's id stays a JSON-RPC error", exchange: error({ id: 1 }), outcome: "JSONRPC_ERROR", layer: "protocol", findings: [] },
];

for (const rule of rules) {
  test(rule.name, () => {
    const verdict = classify(rule.exchange as never);
    const codes = verdict.findings.map((f) => `${f.severity}:${f.code}`);
    assert.equal(verdict.outcome, rule.outcome, `outcome (findings: ${codes.join(", ")})`);
    assert.equal(verdict.layer, rule.layer, "layer");
    for (const code of rule.findings) assert.ok(codes.includes(code), `finding ${code} missing; got ${codes.join(", ")}`);
  });
}

test("every verdict names the edition of the rules that produced it, edition 3 since the legacy fallback and the pending server request", () => {
  assert.equal(CLASSIFIER_VERSION, 4);
  for (const rule of rules) assert.equal(classify(rule.exchange as never).classifierVersion, CLASSIFIER_VERSION, rule.name);
  const refused = classify({ response: { status: "200" } } as never);
  assert.equal(refused.classifierVersion, CLASSIFIER_VERSION, "a refused exchange carries the edition too");
});
