import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { classify, OutcomeSchema, VerdictSchema } from "../../src/classify/index.ts";
import type { Exchange } from "../../src/classify/index.ts";

const RUNS = 600;

const headerName = fc.constantFrom(
  "content-type",
  "Content-Type",
  "retry-after",
  "Retry-After",
  "retry-after-ms",
  "date",
  "www-authenticate",
  "mcp-session-id",
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "x-other",
);
const headerValue = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "application/json",
    "text/event-stream",
    "text/html",
    "application/json; charset=utf-8",
    "120",
    "-1",
    "1.5",
    "Wed, 21 Oct 2026 07:28:00 GMT",
    "Sunday, 06-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 1994",
    'Bearer resource_metadata="https://x/.well-known", scope="a b"',
    'Bearer error="insufficient_scope", scope=',
    'Basic abc==, Bearer realm="x"',
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
  ),
);
const headers = fc.dictionary(fc.oneof(headerName, fc.string()), headerValue, { maxKeys: 6 });
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.double(), fc.boolean());
const anyJson = fc.jsonValue({ maxDepth: 4 });

const contentBlock = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.oneof(fc.string(), fc.integer()) }),
  fc.record({ type: fc.constantFrom("image", "audio"), data: fc.string(), mimeType: fc.string() }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("resource_link"), uri: fc.string(), name: fc.string() }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("resource"), resource: fc.oneof(anyJson, fc.record({ uri: fc.string(), text: fc.string(), blob: fc.string() }, { requiredKeys: [] })) }),
  anyJson,
);
const inputRequest = fc.oneof(
  fc.record({ method: fc.constantFrom("elicitation/create", "sampling/createMessage", "roots/list", "tools/call"), params: anyJson }, { requiredKeys: ["method"] }),
  anyJson,
);
const result = fc.oneof(
  fc.record(
    {
      resultType: fc.oneof(fc.constantFrom("complete", "input_required", "other"), anyJson),
      content: fc.oneof(fc.array(contentBlock, { maxLength: 4 }), anyJson),
      isError: fc.oneof(fc.boolean(), anyJson),
      structuredContent: anyJson,
      inputRequests: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), inputRequest, { maxKeys: 3 }), anyJson),
      requestState: fc.oneof(fc.string(), anyJson),
      tools: fc.oneof(fc.array(anyJson, { maxLength: 3 }), anyJson),
      ttlMs: anyJson,
      cacheScope: fc.constantFrom("public", "private", "x"),
      task: anyJson,
    },
    { requiredKeys: [] },
  ),
  anyJson,
);
const error = fc.oneof(
  fc.record(
    {
      code: fc.oneof(fc.constantFrom(-32700, -32600, -32601, -32602, -32603, -32002, -32042, -32020, -32021, -32022, -32004, -32000, -32050, -31999, 1), fc.double(), anyJson),
      message: fc.oneof(fc.string(), anyJson),
      data: fc.oneof(fc.record({ supported: fc.oneof(fc.array(fc.string()), anyJson), requested: fc.string() }, { requiredKeys: [] }), anyJson),
    },
    { requiredKeys: [] },
  ),
  anyJson,
);
const message = fc.oneof(
  fc.record({ jsonrpc: fc.oneof(fc.constant("2.0"), anyJson), id, result }, { requiredKeys: ["result"] }),
  fc.record({ jsonrpc: fc.oneof(fc.constant("2.0"), anyJson), id, error }, { requiredKeys: ["error"] }),
  fc.record({ jsonrpc: fc.constant("2.0"), id, method: fc.constantFrom("notifications/progress", "notifications/message", "elicitation/create", "ping"), params: anyJson }, { requiredKeys: ["method"] }),
  fc.record({ jsonrpc: fc.constant("2.0"), id, result, error }, { requiredKeys: [] }),
  anyJson,
);
const eol = fc.constantFrom("\n", "\r\n", "\r");
const sseLine = fc.oneof(
  message.map((m) => `data: ${JSON.stringify(m)}`),
  fc.string().map((s) => `data:${s}`),
  fc.constantFrom(": keep-alive", ":", "event: message", "event: other", "id: 7", "id:", "retry: 1000", "retry: x", "data:", "data", "bogus: 1", ""),
);
const sseBody = fc.tuple(fc.array(fc.tuple(sseLine, eol), { maxLength: 12 }), fc.boolean()).map(([lines, bom]) => (bom ? "\uFEFF" : "") + lines.map(([l, e]) => l + e).join(""));
const jsonText = message.map((m) => JSON.stringify(m));
const truncated = jsonText.chain((t) => fc.nat(t.length).map((n) => t.slice(0, n)));

const body = fc.oneof(fc.string(), jsonText, truncated, sseBody, message, anyJson, fc.constant(""), fc.constant(undefined));
const requestBody = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constant("2.0"),
      id,
      method: fc.constantFrom("tools/call", "tools/list", "initialize", "ping", "server/discover", "notifications/initialized", "prompts/get"),
      params: fc.oneof(
        anyJson,
        fc.record({ _meta: fc.record({ "io.modelcontextprotocol/protocolVersion": fc.constantFrom("2025-06-18", "2025-11-25", "2026-07-28", "x"), progressToken: id }, { requiredKeys: [] }), task: anyJson }, { requiredKeys: [] }),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.string(),
  anyJson,
);

const exchange = fc.record(
  {
    request: fc.record({ headers, body: requestBody }, { requiredKeys: [] }),
    response: fc.record({ status: fc.integer({ min: 100, max: 599 }), headers, body }),
    expectedId: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
    method: fc.constantFrom("tools/call", "tools/list", "notifications/cancelled", "ping"),
    protocolVersion: fc.constantFrom("2025-06-18", "2025-11-25", "2026-07-28", "2025-03-26", "nope"),
  },
  { requiredKeys: ["response"] },
);
const options = fc.oneof(fc.constant(undefined), fc.record({ now: fc.oneof(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.double()) }));

// Near-valid exchanges: the response id matches the request, so classification reaches the result layer.
const matchedId = fc.constantFrom(1, "a1");
const validContent = fc.array(
  fc.oneof(
    fc.record({ type: fc.constant("text"), text: fc.string() }),
    fc.record({ type: fc.constant("image"), data: fc.base64String(), mimeType: fc.constant("image/png") }),
    contentBlock,
  ),
  { maxLength: 3 },
);
const nearResult = fc.record(
  {
    resultType: fc.constantFrom("complete", "complete", "input_required", "bogus"),
    content: fc.oneof({ weight: 4, arbitrary: validContent }, { weight: 1, arbitrary: anyJson }),
    isError: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyJson }),
    structuredContent: anyJson,
    inputRequests: fc.dictionary(fc.string({ maxLength: 5 }), inputRequest, { maxKeys: 3 }),
    requestState: fc.oneof(fc.string(), anyJson),
  },
  { requiredKeys: [] },
);
const nearError = fc.record({
  code: fc.constantFrom(-32700, -32600, -32601, -32602, -32603, -32002, -32042, -32020, -32021, -32022, -32004, -32000, -32050, 7),
  message: fc.string(),
  data: fc.oneof(fc.record({ supported: fc.array(fc.constantFrom("2025-11-25", "2026-07-28")), requested: fc.string() }), anyJson),
});
const nearMessage = fc.oneof(
  { weight: 3, arbitrary: fc.record({ jsonrpc: fc.constant("2.0"), id: matchedId, result: nearResult }) },
  { weight: 1, arbitrary: fc.record({ jsonrpc: fc.constant("2.0"), id: matchedId, error: nearError }, { requiredKeys: ["jsonrpc", "error"] }) },
  { weight: 1, arbitrary: message },
);
const nearEvent = fc.oneof(
  { weight: 2, arbitrary: nearMessage.map((m) => `data: ${JSON.stringify(m)}`) },
  { weight: 1, arbitrary: fc.constantFrom('data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}', ": ping", "id: e1\nretry: 500\ndata:") },
);
const nearSse = fc.tuple(fc.array(nearEvent, { minLength: 0, maxLength: 4 }), eol).map(([events, e]) => events.map((x) => x.replace(/\n/g, e) + e + e).join(""));
const nearExchange = fc.record({
  request: fc.record({
    headers: fc.constantFrom({}, { "MCP-Protocol-Version": "2026-07-28" }, { "MCP-Protocol-Version": "2025-06-18", "Mcp-Session-Id": "s" }),
    body: fc.record({ jsonrpc: fc.constant("2.0"), id: matchedId, method: fc.constantFrom("tools/call", "tools/call", "tools/list", "prompts/get", "server/discover") }),
  }),
  response: fc.oneof(
    fc.record({ status: fc.constantFrom(200, 200, 200, 202, 400, 401, 404, 429, 503), headers: fc.constant({ "content-type": "application/json" }), body: nearMessage.map((m) => JSON.stringify(m)) }),
    fc.record({ status: fc.constantFrom(200, 200, 400), headers: fc.constant({ "content-type": "text/event-stream" }), body: nearSse }),
    fc.record({ status: fc.constant(200), headers: fc.constant({}), body: nearMessage }),
  ),
}).map((e) => ({ ...e, expectedId: e.request.body.id }));

function assertVerdict(input: unknown, opts?: { now?: number }): void {
  let verdict;
  try {
    verdict = classify(input as Exchange, opts);
  } catch (thrown) {
    assert.fail(`classify threw: ${String(thrown)}`);
  }
  assert.ok(OutcomeSchema.safeParse(verdict.outcome).success, `unknown outcome ${String(verdict.outcome)}`);
  const parsed = VerdictSchema.safeParse(verdict);
  assert.ok(parsed.success, parsed.success ? "" : parsed.error.message);
  // classify() catches everything and falls back to CLASSIFIER_INTERNAL_ERROR; that fallback is a failure here.
  const internal = verdict.findings.find((f) => f.code === "CLASSIFIER_INTERNAL_ERROR");
  assert.equal(internal, undefined, internal?.message);
}

test("classify never throws and always returns a schema-valid verdict for near-valid MCP exchanges", () => {
  fc.assert(fc.property(exchange, options, (e, o) => assertVerdict(e, o)), { numRuns: RUNS });
});

test("classify never throws and always returns a schema-valid verdict for near-valid responses that reach the result layer", () => {
  fc.assert(fc.property(nearExchange, options, (e, o) => assertVerdict(e, o)), { numRuns: RUNS });
});

test("classify never throws and always returns a schema-valid verdict for SSE streams", () => {
  const sseExchange = fc.record({
    request: fc.record({ headers, body: requestBody }, { requiredKeys: [] }),
    response: fc.record({ status: fc.constantFrom(200, 202, 400, 500), headers: fc.constant({ "content-type": "text/event-stream" }), body: sseBody }),
  });
  fc.assert(fc.property(sseExchange, (e) => assertVerdict(e)), { numRuns: RUNS });
});

test("classify never throws and always returns a schema-valid verdict for arbitrary values", () => {
  fc.assert(fc.property(fc.anything(), fc.anything(), (e, o) => assertVerdict(e, o as { now?: number })), { numRuns: RUNS });
});
