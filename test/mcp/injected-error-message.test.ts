import { test } from "node:test";
import assert from "node:assert/strict";
import { perform, replyWith } from "../../src/faults/perform.ts";
import { FaultSchema } from "../../src/faults/schema.ts";
import { Deadline } from "../../src/wire/deadline.ts";
import { paramsSchema } from "../../scenarios/index.ts";
import jsonrpcError from "../../scenarios/errors/jsonrpc-error.ts";

// An injected JSON-RPC error without a message of its own says what its code means (JSON-RPC 2.0 section 5.1 names
// the standard ones): errors.jsonrpc_error with code -32603 must not answer "Invalid params".

const STANDARD: [number, string][] = [
  [-32700, "Parse error"],
  [-32600, "Invalid Request"],
  [-32601, "Method not found"],
  [-32602, "Invalid params"],
  [-32603, "Internal error"],
];

function decideFor(code: number) {
  const params = paramsSchema(jsonrpcError).parse({ code });
  const request = { era: "modern" as const, protocolVersion: "2026-07-28", httpMethod: "POST", kind: "request" as const, method: "tools/call", headers: {} };
  const counters = { posts: 1, method: 1, tool: 1, mcpSession: 0, count: () => 1 };
  return jsonrpcError.decide?.({ params, request, counters, now: 0 });
}

for (const [code, meaning] of STANDARD) {
  test(`errors.jsonrpc_error with code ${code} and no message says "${meaning} (injected by Faultline)"`, () => {
    const decision = decideFor(code);
    assert.equal(decision?.fault.kind, "jsonrpc_error");
    assert.equal(decision?.fault.kind === "jsonrpc_error" && decision.fault.message, `${meaning} (injected by Faultline)`);
  });
}

test("errors.jsonrpc_error keeps a message the session set", () => {
  const params = paramsSchema(jsonrpcError).parse({ code: -32603, message: "Database on fire" });
  const request = { era: "legacy" as const, protocolVersion: "2025-11-25", httpMethod: "POST", kind: "request" as const, method: "tools/call", headers: {} };
  const decision = jsonrpcError.decide?.({ params, request, counters: { posts: 1, method: 1, tool: 1, mcpSession: 0, count: () => 1 }, now: 0 });
  assert.equal(decision?.fault.kind === "jsonrpc_error" && decision.fault.message, "Database on fire");
});

test("a script's jsonrpc_error fault without a message answers with the meaning of its code", async () => {
  for (const [code, meaning] of [...STANDARD, [-32050, "Server error"] as [number, string]]) {
    const fault = FaultSchema.parse({ kind: "jsonrpc_error", code });
    const response = await perform(fault, {
      era: "modern",
      requestId: 1,
      stream: false,
      reply: replyWith(undefined),
      origin: "http://127.0.0.1",
      waitUntil: () => undefined,
      deadline: new Deadline(Date.now(), 600),
    });
    const body = (await response.json()) as { error: { code: number; message: string } };
    assert.deepEqual(body.error, { code, message: `${meaning} (injected by Faultline)` });
  }
});
