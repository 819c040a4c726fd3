// The classifier's truth table: pure data, one behaviour per case. Expected values follow the spec
// (digest sections cited in comments), never the classifier's output.
import type { ClassifyOptions, Layer, Outcome, RetryDecision } from "../../src/classify/index.ts";

export interface Expect {
  outcome: Outcome;
  layer?: Layer;
  decision?: RetryDecision;
  /** A number must match exactly; null means afterMs must be absent. */
  afterMs?: number | null;
  maxAttempts?: number;
  initialBackoffMs?: number;
  code?: number | null;
  status?: number;
  /** Each entry must be present: "CODE" or "severity:CODE". */
  findingCodes?: string[];
  /** None of these codes may be present. */
  absentFindingCodes?: string[];
  inputKeys?: string[];
  supportedVersions?: string[];
  /** retry.pendingRequests, exactly. */
  pendingRequests?: { method: string; id: string | number }[];
  /** retry.specRef, exactly. */
  retrySpecRef?: string;
  /** Other verdict keys that must deep-equal these values. */
  details?: Record<string, unknown>;
}

/** Inputs that reach classify() through one of the accepted wire shapes instead of a ready exchange. */
export type Via =
  /** A raw response as `curl -si` prints it, with the message/http parameters. */
  | {
      kind: "http";
      text: string;
      params?: { expectedId?: string; method?: string; protocolVersion?: string; httpMethod?: string; sessionId?: string };
      /** The request's text, as `faultline classify --request FILE` reads it. */
      request?: string;
    }
  /** A HAR 1.2 document; `index` picks the classified entry by its position in log.entries. */
  | { kind: "har"; doc: unknown; index: number }
  /** The JSON body of POST /classify (flat, nested or an array); `index` picks an array element. */
  | { kind: "json"; value: unknown; index?: number };

export interface Case {
  name: string;
  /** The exchange handed to classify(); absent when `via` builds it. */
  exchange?: unknown;
  via?: Via;
  options?: ClassifyOptions;
  expect: Expect;
}

const JSON_CT = { "content-type": "application/json" };
const SSE_CT = { "content-type": "text/event-stream" };
const META_2026 = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const call1 = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
const call2026 = { jsonrpc: "2.0", id: "a1", method: "tools/call", params: { name: "deploy", arguments: {}, _meta: META_2026 } };
const h2026 = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "deploy" };
const TASK_2026 = { taskId: "786512e2-9e0d-44bd-8f29-789f320fe840", createdAt: "2026-08-01T10:00:00Z", lastUpdatedAt: "2026-08-01T10:00:00Z", ttlMs: 60000, pollIntervalMs: 500 };
const tasksGet = { jsonrpc: "2.0", id: "g1", method: "tasks/get", params: { taskId: TASK_2026.taskId, _meta: META_2026 } };

const textResult = { content: [{ type: "text", text: "hello" }] };
const ok1 = JSON.stringify({ jsonrpc: "2.0", id: 1, result: textResult });
const progress = (n: number) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p1", progress: n, total: 3 } });
const log = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
const errBody = (id: unknown, code: number, message: string, data?: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });

/** A tools/call answered 200 with a JSON body (the common shape). */
function jsonCall(result: unknown, extra: { version?: string; request?: unknown; id?: unknown } = {}): unknown {
  const body = JSON.stringify({ jsonrpc: "2.0", id: extra.id ?? 1, result });
  const exchange: Record<string, unknown> = {
    request: { body: extra.request ?? call1 },
    response: { status: 200, headers: JSON_CT, body },
  };
  if (extra.version !== undefined) exchange.protocolVersion = extra.version;
  return exchange;
}

/** place_order's outputSchema, as a test fixture: an integer orderNumber and a string item, nothing else. */
const ORDER_SCHEMA = {
  type: "object",
  properties: { orderNumber: { type: "integer", minimum: 1 }, item: { type: "string" } },
  required: ["orderNumber", "item"],
  additionalProperties: false,
};

function withSchema(exchange: unknown): unknown {
  return { ...(exchange as Record<string, unknown>), outputSchema: ORDER_SCHEMA };
}

function jsonBody(body: string, status = 200, request: unknown = call1, version?: string): unknown {
  const exchange: Record<string, unknown> = { request: { body: request }, response: { status, headers: JSON_CT, body } };
  if (version !== undefined) exchange.protocolVersion = version;
  return exchange;
}

function sse(body: string, request: unknown = call1, requestHeaders: Record<string, string> = {}): unknown {
  return { request: { headers: requestHeaders, body: request }, response: { status: 200, headers: SSE_CT, body } };
}

function status(code: number, headers: Record<string, string> = {}, body = "", requestHeaders: Record<string, string> = {}, request: unknown = call1): unknown {
  return { request: { headers: requestHeaders, body: request }, response: { status: code, headers, body } };
}

const ev = (data: string, eol = "\n") => `data: ${data}${eol}${eol}`;

const REF_NOW = Date.UTC(2026, 9, 21, 7, 28, 0); // Wed, 21 Oct 2026 07:28:00 GMT
const DATE_0728 = "Wed, 21 Oct 2026 07:28:00 GMT";
const DATE_0728_30 = "Wed, 21 Oct 2026 07:28:30 GMT";

export const cases: Case[] = [
  // ---- Application layer: tools/call results (digest 3.4, 3.5) ----
  {
    name: "a tools/call result with one text block is a success with no retry",
    exchange: jsonCall(textResult),
    expect: {
      outcome: "TOOL_SUCCESS",
      layer: "application",
      decision: "none",
      status: 200,
      code: null,
      findingCodes: [],
      details: { id: 1, transport: "json", protocolVersion: "2025-11-25", protocolVersionSource: "default", method: "tools/call" },
    },
  },
  {
    name: "a result with every content block kind (text, image, audio, resource_link, resource) is a success",
    exchange: jsonCall({
      content: [
        { type: "text", text: "t", annotations: { audience: ["user"], priority: 0.5 } },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
        { type: "audio", data: "aGVsbG8=", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
        { type: "resource", resource: { uri: "file:///b.txt", text: "b" } },
        { type: "resource", resource: { uri: "file:///c.bin", blob: "AAEC" } },
      ],
    }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none", details: { contentBlocks: 6 } },
  },
  {
    name: "an empty content array is a valid tools/call result",
    exchange: jsonCall({ content: [] }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none" },
  },
  {
    name: "isError true is a tool error that goes back to the model rather than a blind retry",
    exchange: jsonCall({ content: [{ type: "text", text: "API rate limit exceeded" }], isError: true }),
    expect: {
      outcome: "TOOL_ERROR",
      layer: "application",
      decision: "tool-semantics",
      details: { isError: true, toolErrorText: "API rate limit exceeded" },
    },
  },
  {
    name: "isError false is an ordinary success",
    exchange: jsonCall({ content: [{ type: "text", text: "ok" }], isError: false }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none" },
  },
  {
    name: "isError given as the string \"true\" makes the result invalid because it must be a boolean",
    exchange: jsonCall({ content: [{ type: "text", text: "x" }], isError: "true" }),
    expect: { outcome: "INVALID_TOOL_RESULT", layer: "protocol", decision: "investigate", findingCodes: ["error:IS_ERROR_NOT_BOOLEAN"] },
  },
  {
    name: "content given as an object instead of an array is an invalid tool result",
    exchange: jsonCall({ content: { type: "text", text: "x" } }),
    expect: { outcome: "INVALID_TOOL_RESULT", decision: "investigate", findingCodes: ["CONTENT_NOT_ARRAY"] },
  },
  {
    name: "a tools/call result without content is invalid",
    exchange: jsonCall({ structuredContent: { a: 1 } }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["CONTENT_MISSING"] },
  },
  {
    name: "a text block without its text field is a bad content block",
    exchange: jsonCall({ content: [{ type: "text", value: "x" }] }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["CONTENT_BLOCK_INVALID"] },
  },
  {
    name: "a content block of unknown type video is invalid",
    exchange: jsonCall({ content: [{ type: "video", data: "AA==" }] }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["CONTENT_BLOCK_INVALID"] },
  },
  {
    name: "an embedded resource with both text and blob is invalid",
    exchange: jsonCall({ content: [{ type: "resource", resource: { uri: "file:///x", text: "a", blob: "AA==" } }] }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["CONTENT_BLOCK_INVALID"] },
  },
  {
    name: "an image block without mimeType is invalid",
    exchange: jsonCall({ content: [{ type: "image", data: "AA==" }] }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["CONTENT_BLOCK_INVALID"] },
  },
  {
    name: "structuredContent as an array is invalid in 2025-11-25 where it must be an object",
    exchange: jsonCall({ content: [{ type: "text", text: "[1,2]" }], structuredContent: [1, 2] }, { version: "2025-11-25" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["STRUCTURED_CONTENT_NOT_OBJECT"], details: { protocolVersionSource: "input" } },
  },
  {
    name: "structuredContent as an array is valid in 2026-07-28 where it may be any JSON value",
    exchange: jsonCall({ resultType: "complete", content: [{ type: "text", text: "[1,2]" }], structuredContent: [1, 2] }, { version: "2026-07-28" }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none", absentFindingCodes: ["STRUCTURED_CONTENT_NOT_OBJECT"] },
  },
  {
    name: "structuredContent as an object is valid in 2025-06-18",
    exchange: jsonCall({ content: [{ type: "text", text: "{\"t\":20}" }], structuredContent: { t: 20 } }, { version: "2025-06-18" }),
    expect: { outcome: "TOOL_SUCCESS", details: { protocolVersion: "2025-06-18" } },
  },
  // ---- structuredContent against the tool's outputSchema (server/tools "Output Schema": servers MUST conform) ----
  {
    name: "structuredContent that conforms to the given outputSchema is a success",
    exchange: withSchema(jsonCall({ content: [{ type: "text", text: "{\"orderNumber\":1}" }], structuredContent: { orderNumber: 1, item: "tea" } }, { version: "2025-11-25" })),
    expect: { outcome: "TOOL_SUCCESS", absentFindingCodes: ["STRUCTURED_CONTENT_MISMATCH", "STRUCTURED_CONTENT_MISSING"] },
  },
  {
    name: "structuredContent of the wrong type for a property is invalid against the outputSchema",
    exchange: withSchema(jsonCall({ content: [{ type: "text", text: "x" }], structuredContent: { orderNumber: "one", item: "tea" } }, { version: "2025-11-25" })),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:STRUCTURED_CONTENT_MISMATCH"] },
  },
  {
    name: "structuredContent without a required property is invalid against the outputSchema in 2026-07-28 too",
    exchange: withSchema(jsonCall({ resultType: "complete", content: [{ type: "text", text: "x" }], structuredContent: { item: "tea" } }, { version: "2026-07-28" })),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:STRUCTURED_CONTENT_MISMATCH"] },
  },
  {
    name: "a property the outputSchema forbids (additionalProperties false) is invalid",
    exchange: withSchema(jsonCall({ content: [{ type: "text", text: "x" }], structuredContent: { orderNumber: 1, item: "tea", extra: true } }, { version: "2025-06-18" })),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:STRUCTURED_CONTENT_MISMATCH"] },
  },
  {
    name: "a result without structuredContent is invalid when the tool declares an outputSchema",
    exchange: withSchema(jsonCall({ content: [{ type: "text", text: "Order #1 placed" }] }, { version: "2025-11-25" })),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:STRUCTURED_CONTENT_MISSING"] },
  },
  {
    name: "an isError result may lack structuredContent even when the tool declares an outputSchema",
    exchange: withSchema(jsonCall({ content: [{ type: "text", text: "failed" }], isError: true }, { version: "2025-11-25" })),
    expect: { outcome: "TOOL_ERROR", absentFindingCodes: ["STRUCTURED_CONTENT_MISSING", "ERROR_STRUCTURED_CONTENT_MISMATCH"] },
  },
  {
    name: "an isError result whose structuredContent breaks the outputSchema stays a tool error, with a warning",
    exchange: withSchema(jsonCall({ content: [{ type: "text", text: "failed" }], isError: true, structuredContent: { error: "declined" } }, { version: "2025-11-25" })),
    expect: { outcome: "TOOL_ERROR", findingCodes: ["warning:ERROR_STRUCTURED_CONTENT_MISMATCH"], absentFindingCodes: ["STRUCTURED_CONTENT_MISMATCH"] },
  },
  {
    name: "without an outputSchema in the input, structuredContent is not checked against one",
    exchange: jsonCall({ content: [{ type: "text", text: "x" }], structuredContent: { orderNumber: "one" } }, { version: "2025-11-25" }),
    expect: { outcome: "TOOL_SUCCESS", absentFindingCodes: ["STRUCTURED_CONTENT_MISMATCH", "STRUCTURED_CONTENT_MISSING"] },
  },
  {
    name: "a null result is invalid because an MCP result is an object",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 1, result: null })),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["RESULT_NOT_OBJECT"] },
  },
  {
    name: "a 2025-11-25 task-augmented call answered with a created task is a success",
    exchange: jsonCall(
      { task: { taskId: "t-1", status: "working", createdAt: "2025-11-25T10:00:00Z" } },
      { request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", task: { ttl: 60000 } } } },
    ),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["TASK_CREATED"] },
  },

  // ---- Tasks (SEP-2663, the io.modelcontextprotocol/tasks extension, 2026-07-28) ----
  {
    name: "a 2026-07-28 tools/call answered with a CreateTaskResult is TASK_CREATED, advising to poll tasks/get at its pollIntervalMs",
    exchange: jsonCall({ resultType: "task", ...TASK_2026, status: "working" }, { request: call2026, id: "a1" }),
    expect: {
      outcome: "TASK_CREATED",
      layer: "application",
      decision: "follow-up",
      afterMs: 500,
      code: null,
      findingCodes: ["info:TASK_CREATED"],
      absentFindingCodes: ["RESULT_TYPE_UNKNOWN"],
      retrySpecRef: "SEP-2663 (the io.modelcontextprotocol/tasks extension, 2026-07-28)",
      details: { taskId: "786512e2-9e0d-44bd-8f29-789f320fe840", taskStatus: "working", pollIntervalMs: 500 },
    },
  },
  {
    name: "a CreateTaskResult without a taskId is unusable: INVALID_TOOL_RESULT naming the field",
    exchange: jsonCall({ resultType: "task", status: "working", ttlMs: 1000 }, { request: call2026, id: "a1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:TASK_INVALID"] },
  },
  {
    name: "a CreateTaskResult with an unknown status, or carrying its result already, is flagged",
    exchange: jsonCall({ resultType: "task", ...TASK_2026, status: "done" }, { request: call2026, id: "a1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:TASK_INVALID"] },
  },
  {
    name: "a CreateTaskResult that also carries result gets a warning, and one without pollIntervalMs no afterMs",
    exchange: jsonCall({ resultType: "task", taskId: "t1", status: "working", createdAt: "x", lastUpdatedAt: "x", ttlMs: null, result: { content: [] } }, { request: call2026, id: "a1" }),
    expect: { outcome: "TASK_CREATED", afterMs: null, findingCodes: ["warning:TASK_CREATED_WITH_PAYLOAD"], absentFindingCodes: ["TASK_FIELD_MISSING"] },
  },
  {
    name: "a tasks/get answer of a working task is a success advising to poll again after pollIntervalMs",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "working", pollIntervalMs: 2000 }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "TOOL_SUCCESS", decision: "follow-up", afterMs: 2000, details: { taskStatus: "working", pollIntervalMs: 2000 } },
  },
  {
    name: "a tasks/get answer of an input_required task is INPUT_REQUIRED, advising tasks/update for its keys",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form", message: "Sure?", requestedSchema: { type: "object" } } } } }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "INPUT_REQUIRED", layer: "interaction", decision: "follow-up", inputKeys: ["confirm"], afterMs: 500 },
  },
  {
    name: "an input_required task without inputRequests is invalid",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "input_required" }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:TASK_STATUS_PAYLOAD_INVALID"] },
  },
  {
    name: "a tasks/get answer of a completed task is TOOL_SUCCESS, its CallToolResult judged as the call's own",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "completed", result: { resultType: "complete", content: [{ type: "text", text: "done" }] } }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none", details: { taskStatus: "completed", contentBlocks: 1 } },
  },
  {
    name: "a completed task whose result is a tool error (isError: true) is TOOL_ERROR, advising to show it to the model",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "completed", result: { content: [{ type: "text", text: "boom" }], isError: true } }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "TOOL_ERROR", decision: "tool-semantics", details: { toolErrorText: "boom" } },
  },
  {
    name: "a completed task whose CallToolResult content is not an array is INVALID_TOOL_RESULT",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "completed", result: { content: { type: "text", text: "x" } } }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:CONTENT_NOT_ARRAY"] },
  },
  {
    name: "a tasks/get answer of a failed task is JSONRPC_ERROR with the task's code, advising to stop polling",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "failed", error: { code: -32603, message: "crashed" } }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "JSONRPC_ERROR", layer: "protocol", code: -32603, status: 200, decision: "do-not-retry", details: { taskStatus: "failed" } },
  },
  {
    name: "a failed task without a JSON-RPC error object is invalid",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "failed", error: "crashed" }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["error:TASK_STATUS_PAYLOAD_INVALID"] },
  },
  {
    name: "a tasks/get answer of a cancelled task is a success with no result, advising to stop polling",
    exchange: jsonCall({ resultType: "complete", ...TASK_2026, status: "cancelled", statusMessage: "Cancelled by tasks/cancel" }, { request: tasksGet, id: "g1" }),
    expect: { outcome: "TOOL_SUCCESS", decision: "do-not-retry", findingCodes: ["info:TASK_CANCELLED"], details: { statusMessage: "Cancelled by tasks/cancel" } },
  },
  {
    name: "a 2025-11-25 response with resultType task gets a warning that the extension is 2026-07-28, and is still read as a task",
    exchange: jsonCall({ resultType: "task", ...TASK_2026, status: "working" }, { version: "2025-11-25" }),
    expect: { outcome: "TASK_CREATED", findingCodes: ["warning:TASK_IN_LEGACY_VERSION"] },
  },

  // ---- Protocol versions (issue: input, header, _meta, detection, default) ----
  {
    name: "the protocol version comes from the request's MCP-Protocol-Version header",
    exchange: { request: { headers: { "MCP-Protocol-Version": "2025-06-18" }, body: call1 }, response: { status: 200, headers: JSON_CT, body: ok1 } },
    expect: { outcome: "TOOL_SUCCESS", details: { protocolVersion: "2025-06-18", protocolVersionSource: "header" } },
  },
  {
    name: "the protocol version comes from the request body's _meta protocolVersion",
    exchange: jsonCall({ resultType: "complete", content: [] }, { request: call2026, id: "a1" }),
    expect: { outcome: "TOOL_SUCCESS", details: { protocolVersion: "2026-07-28", protocolVersionSource: "meta" } },
  },
  {
    name: "a result carrying resultType makes the version detected as 2026-07-28",
    exchange: jsonCall({ resultType: "complete", content: [] }),
    expect: { outcome: "TOOL_SUCCESS", details: { protocolVersion: "2026-07-28", protocolVersionSource: "detected" } },
  },
  {
    name: "exchange.protocolVersion wins over the request header",
    exchange: {
      protocolVersion: "2025-06-18",
      request: { headers: { "mcp-protocol-version": "2025-11-25" }, body: call1 },
      response: { status: 200, headers: JSON_CT, body: ok1 },
    },
    expect: { outcome: "TOOL_SUCCESS", details: { protocolVersion: "2025-06-18", protocolVersionSource: "input" } },
  },
  {
    name: "a 2026-07-28 result without resultType is treated as complete with a warning",
    exchange: jsonCall(textResult, { version: "2026-07-28" }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none", findingCodes: ["warning:RESULT_TYPE_MISSING"] },
  },
  {
    name: "a 2025-11-25 result without resultType raises no resultType warning",
    exchange: jsonCall(textResult, { version: "2025-11-25" }),
    expect: { outcome: "TOOL_SUCCESS", absentFindingCodes: ["RESULT_TYPE_MISSING"] },
  },
  {
    name: "a request whose version header and _meta differ is reported",
    exchange: {
      request: { headers: { "MCP-Protocol-Version": "2025-11-25" }, body: call2026 },
      response: { status: 200, headers: JSON_CT, body: JSON.stringify({ jsonrpc: "2.0", id: "a1", result: { resultType: "complete", content: [] } }) },
    },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["REQUEST_VERSION_MISMATCH"], details: { protocolVersionSource: "header", protocolVersion: "2025-11-25" } },
  },
  {
    name: "a version string that is not a date is ignored and the default applies",
    exchange: jsonCall(textResult, { version: "banana" }),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["PROTOCOL_VERSION_UNKNOWN"], details: { protocolVersion: "2025-11-25", protocolVersionSource: "default" } },
  },
  {
    name: "the older 2025-03-26 header is classified under the 2025-06-18 rules",
    exchange: { request: { headers: { "MCP-Protocol-Version": "2025-03-26" }, body: call1 }, response: { status: 200, headers: JSON_CT, body: ok1 } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["PROTOCOL_VERSION_APPROXIMATED"], details: { protocolVersion: "2025-06-18", protocolVersionSource: "header" } },
  },

  // ---- Interaction layer: resultType and MRTR (digest 4) ----
  {
    name: "an unknown resultType is an invalid result",
    exchange: jsonCall({ resultType: "partial", content: [] }),
    expect: { outcome: "INVALID_TOOL_RESULT", decision: "investigate", findingCodes: ["RESULT_TYPE_UNKNOWN"] },
  },
  {
    name: "a resultType that is not a string is an invalid result",
    exchange: jsonCall({ resultType: 1, content: [] }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["RESULT_TYPE_INVALID"] },
  },
  {
    name: "input_required with two input requests and requestState asks for a follow-up listing both keys",
    exchange: jsonCall(
      {
        resultType: "input_required",
        inputRequests: {
          confirm: {
            method: "elicitation/create",
            params: { mode: "form", message: "Confirm prod deploy", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
          },
          summary: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "sum" } }], maxTokens: 100 } },
        },
        requestState: "v1.eyJ...sig",
      },
      { request: call2026, id: "a1" },
    ),
    expect: {
      outcome: "INPUT_REQUIRED",
      layer: "interaction",
      decision: "follow-up",
      inputKeys: ["confirm", "summary"],
      details: { inputRequests: ["confirm", "summary"], requestStatePresent: true, resultType: "input_required" },
    },
  },
  {
    name: "input_required with only requestState (load shedding) is a follow-up with no input keys",
    exchange: jsonCall({ resultType: "input_required", requestState: "opaque" }, { request: call2026, id: "a1" }),
    expect: { outcome: "INPUT_REQUIRED", decision: "follow-up", inputKeys: [] },
  },
  {
    name: "input_required with a roots/list request is a follow-up",
    exchange: jsonCall({ resultType: "input_required", inputRequests: { roots: { method: "roots/list" } } }, { request: call2026, id: "a1" }),
    expect: { outcome: "INPUT_REQUIRED", decision: "follow-up", inputKeys: ["roots"] },
  },
  {
    name: "input_required without inputRequests or requestState is an invalid result",
    exchange: jsonCall({ resultType: "input_required" }, { request: call2026, id: "a1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", decision: "investigate", findingCodes: ["INPUT_REQUIRED_EMPTY"] },
  },
  {
    name: "an input request whose method is tools/call is invalid",
    exchange: jsonCall({ resultType: "input_required", inputRequests: { x: { method: "tools/call", params: {} } } }, { request: call2026, id: "a1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["INPUT_REQUEST_METHOD_INVALID"] },
  },
  {
    name: "a sampling input request without maxTokens is invalid",
    exchange: jsonCall({ resultType: "input_required", inputRequests: { s: { method: "sampling/createMessage", params: { messages: [] } } } }, { request: call2026, id: "a1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["INPUT_REQUEST_PARAMS_INVALID"] },
  },
  {
    name: "a requestState that is not a string is invalid",
    exchange: jsonCall({ resultType: "input_required", requestState: { s: 1 } }, { request: call2026, id: "a1" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["REQUEST_STATE_INVALID"] },
  },
  {
    name: "input_required is not allowed in answer to tools/list",
    exchange: jsonCall(
      { resultType: "input_required", requestState: "s" },
      { request: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META_2026 } } },
    ),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["INPUT_REQUIRED_NOT_ALLOWED"] },
  },
  {
    name: "input_required under an explicit 2025-11-25 version is still a follow-up but flagged",
    exchange: jsonCall({ resultType: "input_required", requestState: "s" }, { version: "2025-11-25" }),
    expect: { outcome: "INPUT_REQUIRED", decision: "follow-up", findingCodes: ["MRTR_IN_LEGACY_VERSION"] },
  },

  // ---- Protocol layer: JSON and the JSON-RPC envelope (digest 5) ----
  {
    name: "a JSON array body is a batch and an invalid envelope",
    exchange: jsonBody(`[${ok1}]`),
    expect: { outcome: "INVALID_ENVELOPE", layer: "protocol", decision: "investigate", findingCodes: ["BATCH_NOT_ALLOWED"] },
  },
  {
    name: "a response id \"1\" for request id 1 is a mismatch because \"1\" is not 1",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: "1", result: textResult })),
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", findingCodes: ["ID_MISMATCH"], details: { id: "1" } },
  },
  {
    name: "a response for id 2 to request id 1 is an id mismatch",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 2, result: textResult })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["ID_MISMATCH"] },
  },
  {
    name: "a result response with a null id is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: null, result: textResult })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["ID_NULL"] },
  },
  {
    name: "an error response with a null id is still a JSON-RPC error, flagged as a spec deviation",
    exchange: jsonBody(errBody(null, -32700, "Parse error")),
    expect: { outcome: "JSONRPC_ERROR", code: -32700, decision: "do-not-retry", findingCodes: ["warning:ID_NULL"], details: { id: null } },
  },
  {
    name: "a response with both result and error is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 1, result: textResult, error: { code: -32603, message: "x" } })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["RESULT_AND_ERROR"] },
  },
  {
    name: "a response with neither result nor error is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 1 })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["NO_RESULT_OR_ERROR"] },
  },
  {
    name: "a response without the jsonrpc member is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ id: 1, result: textResult })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["JSONRPC_MISSING"] },
  },
  {
    name: "jsonrpc \"1.0\" is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "1.0", id: 1, result: textResult })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["JSONRPC_VERSION_INVALID"] },
  },
  {
    name: "a fractional error code is an invalid envelope because codes must be integers",
    exchange: jsonBody(errBody(1, -32601.5, "Method not found")),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["ERROR_CODE_NOT_INTEGER"], code: null },
  },
  {
    name: "an error code given as a string is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: "-32601", message: "Method not found" } })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["ERROR_CODE_NOT_INTEGER"] },
  },
  {
    name: "an error without a message string is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603 } })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["ERROR_MESSAGE_NOT_STRING"] },
  },
  {
    name: "a fractional response id is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 1.5, result: textResult })),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["ID_INVALID_TYPE"] },
  },
  {
    name: "a JSON-RPC notification as the whole body is not a response",
    exchange: jsonBody(log),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["NOT_A_RESPONSE"] },
  },
  {
    name: "a JSON number as the body is not a response object",
    exchange: jsonBody("42"),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["NOT_AN_OBJECT"] },
  },
  {
    // JSON-RPC 2.0 §5: id is REQUIRED in every response, null only when the request id could not be read.
    name: "a 2025-06-18 error response without an id member is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request" } }), 200, call1, "2025-06-18"),
    expect: { outcome: "INVALID_ENVELOPE", layer: "protocol", decision: "investigate", code: null, findingCodes: ["error:ERROR_ID_MISSING"] },
  },
  {
    name: "a 2025-11-25 error response without an id member is an invalid envelope",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "boom" } }), 200, call1, "2025-11-25"),
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", code: null, findingCodes: ["error:ERROR_ID_MISSING"] },
  },
  {
    name: "without a known request id any valid response id is accepted with an info finding",
    exchange: { response: { status: 200, headers: JSON_CT, body: JSON.stringify({ jsonrpc: "2.0", id: "zz", result: textResult }) } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["info:EXPECTED_ID_UNKNOWN"], details: { id: "zz", method: "tools/call" } },
  },
  {
    name: "exchange.expectedId is used when the request body is absent",
    exchange: { expectedId: "abc", response: { status: 200, headers: JSON_CT, body: JSON.stringify({ jsonrpc: "2.0", id: "abc", result: textResult }) } },
    expect: { outcome: "TOOL_SUCCESS", absentFindingCodes: ["EXPECTED_ID_UNKNOWN"], details: { expectedId: "abc" } },
  },
  {
    name: "a request body given as JSON text supplies the expected id",
    exchange: { request: { body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x" } }) }, response: { status: 200, headers: JSON_CT, body: JSON.stringify({ jsonrpc: "2.0", id: 7, result: textResult }) } },
    expect: { outcome: "TOOL_SUCCESS", details: { expectedId: 7, id: 7 } },
  },
  {
    name: "a response body that was already parsed is read as JSON",
    exchange: { request: { body: call1 }, response: { status: 200, body: { jsonrpc: "2.0", id: 1, result: textResult } } },
    expect: { outcome: "TOOL_SUCCESS", absentFindingCodes: ["CONTENT_TYPE_MISSING"], details: { transport: "json" } },
  },
  {
    name: "a body that is not valid JSON is malformed",
    exchange: jsonBody('{"jsonrpc":"2.0","id":1,"result":{'),
    expect: { outcome: "MALFORMED_JSON", layer: "protocol", decision: "investigate", findingCodes: ["MALFORMED_JSON"] },
  },
  {
    name: "an HTML page with status 200 is malformed JSON with the wrong content type",
    exchange: { request: { body: call1 }, response: { status: 200, headers: { "Content-Type": "text/html" }, body: "<html>Bad gateway</html>" } },
    expect: { outcome: "MALFORMED_JSON", findingCodes: ["error:CONTENT_TYPE_INVALID"], details: { transport: "other" } },
  },
  {
    name: "a correct JSON-RPC result labelled text/plain is an invalid envelope, since clients reject that content type",
    exchange: { request: { body: call1 }, response: { status: 200, headers: { "Content-Type": "text/plain" }, body: ok1 } },
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", findingCodes: ["error:CONTENT_TYPE_INVALID"], details: { transport: "other" } },
  },
  {
    name: "-32602 listing supported versions in answer to initialize asks to renegotiate",
    exchange: jsonBody(errBody(1, -32602, "Unsupported protocol version", { supported: ["2025-11-25", "2025-06-18"], requested: "2024-11-05" })),
    expect: { outcome: "JSONRPC_ERROR", decision: "renegotiate", code: -32602, supportedVersions: ["2025-11-25", "2025-06-18"] },
  },
  {
    name: "-32022 that lists the requested version as supported is flagged as a contradiction",
    exchange: status(400, JSON_CT, errBody("a1", -32022, "Unsupported protocol version", { supported: ["2026-07-28"], requested: "2026-07-28" }), h2026, call2026),
    expect: { outcome: "HTTP_ERROR", decision: "renegotiate", findingCodes: ["warning:REJECTED_SUPPORTED_VERSION"] },
  },
  {
    name: "a JSON body without a content type is read as JSON with a warning",
    exchange: { request: { body: call1 }, response: { status: 200, body: ok1 } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["warning:CONTENT_TYPE_MISSING"], details: { transport: "json" } },
  },
  {
    name: "a content type with a charset parameter is still application/json",
    exchange: { request: { body: call1 }, response: { status: 200, headers: { "Content-Type": "application/json; charset=utf-8" }, body: ok1 } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: [] },
  },

  // ---- JSON-RPC errors (digest 3.6) ----
  {
    name: "-32601 method not found is not retried",
    exchange: jsonBody(errBody(1, -32601, "Method not found")),
    expect: { outcome: "JSONRPC_ERROR", layer: "protocol", decision: "do-not-retry", code: -32601, details: { jsonrpcError: { code: -32601, message: "Method not found" } } },
  },
  {
    name: "-32602 invalid params asks the caller to fix the input",
    exchange: jsonBody(errBody(1, -32602, "Unknown tool: invalid_tool_name")),
    expect: { outcome: "JSONRPC_ERROR", decision: "fix-input", code: -32602 },
  },
  {
    name: "-32603 internal error is investigated rather than replayed",
    exchange: jsonBody(errBody(1, -32603, "Internal error")),
    expect: { outcome: "JSONRPC_ERROR", decision: "investigate", code: -32603 },
  },
  {
    name: "-32700 parse error from the server is not retried with the same bytes",
    exchange: jsonBody(errBody(1, -32700, "Parse error")),
    expect: { outcome: "JSONRPC_ERROR", decision: "do-not-retry", code: -32700 },
  },
  {
    name: "-32022 in a 200 body renegotiates with the supported versions and flags the missing 400",
    exchange: jsonBody(errBody("a1", -32022, "Unsupported protocol version", { supported: ["2026-07-28", "2025-11-25"], requested: "1900-01-01" }), 200, call2026),
    expect: {
      outcome: "JSONRPC_ERROR",
      decision: "renegotiate",
      code: -32022,
      supportedVersions: ["2026-07-28", "2025-11-25"],
      findingCodes: ["error:STATUS_CODE_MISMATCH"],
      details: { requestedVersion: "1900-01-01" },
    },
  },
  {
    name: "a legacy -32004 with data.supported renegotiates with a non-conformance warning",
    exchange: jsonBody(errBody(1, -32004, "Unsupported protocol version", { supported: ["2025-11-25"], requested: "2026-07-28" })),
    expect: { outcome: "JSONRPC_ERROR", decision: "renegotiate", supportedVersions: ["2025-11-25"], findingCodes: ["warning:LEGACY_ERROR_CODE"] },
  },
  {
    name: "-32002 resource not found from a 2026 server is accepted but flagged as retired",
    exchange: jsonBody(errBody("a1", -32002, "Resource not found"), 200, call2026),
    expect: { outcome: "JSONRPC_ERROR", decision: "do-not-retry", findingCodes: ["RETIRED_ERROR_CODE"] },
  },
  {
    name: "-32042 URL elicitation required in 2025-11-25 is a follow-up",
    exchange: jsonBody(errBody(1, -32042, "URL elicitation required", { elicitations: [{ mode: "url", elicitationId: "e1", url: "https://x", message: "auth" }] }), 200, call1, "2025-11-25"),
    expect: { outcome: "JSONRPC_ERROR", decision: "follow-up", code: -32042 },
  },
  {
    name: "-32042 from a 2026 server is flagged because 2026 must not emit it",
    exchange: jsonBody(errBody("a1", -32042, "URL elicitation required"), 200, call2026),
    expect: { outcome: "JSONRPC_ERROR", decision: "investigate", findingCodes: ["error:RETIRED_ERROR_CODE"] },
  },
  {
    name: "-32022 under an explicit 2025-11-25 version is flagged as a 2026-only code",
    exchange: jsonBody(errBody(1, -32022, "Unsupported protocol version", { supported: ["2026-07-28"] }), 200, call1, "2025-11-25"),
    expect: { outcome: "JSONRPC_ERROR", decision: "renegotiate", supportedVersions: ["2026-07-28"], findingCodes: ["ERROR_CODE_NOT_IN_VERSION"] },
  },
  {
    name: "an undefined code in the MCP-reserved range from a 2026 server is an error finding",
    exchange: jsonBody(errBody("a1", -32050, "whatever"), 200, call2026),
    expect: { outcome: "JSONRPC_ERROR", decision: "investigate", findingCodes: ["error:RESERVED_ERROR_CODE"] },
  },
  {
    name: "a legacy implementation-defined -32000 has no assumed meaning",
    exchange: jsonBody(errBody(1, -32000, "Server error")),
    expect: { outcome: "JSONRPC_ERROR", decision: "investigate", findingCodes: ["IMPLEMENTATION_DEFINED_CODE"] },
  },

  // ---- Transport layer: HTTP statuses (digest 1.7, 7, 8) ----
  {
    name: "400 with a -32022 body is an HTTP error whose retry follows the body: renegotiate",
    exchange: status(
      400,
      JSON_CT,
      errBody(1, -32022, "Unsupported protocol version", { supported: ["2026-07-28", "2025-11-25"], requested: "2027-01-15" }),
      { "MCP-Protocol-Version": "2027-01-15" },
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", _meta: { "io.modelcontextprotocol/protocolVersion": "2027-01-15" } } },
    ),
    expect: {
      outcome: "HTTP_ERROR",
      layer: "transport",
      status: 400,
      code: -32022,
      decision: "renegotiate",
      supportedVersions: ["2026-07-28", "2025-11-25"],
      findingCodes: ["HTTP_ERROR_BODY"],
      absentFindingCodes: ["STATUS_CODE_MISMATCH"],
    },
  },
  {
    name: "400 with a -32020 header mismatch body asks to fix the input",
    exchange: status(400, JSON_CT, errBody("a1", -32020, "Header mismatch: Mcp-Name header value 'foo' does not match body value 'bar'"), h2026, call2026),
    expect: { outcome: "HTTP_ERROR", status: 400, code: -32020, decision: "fix-input", findingCodes: ["HTTP_ERROR_BODY"] },
  },
  {
    name: "400 with a -32021 missing capability body renegotiates capabilities",
    exchange: status(400, JSON_CT, errBody("a1", -32021, "Missing capability", { requiredCapabilities: { elicitation: {} } }), h2026, call2026),
    expect: { outcome: "HTTP_ERROR", code: -32021, decision: "renegotiate", details: { requiredCapabilities: { elicitation: {} } } },
  },
  {
    name: "400 with -32602 for missing _meta asks to fix the input",
    exchange: status(400, JSON_CT, errBody("a1", -32602, "Missing required _meta field io.modelcontextprotocol/clientCapabilities"), h2026, call2026),
    expect: { outcome: "HTTP_ERROR", code: -32602, decision: "fix-input" },
  },
  {
    name: "400 with an empty body is not retried",
    exchange: status(400),
    expect: { outcome: "HTTP_ERROR", status: 400, decision: "do-not-retry", code: null, details: { transport: "empty" } },
  },
  {
    name: "404 with -32601 from a 2026 server is an HTTP error that is not retried",
    exchange: status(404, JSON_CT, errBody("a1", -32601, "Method not found"), h2026, call2026),
    expect: { outcome: "HTTP_ERROR", status: 404, code: -32601, decision: "do-not-retry", absentFindingCodes: ["STATUS_CODE_MISMATCH"] },
  },
  {
    name: "404 to a legacy request carrying Mcp-Session-Id means the session ended: reinitialize",
    exchange: status(404, {}, "", { "Mcp-Session-Id": "s-123", "MCP-Protocol-Version": "2025-11-25" }),
    expect: { outcome: "HTTP_ERROR", status: 404, decision: "reinitialize" },
  },
  {
    name: "404 without a session id is not retried",
    exchange: status(404, {}, "", { "MCP-Protocol-Version": "2025-11-25" }),
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry" },
  },
  {
    name: "404 to a 2026 request that carried a session id is not a session expiry",
    exchange: status(404, {}, "", { ...h2026, "Mcp-Session-Id": "s-1" }, call2026),
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry", findingCodes: ["SESSION_ID_IGNORED_2026"] },
  },
  {
    name: "405 for a GET on a 2026 endpoint is not retried",
    exchange: status(405),
    expect: { outcome: "HTTP_ERROR", status: 405, decision: "do-not-retry" },
  },
  {
    name: "401 with resource_metadata asks to reauthorize and reports the challenge",
    exchange: status(401, { "WWW-Authenticate": 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"' }),
    expect: {
      outcome: "HTTP_ERROR",
      status: 401,
      decision: "reauthorize",
      absentFindingCodes: ["AUTH_CHALLENGE_MISSING", "RESOURCE_METADATA_MISSING"],
      details: {
        challenge: {
          scheme: "Bearer",
          params: { resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource", scope: "files:read" },
          resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
          scope: "files:read",
        },
      },
    },
  },
  {
    name: "401 without WWW-Authenticate still asks to reauthorize but flags the missing challenge",
    exchange: status(401),
    expect: { outcome: "HTTP_ERROR", decision: "reauthorize", findingCodes: ["AUTH_CHALLENGE_MISSING"] },
  },
  {
    name: "a 2025-06-18 401 challenge without resource_metadata breaks a MUST",
    exchange: status(401, { "www-authenticate": 'Bearer realm="mcp"' }, "", { "MCP-Protocol-Version": "2025-06-18" }),
    expect: { outcome: "HTTP_ERROR", decision: "reauthorize", findingCodes: ["warning:RESOURCE_METADATA_MISSING"] },
  },
  {
    name: "403 with an insufficient_scope challenge asks to reauthorize with step-up scopes",
    exchange: status(403, {
      "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="Additional file write permission required"',
    }),
    expect: {
      outcome: "HTTP_ERROR",
      status: 403,
      decision: "reauthorize",
      findingCodes: ["INSUFFICIENT_SCOPE"],
      details: {
        challenge: {
          scheme: "Bearer",
          params: {
            error: "insufficient_scope",
            scope: "files:read files:write",
            resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
            error_description: "Additional file write permission required",
          },
          resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
          scope: "files:read files:write",
          error: "insufficient_scope",
          errorDescription: "Additional file write permission required",
        },
      },
    },
  },
  {
    name: "403 without a challenge (an invalid Origin) is not retried",
    exchange: status(403, JSON_CT, JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Origin" } })),
    expect: { outcome: "HTTP_ERROR", status: 403, decision: "do-not-retry", code: -32600 },
  },
  {
    name: "408 request timeout is conditionally retried with the default bounded backoff",
    exchange: status(408),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null, maxAttempts: 2, initialBackoffMs: 200 },
  },
  {
    name: "500 with a -32603 body is retried conditionally, once, and reports the body",
    exchange: status(500, JSON_CT, errBody(1, -32603, "Internal error")),
    expect: { outcome: "HTTP_ERROR", status: 500, code: -32603, decision: "conditional", maxAttempts: 1, initialBackoffMs: 200, findingCodes: ["HTTP_ERROR_BODY"] },
  },
  {
    name: "500 whose body is a JSON-RPC success result is still an HTTP error",
    exchange: status(500, JSON_CT, ok1),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", findingCodes: ["HTTP_ERROR_BODY_HAS_RESULT"] },
  },
  {
    name: "502 with an HTML body is conditionally retried and the body noted as not JSON",
    exchange: status(502, { "content-type": "text/html" }, "<html><body>Bad Gateway</body></html>"),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", maxAttempts: 2, initialBackoffMs: 200, findingCodes: ["HTTP_ERROR_BODY_NOT_JSON"] },
  },
  {
    name: "503 without Retry-After is conditional without a wait time",
    exchange: status(503),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null },
  },
  {
    name: "503 with Retry-After 120 waits 120000 ms",
    exchange: status(503, { "Retry-After": "120" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 120000, maxAttempts: 2, initialBackoffMs: 200 },
  },
  {
    name: "504 gateway timeout is conditionally retried",
    exchange: status(504),
    expect: { outcome: "HTTP_ERROR", decision: "conditional" },
  },
  {
    name: "501 not implemented is not retried",
    exchange: status(501),
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry" },
  },
  {
    name: "a 301 redirect that reaches the classifier is investigated",
    exchange: status(301, { Location: "https://elsewhere.example/mcp" }),
    expect: { outcome: "HTTP_ERROR", status: 301, decision: "investigate" },
  },
  {
    name: "429 with Retry-After 5 waits 5000 ms",
    exchange: status(429, { "Retry-After": "5" }),
    expect: { outcome: "HTTP_ERROR", status: 429, decision: "conditional", afterMs: 5000 },
  },
  {
    name: "429 with an HTTP-date Retry-After is measured from the response Date header",
    exchange: status(429, { "Retry-After": DATE_0728_30, Date: DATE_0728 }),
    options: { now: REF_NOW + 10_000 },
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 30000 },
  },
  {
    name: "429 with an HTTP-date Retry-After and no Date header is measured from options.now",
    exchange: status(429, { "Retry-After": DATE_0728_30 }),
    options: { now: REF_NOW + 10_000 },
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 20000 },
  },
  {
    name: "429 with an HTTP-date Retry-After and no clock at all gives no wait time",
    exchange: status(429, { "Retry-After": DATE_0728_30 }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null, findingCodes: ["info:RETRY_AFTER_NO_CLOCK"] },
  },
  {
    name: "429 with an HTTP-date Retry-After in the past waits 0 ms",
    exchange: status(429, { "Retry-After": "Wed, 21 Oct 2026 07:27:00 GMT", Date: DATE_0728 }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 0 },
  },
  {
    name: "503 with an obsolete RFC 850 Retry-After date is still understood",
    exchange: status(503, { "Retry-After": "Wednesday, 21-Oct-26 07:29:00 GMT", Date: DATE_0728 }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 60000 },
  },
  {
    name: "retry-after-ms is preferred over Retry-After when valid",
    exchange: status(429, { "retry-after-ms": "1500", "Retry-After": "10" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 1500 },
  },
  {
    name: "an invalid retry-after-ms falls back to Retry-After with a warning",
    exchange: status(429, { "retry-after-ms": "soon", "Retry-After": "3" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 3000, findingCodes: ["warning:RETRY_AFTER_MS_INVALID"] },
  },
  {
    name: "an invalid Retry-After gives a warning and no wait time",
    exchange: status(429, { "Retry-After": "tomorrow" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null, findingCodes: ["warning:RETRY_AFTER_INVALID"] },
  },
  {
    name: "429 without Retry-After waits the RateLimit field's effective window when its quota is spent (IETF httpapi draft)",
    exchange: status(429, { "RateLimit-Policy": '"default";q=100;w=60', RateLimit: '"default";r=0;t=30' }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 30000 },
  },
  {
    name: "a RateLimit field with two policies waits the longest window among those with no quota left",
    exchange: status(429, { RateLimit: '"burst";r=0;t=5, "daily";r=0;t=3600, "hourly";r=7;t=90000' }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 3_600_000 },
  },
  {
    name: "a RateLimit field with quota left asks for no wait",
    exchange: status(429, { RateLimit: '"default";r=3;t=30' }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null },
  },
  {
    name: "Retry-After takes precedence over the RateLimit field",
    exchange: status(429, { "Retry-After": "2", RateLimit: '"default";r=0;t=30' }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 2000 },
  },
  {
    name: "a malformed RateLimit field is ignored, with an info finding",
    exchange: status(429, { RateLimit: '"default";r=none;t=30' }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null, findingCodes: ["info:RATELIMIT_INVALID"] },
  },
  {
    name: "the older drafts' RateLimit-Remaining 0 with RateLimit-Reset in seconds gives the wait",
    exchange: status(429, { "RateLimit-Limit": "100", "RateLimit-Remaining": "0", "RateLimit-Reset": "45" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 45000 },
  },
  {
    name: "X-RateLimit-Reset as a Unix time is measured from the response Date header",
    exchange: status(429, { "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(Date.parse(DATE_0728) / 1000 + 90), Date: DATE_0728 }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 90000 },
  },
  {
    name: "X-RateLimit-Reset in seconds gives the wait, and none while quota remains",
    exchange: status(503, { "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "12" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 12000 },
  },
  {
    name: "X-RateLimit-Reset with quota remaining asks for no wait",
    exchange: status(429, { "X-RateLimit-Remaining": "4", "X-RateLimit-Reset": "12" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: null },
  },
  {
    name: "413 with Retry-After is conditional with the wait time",
    exchange: status(413, { "Retry-After": "2" }),
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 2000 },
  },
  {
    name: "413 without Retry-After is not retried",
    exchange: status(413),
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry" },
  },

  // ---- Notifications and 202 (digest 1.4) ----
  {
    name: "202 with an empty body for a notification is accepted",
    exchange: { request: { body: { jsonrpc: "2.0", method: "notifications/initialized" } }, response: { status: 202, body: "" } },
    expect: { outcome: "NOTIFICATION_ACCEPTED", layer: "transport", decision: "none", status: 202, findingCodes: [], details: { transport: "empty", method: "notifications/initialized" } },
  },
  {
    name: "a notifications/ method without any id is a notification even without a request body",
    exchange: { method: "notifications/cancelled", response: { status: 202, headers: {}, body: "" } },
    expect: { outcome: "NOTIFICATION_ACCEPTED", decision: "none" },
  },
  {
    name: "202 with no body for a request that expected a response is not success",
    exchange: { request: { body: call1 }, response: { status: 202, body: "" } },
    expect: { outcome: "INVALID_ENVELOPE", layer: "protocol", decision: "investigate", findingCodes: ["error:ACCEPTED_WITHOUT_RESPONSE"] },
  },
  {
    // An empty body declared as application/json fails JSON.parse: malformed JSON, and the response is missing.
    name: "200 with an empty application/json body for a request is malformed JSON with the response missing",
    exchange: { request: { body: call1 }, response: { status: 200, headers: JSON_CT, body: "" } },
    expect: { outcome: "MALFORMED_JSON", layer: "protocol", decision: "investigate", findingCodes: ["error:RESPONSE_MISSING"] },
  },
  {
    name: "200 with an empty body and no content type for a request is a missing response",
    exchange: { request: { body: call1 }, response: { status: 200, headers: {}, body: "" } },
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", findingCodes: ["error:RESPONSE_MISSING"] },
  },
  {
    name: "a notification answered 200 with a body is accepted with warnings",
    exchange: { request: { body: { jsonrpc: "2.0", method: "notifications/initialized" } }, response: { status: 200, headers: JSON_CT, body: "{}" } },
    expect: { outcome: "NOTIFICATION_ACCEPTED", decision: "none", findingCodes: ["NOTIFICATION_STATUS_NOT_202", "NOTIFICATION_HAS_BODY"] },
  },
  {
    name: "a notification rejected with 400 is an HTTP error",
    exchange: { request: { body: { jsonrpc: "2.0", method: "notifications/initialized" } }, response: { status: 400, headers: JSON_CT, body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Bad notification" } }) } },
    expect: { outcome: "HTTP_ERROR", status: 400, decision: "do-not-retry", code: -32600 },
  },
  {
    name: "a legacy client response to a server request answered 202 is accepted",
    exchange: { request: { headers: { "MCP-Protocol-Version": "2025-11-25" }, body: { jsonrpc: "2.0", id: "srv-1", result: { roots: [] } } }, response: { status: 202, body: "" } },
    expect: { outcome: "NOTIFICATION_ACCEPTED", decision: "none", findingCodes: ["CLIENT_RESPONSE_ACCEPTED"] },
  },

  // ---- SSE streams (digest 1.4, 1.5) ----
  {
    name: "an SSE stream with one LF-framed response event is a success",
    exchange: sse(ev(ok1)),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: [], details: { transport: "sse", sse: { events: 1, messages: 1, notifications: 0, progress: 0, logs: 0, serverRequests: 0, comments: 0 } } },
  },
  {
    name: "an SSE stream framed with CRLF is read",
    exchange: sse(`event: message\r\nid: 1\r\ndata: ${ok1}\r\n\r\n`),
    expect: { outcome: "TOOL_SUCCESS" },
  },
  {
    name: "an SSE stream framed with bare CR is read",
    exchange: sse(`data: ${ok1}\r\r`),
    expect: { outcome: "TOOL_SUCCESS" },
  },
  {
    name: "multi-line data fields are joined with newlines into one JSON message",
    exchange: sse('data: {"jsonrpc":"2.0",\ndata: "id":1,\ndata: "result":{"content":[{"type":"text","text":"a"}]}}\n\n'),
    expect: { outcome: "TOOL_SUCCESS", details: { sse: { events: 1, messages: 1, notifications: 0, progress: 0, logs: 0, serverRequests: 0, comments: 0 } } },
  },
  {
    name: "comment lines are ignored",
    exchange: sse(`: keep-alive\n\n:\n${ev(ok1)}`),
    expect: { outcome: "TOOL_SUCCESS", details: { sse: { events: 1, messages: 1, notifications: 0, progress: 0, logs: 0, serverRequests: 0, comments: 2 } } },
  },
  {
    name: "a byte-order mark at the start of the stream is ignored",
    exchange: sse(`\uFEFF${ev(ok1)}`),
    expect: { outcome: "TOOL_SUCCESS" },
  },
  {
    name: "progress and log notifications before the response are skipped and counted",
    exchange: sse(ev(progress(1)) + ev(log) + ev(progress(2)) + ev(ok1), { ...call1, params: { ...call1.params, _meta: { progressToken: "p1" } } }),
    expect: {
      outcome: "TOOL_SUCCESS",
      absentFindingCodes: ["PROGRESS_UNRELATED"],
      details: { sse: { events: 4, messages: 4, notifications: 3, progress: 2, logs: 1, serverRequests: 0, comments: 0 } },
    },
  },
  {
    name: "progress notifications with another request's token are flagged",
    exchange: sse(ev(progress(1)) + ev(ok1), { ...call1, params: { ...call1.params, _meta: { progressToken: "other" } } }),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["warning:PROGRESS_UNRELATED"] },
  },
  {
    name: "two responses for the request id on one stream are an invalid envelope",
    exchange: sse(ev(ok1) + ev(ok1)),
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", findingCodes: ["DUPLICATE_RESPONSE"] },
  },
  {
    name: "a server-to-client request on a 2026 stream is an error finding",
    exchange: sse(
      ev(JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: {} } } })) +
        ev(JSON.stringify({ jsonrpc: "2.0", id: "a1", result: { resultType: "complete", content: [] } })),
      call2026,
      h2026,
    ),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["error:SSE_SERVER_REQUEST"], details: { protocolVersion: "2026-07-28" } },
  },
  {
    name: "a server-to-client request on a 2025-11-25 stream is allowed",
    exchange: sse(
      ev(JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "roots/list" })) + ev(ok1),
      call1,
      { "MCP-Protocol-Version": "2025-11-25" },
    ),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["info:SSE_SERVER_REQUEST"] },
  },
  {
    name: "a stream that ends after progress without the response is incomplete",
    exchange: sse(ev(progress(1)) + ev(progress(2))),
    expect: {
      outcome: "STREAM_INCOMPLETE",
      layer: "transport",
      decision: "conditional",
      afterMs: null,
      maxAttempts: 2,
      initialBackoffMs: 200,
      findingCodes: ["STREAM_ENDED_WITHOUT_RESPONSE"],
    },
  },
  {
    name: "an empty event stream is incomplete",
    exchange: sse(""),
    expect: { outcome: "STREAM_INCOMPLETE", decision: "conditional", findingCodes: ["error:STREAM_ENDED_WITHOUT_RESPONSE"] },
  },
  {
    name: "a 2025-11-25 priming event with retry and no response may be resumed with Last-Event-ID after the retry time",
    exchange: sse(`id: ev-0\nretry: 1500\ndata:\n\n${ev(progress(1))}`, call1, { "MCP-Protocol-Version": "2025-11-25" }),
    expect: {
      outcome: "STREAM_INCOMPLETE",
      decision: "conditional",
      afterMs: 1500,
      findingCodes: ["info:STREAM_ENDED_WITHOUT_RESPONSE", "info:SSE_RESUMABLE"],
      details: { sse: { events: 2, messages: 1, notifications: 1, progress: 1, logs: 0, serverRequests: 0, comments: 0, lastEventId: "ev-0", retryMs: 1500 } },
    },
  },
  {
    name: "a 2026 priming event with retry and no response must be re-issued with a new id",
    exchange: sse(`id: ev-0\nretry: 1500\ndata:\n\n`, call2026, h2026),
    expect: {
      outcome: "STREAM_INCOMPLETE",
      decision: "conditional",
      afterMs: null,
      findingCodes: ["STREAM_ENDED_WITHOUT_RESPONSE", "warning:SSE_RESUME_NOT_SUPPORTED", "SSE_RESUMPTION_FIELDS_2026"],
    },
  },
  {
    name: "a final event without the terminating blank line is not dispatched, so the stream is incomplete",
    exchange: sse(`data: ${ok1}\n`),
    expect: { outcome: "STREAM_INCOMPLETE", findingCodes: ["SSE_UNTERMINATED_EVENT"] },
  },
  {
    name: "an event with a custom type holding the response is ignored, as the SDKs do",
    exchange: sse(`event: response\ndata: ${ok1}\n\n`),
    expect: { outcome: "STREAM_INCOMPLETE", findingCodes: ["SSE_EVENT_TYPE_IGNORED"] },
  },
  {
    name: "a response for another id on the stream is reported while the matching one is used",
    exchange: sse(ev(JSON.stringify({ jsonrpc: "2.0", id: 99, result: textResult })) + ev(ok1)),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["error:ID_MISMATCH"] },
  },
  {
    name: "a stream whose only response has id \"1\" for request id 1 is an invalid envelope",
    exchange: sse(ev(JSON.stringify({ jsonrpc: "2.0", id: "1", result: textResult }))),
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", findingCodes: ["ID_MISMATCH"] },
  },
  {
    name: "an SSE event whose data is not JSON makes the stream malformed",
    exchange: sse(ev('{"jsonrpc":"2.0","id":1,"result":')),
    expect: { outcome: "MALFORMED_JSON", decision: "investigate", findingCodes: ["SSE_DATA_NOT_JSON"] },
  },
  {
    name: "an SSE event carrying a batch array is an invalid envelope",
    exchange: sse(ev(`[${ok1}]`)),
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["BATCH_NOT_ALLOWED"] },
  },
  {
    name: "a JSON-RPC error response on the stream is a JSON-RPC error",
    exchange: sse(ev(progress(1)) + ev(errBody(1, -32602, "Invalid params"))),
    expect: { outcome: "JSONRPC_ERROR", code: -32602, decision: "fix-input", details: { transport: "sse" } },
  },
  {
    name: "an error without an id member on the stream is taken as the answer to the request and is an invalid envelope",
    exchange: sse(ev(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "crashed" } }))),
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", code: null, findingCodes: ["error:ERROR_ID_MISSING"], details: { transport: "sse" } },
  },
  {
    name: "an input_required result on the stream is a follow-up",
    exchange: sse(ev(JSON.stringify({ jsonrpc: "2.0", id: "a1", result: { resultType: "input_required", inputRequests: { c: { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://x" } } } } })), call2026, h2026),
    expect: { outcome: "INPUT_REQUIRED", decision: "follow-up", inputKeys: ["c"], details: { requestStatePresent: false } },
  },
  {
    name: "events after the response are noted because the response should end the stream",
    exchange: sse(ev(ok1) + ev(log)),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["info:SSE_EVENTS_AFTER_RESPONSE"] },
  },
  {
    name: "a stream without a content type is sniffed as SSE with a warning",
    exchange: { request: { body: call1 }, response: { status: 200, body: ev(ok1) } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["CONTENT_TYPE_MISSING"], details: { transport: "sse" } },
  },

  // ---- Other methods (light checks) ----
  {
    name: "a legacy tools/list result is a success",
    exchange: jsonBody(
      JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } }),
      200,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ),
    expect: { outcome: "TOOL_SUCCESS", decision: "none", findingCodes: [], details: { method: "tools/list" } },
  },
  {
    name: "a 2026 tools/list result without ttlMs and cacheScope is flagged",
    exchange: jsonBody(
      JSON.stringify({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", tools: [] } }),
      200,
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META_2026 } },
    ),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["error:TTL_MISSING", "error:CACHE_SCOPE_INVALID"] },
  },
  {
    name: "a complete 2026 tools/list result raises no cache findings",
    exchange: jsonBody(
      JSON.stringify({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", tools: [], ttlMs: 60000, cacheScope: "public" } }),
      200,
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META_2026 } },
    ),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: [] },
  },
  {
    name: "a tools/list result whose tools is not an array is invalid",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: {} } }), 200, { jsonrpc: "2.0", id: 2, method: "tools/list" }),
    expect: { outcome: "INVALID_TOOL_RESULT", findingCodes: ["RESULT_FIELD_INVALID"] },
  },
  {
    name: "an initialize result is a success and its protocolVersion is detected",
    exchange: jsonBody(
      JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } } }),
      200,
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } },
    ),
    expect: { outcome: "TOOL_SUCCESS", details: { protocolVersion: "2025-06-18", protocolVersionSource: "detected" } },
  },
  {
    name: "a ping answered with an empty result is a success",
    exchange: jsonBody(JSON.stringify({ jsonrpc: "2.0", id: 3, result: {} }), 200, { jsonrpc: "2.0", id: 3, method: "ping" }),
    expect: { outcome: "TOOL_SUCCESS", decision: "none" },
  },
  {
    name: "a complete server/discover result is a success",
    exchange: jsonBody(
      JSON.stringify({ jsonrpc: "2.0", id: 4, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, ttlMs: 0, cacheScope: "private" } }),
      200,
      { jsonrpc: "2.0", id: 4, method: "server/discover", params: { _meta: META_2026 } },
    ),
    expect: { outcome: "TOOL_SUCCESS", findingCodes: [] },
  },
  {
    name: "a 2026 response that mints Mcp-Session-Id is flagged",
    exchange: {
      request: { headers: h2026, body: call2026 },
      response: { status: 200, headers: { ...JSON_CT, "Mcp-Session-Id": "s-9" }, body: JSON.stringify({ jsonrpc: "2.0", id: "a1", result: { resultType: "complete", content: [] } }) },
    },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["SESSION_ID_MINTED_2026"] },
  },

  // ---- Inputs that are not exchanges ----
  {
    name: "an exchange without a response is reported rather than thrown",
    exchange: { request: { body: call1 } },
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate", findingCodes: ["INVALID_EXCHANGE"] },
  },
  {
    name: "a status that is not a number is reported rather than thrown",
    exchange: { response: { status: "200", body: ok1 } },
    expect: { outcome: "INVALID_ENVELOPE", findingCodes: ["INVALID_EXCHANGE"] },
  },

  // ---- the same table through the accepted wire shapes: message/http, HAR and the JSON bodies of POST /classify ----
  {
    name: "a curl -si capture of a 503 with Retry-After is an HTTP error to retry after the given seconds",
    via: { kind: "http", text: "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n", params: { expectedId: "1" } },
    expect: { outcome: "HTTP_ERROR", layer: "transport", decision: "conditional", afterMs: 3000, status: 503 },
  },
  {
    name: "a curl -si capture with LF line ends and an SSE body finds the response behind a progress notification",
    via: {
      kind: "http",
      text: `HTTP/1.1 200 OK\ncontent-type: text/event-stream\n\nevent: message\ndata: ${progress(1)}\n\nevent: message\ndata: ${ok1}\n\n`,
      params: { expectedId: "1" },
    },
    expect: { outcome: "TOOL_SUCCESS", decision: "none", details: { transport: "sse" } },
  },
  {
    name: "a curl -si capture that begins with 100 Continue is judged on the final response",
    via: {
      kind: "http",
      text: `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "no" }], isError: true } })}`,
      params: { expectedId: "1" },
    },
    expect: { outcome: "TOOL_ERROR", decision: "tool-semantics", status: 200 },
  },
  {
    name: "a quoted expectedId in the message/http parameters is the string \"1\", which does not match the numeric id 1",
    via: { kind: "http", text: `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${ok1}`, params: { expectedId: '"1"' } },
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate" },
  },
  {
    name: "a HAR entry's JSON-RPC request gives the expected id, so a wrong id in its response is an invalid envelope",
    via: { kind: "har", doc: har([[call1, 200, JSON.stringify({ jsonrpc: "2.0", id: 2, result: textResult })]]), index: 0 },
    expect: { outcome: "INVALID_ENVELOPE", decision: "investigate" },
  },
  {
    name: "a HAR entry for a notification answered 202 is an accepted notification",
    via: { kind: "har", doc: har([[call1, 200, ok1], [{ jsonrpc: "2.0", method: "notifications/initialized" }, 202, ""]]), index: 1 },
    expect: { outcome: "NOTIFICATION_ACCEPTED", decision: "none" },
  },
  {
    name: "a HAR entry with a 2026-07-28 input_required result asks for a follow-up naming its keys",
    via: {
      kind: "har",
      doc: har([[call2026, 200, JSON.stringify({ jsonrpc: "2.0", id: "a1", result: { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: {} } } } }, requestState: "s1" } })]]),
      index: 0,
    },
    expect: { outcome: "INPUT_REQUIRED", layer: "interaction", decision: "follow-up", inputKeys: ["confirm"] },
  },
  {
    name: "the flat JSON form with an already-parsed body is classified like the raw text",
    via: { kind: "json", value: { status: 200, headers: JSON_CT, body: { jsonrpc: "2.0", id: 1, result: textResult }, expectedId: 1 } },
    expect: { outcome: "TOOL_SUCCESS", decision: "none" },
  },
  {
    name: "an array of exchanges keeps its order: its second element, a 429 with an HTTP-date, waits until that date",
    via: {
      kind: "json",
      value: [
        { status: 200, body: ok1, expectedId: 1 },
        { status: 429, headers: { "retry-after": "Mon, 30 Nov 2026 00:00:10 GMT", date: "Mon, 30 Nov 2026 00:00:00 GMT" }, body: "" },
      ],
      index: 1,
    },
    expect: { outcome: "HTTP_ERROR", decision: "conditional", afterMs: 10_000, status: 429 },
  },
  // Issue 29 (a): 2026-07-28 streamable-http "Backward Compatibility": a 400 without -32020/-32021/-32022 means the
  // server predates 2026-07-28; the client falls back to initialize.
  {
    name: "a 2026-07-28 request answered 400 with a legacy -32000 body advises falling back to initialize",
    exchange: {
      request: { headers: h2026, body: call2026 },
      response: { status: 400, headers: JSON_CT, body: errBody(null, -32000, "Bad Request: Server not initialized") },
    },
    expect: {
      outcome: "HTTP_ERROR",
      layer: "transport",
      status: 400,
      decision: "legacy-fallback",
      code: -32000,
      retrySpecRef: "2026-07-28 basic/transports/streamable-http#backward-compatibility",
      details: { protocolVersion: "2026-07-28" },
    },
  },
  {
    name: "a 2026-07-28 request answered 400 with a plain-text body advises falling back to initialize",
    exchange: { request: { headers: h2026, body: call2026 }, response: { status: 400, headers: { "content-type": "text/plain" }, body: "Bad Request" } },
    expect: { outcome: "HTTP_ERROR", layer: "transport", status: 400, decision: "legacy-fallback" },
  },
  {
    name: "a 2026-07-28 request answered 400 with -32022 renegotiates and does not fall back",
    exchange: {
      request: { headers: h2026, body: call2026 },
      response: { status: 400, headers: JSON_CT, body: errBody("a1", -32022, "Unsupported protocol version", { supported: ["2026-07-28"], requested: "2026-07-28" }) },
    },
    expect: { outcome: "HTTP_ERROR", decision: "renegotiate" },
  },
  {
    name: "a 2025-11-25 request answered 400 with -32000 stays do-not-retry: there is no older handshake to fall back to",
    exchange: {
      request: { headers: { "MCP-Protocol-Version": "2025-11-25" }, body: call1 },
      response: { status: 400, headers: JSON_CT, body: errBody(null, -32000, "Bad Request") },
    },
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry" },
  },
  // Issue 29 (b): 2025-11-25 transports, "Sending Messages to the Server": the server's request on the stream waits
  // for the client's POSTed answer, so the step after a cut is to answer it.
  {
    name: "a 2025-11-25 stream cut while the server's elicitation/create waits advises answering it",
    exchange: sse(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: { message: "Proceed?", requestedSchema: { type: "object", properties: {} } } })}\n\n`, call1, { "MCP-Protocol-Version": "2025-11-25" }),
    expect: {
      outcome: "STREAM_INCOMPLETE",
      layer: "transport",
      decision: "answer-server-request",
      pendingRequests: [{ method: "elicitation/create", id: 0 }],
      retrySpecRef: "2025-11-25 basic/transports#sending-messages-to-the-server",
    },
  },
  {
    name: "a 2025-11-25 stream with an event id cut while the server's sampling/createMessage waits advises answering before resuming",
    exchange: sse(`id: e1\ndata: \n\nid: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } })}\n\n`, call1, { "MCP-Protocol-Version": "2025-11-25" }),
    expect: { outcome: "STREAM_INCOMPLETE", decision: "answer-server-request" },
  },
  {
    name: "a 2025-06-18 stream cut while the server's roots/list waits advises answering it",
    exchange: sse(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "roots/list" })}\n\n`, call1, { "MCP-Protocol-Version": "2025-06-18" }),
    expect: { outcome: "STREAM_INCOMPLETE", decision: "answer-server-request" },
  },
  {
    name: "a 2026-07-28 stream cut after a server request stays a re-issue: 2026 servers MUST NOT send requests",
    exchange: sse(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} })}\n\n`, call2026, h2026),
    expect: { outcome: "STREAM_INCOMPLETE", decision: "conditional", findingCodes: ["error:SSE_SERVER_REQUEST"] },
  },
  // Issue 29, non-compliance: 2025-11-25 server/tools "Error Handling": an unknown tool is -32602, a protocol error.
  {
    name: "an unknown tool answered -32601 is flagged and advised fix-input, not do-not-retry",
    exchange: jsonBody(errBody(1, -32601, "MCP error -32601: Unknown tool: no_such_tool")),
    expect: { outcome: "JSONRPC_ERROR", layer: "protocol", code: -32601, decision: "fix-input", findingCodes: ["warning:UNKNOWN_TOOL_AS_METHOD_NOT_FOUND"] },
  },
  {
    name: "-32601 to a method other than tools/call stays do-not-retry without the unknown-tool finding",
    exchange: jsonBody(errBody(1, -32601, "Method not found"), 200, { jsonrpc: "2.0", id: 1, method: "prompts/list" }),
    expect: { outcome: "JSONRPC_ERROR", decision: "do-not-retry", absentFindingCodes: ["UNKNOWN_TOOL_AS_METHOD_NOT_FOUND"] },
  },
  {
    name: "an unknown tool sent as an isError result is flagged as breaking the unknown-tool rule",
    exchange: jsonCall({ content: [{ type: "text", text: "MCP error -32602: Tool no_such_tool not found" }], isError: true }),
    expect: { outcome: "TOOL_ERROR", layer: "application", decision: "tool-semantics", findingCodes: ["warning:UNKNOWN_TOOL_AS_TOOL_ERROR"] },
  },
  {
    name: "an ordinary tool error carries no unknown-tool finding",
    exchange: jsonCall({ content: [{ type: "text", text: "Payment declined" }], isError: true }),
    expect: { outcome: "TOOL_ERROR", absentFindingCodes: ["UNKNOWN_TOOL_AS_TOOL_ERROR"] },
  },
  // Issue 29, the request's HTTP method: 2025-11-25 transports, "Listening for Messages from the Server" and
  // "Session Management".
  {
    name: "a GET standby stream carrying a notification is open, not incomplete",
    exchange: {
      request: { method: "GET", headers: { "Mcp-Session-Id": "s1", "MCP-Protocol-Version": "2025-11-25" } },
      response: { status: 200, headers: SSE_CT, body: `data: ${log}\n\n` },
    },
    expect: { outcome: "STREAM_OPEN", layer: "transport", decision: "none", absentFindingCodes: ["STREAM_ENDED_WITHOUT_RESPONSE", "EXPECTED_ID_UNKNOWN"] },
  },
  {
    name: "an empty GET standby stream is open, not incomplete",
    exchange: { request: { method: "get" }, response: { status: 200, headers: SSE_CT, body: "" } },
    expect: { outcome: "STREAM_OPEN", decision: "none", details: { method: "GET" } },
  },
  {
    name: "a GET answered 204 is flagged and read as 405: do not reopen the stream",
    exchange: { request: { method: "GET", headers: { "Mcp-Session-Id": "s1" } }, response: { status: 204, body: "" } },
    expect: { outcome: "INVALID_ENVELOPE", decision: "do-not-retry", findingCodes: ["warning:GET_WITHOUT_STREAM"] },
  },
  {
    name: "a GET resuming with Last-Event-ID whose stream holds the response is judged as that response",
    exchange: { request: { method: "GET", headers: { "Last-Event-ID": "e1" } }, response: { status: 200, headers: SSE_CT, body: `id: e2\ndata: ${ok1}\n\n` }, expectedId: 1 },
    expect: { outcome: "TOOL_SUCCESS", decision: "none" },
  },
  {
    name: "a GET stream carrying a response without resuming is flagged",
    exchange: { request: { method: "GET" }, response: { status: 200, headers: SSE_CT, body: `data: ${ok1}\n\n` } },
    expect: { outcome: "STREAM_OPEN", findingCodes: ["error:GET_STREAM_RESPONSE"] },
  },
  {
    name: "a DELETE answered 200 ends the session",
    exchange: { request: { method: "DELETE", headers: { "Mcp-Session-Id": "s1" } }, response: { status: 200, body: "" } },
    expect: { outcome: "SESSION_ENDED", layer: "transport", decision: "none", findingCodes: [] },
  },
  {
    name: "a DELETE answered 202 ends the session",
    exchange: { request: { method: "DELETE", headers: { "Mcp-Session-Id": "s1" } }, response: { status: 202, body: "" } },
    expect: { outcome: "SESSION_ENDED", decision: "none" },
  },
  {
    name: "a DELETE answered 204 ends the session",
    exchange: { request: { method: "DELETE", headers: { "Mcp-Session-Id": "s1" } }, response: { status: 204, body: "" } },
    expect: { outcome: "SESSION_ENDED", decision: "none" },
  },
  {
    name: "a DELETE answered 405 is an HTTP error: the server does not let clients end sessions",
    exchange: { request: { method: "DELETE", headers: { "Mcp-Session-Id": "s1" } }, response: { status: 405, body: "" } },
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry" },
  },
  // Issue 29, the raw path carries the request.
  {
    name: "raw: a 202 to a POST that carried the client's JSON-RPC response is accepted when the request is given",
    via: {
      kind: "http",
      text: "HTTP/1.1 202 Accepted\r\nMcp-Session-Id: s1\r\n\r\n",
      request: `POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n${JSON.stringify({ jsonrpc: "2.0", id: 0, result: { action: "accept" } })}`,
    },
    expect: { outcome: "NOTIFICATION_ACCEPTED", layer: "transport", decision: "none", findingCodes: ["info:CLIENT_RESPONSE_ACCEPTED"] },
  },
  {
    name: "raw: a 404 with the session id given advises re-initialize",
    via: { kind: "http", text: "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\nSession not found", params: { sessionId: "s-gone" } },
    expect: { outcome: "HTTP_ERROR", status: 404, decision: "reinitialize" },
  },
  {
    name: "raw: an empty GET stream with the HTTP method given is open, not incomplete",
    via: { kind: "http", text: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", params: { httpMethod: "GET" } },
    expect: { outcome: "STREAM_OPEN", decision: "none" },
  },
  {
    name: "raw: a 200 DELETE with the HTTP method given ends the session",
    via: { kind: "http", text: "HTTP/1.1 200 OK\r\n\r\n", params: { httpMethod: "DELETE", sessionId: "s1" } },
    expect: { outcome: "SESSION_ENDED", decision: "none" },
  },
  {
    name: "raw: a request followed by its response in one text is read as both",
    via: {
      kind: "http",
      text: `POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: ${JSON.stringify(call2026).length}\r\n\r\n${JSON.stringify(call2026)}HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n${errBody(null, -32000, "Bad Request: Server not initialized")}`,
    },
    expect: { outcome: "HTTP_ERROR", decision: "legacy-fallback", details: { expectedId: "a1", protocolVersion: "2026-07-28" } },
  },
  {
    name: "raw: curl -v output gives the request's headers beside the response",
    via: {
      kind: "http",
      text: [
        "*   Trying 127.0.0.1:8787...",
        "> POST /mcp HTTP/1.1",
        "> Host: 127.0.0.1:8787",
        "> MCP-Protocol-Version: 2026-07-28",
        "> Content-Type: application/json",
        ">",
        "< HTTP/1.1 400 Bad Request",
        "< Content-Type: text/plain",
        "<",
        "Bad Request",
        "* Connection #0 to host 127.0.0.1 left intact",
      ].join("\r\n"),
    },
    expect: { outcome: "HTTP_ERROR", status: 400, decision: "legacy-fallback" },
  },
  // Issue 29, more non-compliance, each flagged with the rule and what to do anyway.
  {
    name: "an unknown session answered 400 naming the session is flagged and advised re-initialize (2025-11-25 session management: 404)",
    exchange: {
      request: { headers: { "Mcp-Session-Id": "gone", "MCP-Protocol-Version": "2025-11-25" }, body: call1 },
      response: { status: 400, headers: JSON_CT, body: errBody(null, -32000, "Bad Request: No valid session ID provided") },
    },
    expect: { outcome: "HTTP_ERROR", status: 400, decision: "reinitialize", findingCodes: ["warning:UNKNOWN_SESSION_AS_400"] },
  },
  // Issue 25: session expiry as real servers answer it (session.expire_after's variants), each with what a client can conclude.
  ...(() => {
    const onSession = { "Mcp-Session-Id": "gone", "MCP-Protocol-Version": "2025-11-25" };
    const answered = (status: number, body: string, headers: Record<string, string> = JSON_CT) => ({ request: { headers: onSession, body: call1 }, response: { status, headers, body } });
    return [
      {
        name: "session expiry as 404 with -32001 (the SDK transports' answer) is a session gone: reinitialize",
        exchange: answered(404, errBody(1, -32001, "Session not found")),
        expect: { outcome: "HTTP_ERROR" as const, status: 404, code: -32001, decision: "reinitialize" as const },
      },
      {
        name: "session expiry as 404 with -32600 is a session gone: reinitialize",
        exchange: answered(404, errBody(1, -32600, "Session not found: the Mcp-Session-Id has expired")),
        expect: { outcome: "HTTP_ERROR" as const, status: 404, code: -32600, decision: "reinitialize" as const },
      },
      {
        name: "session expiry as a 404 HTML page is a session gone: reinitialize, the body noted as not JSON",
        exchange: answered(404, "<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>", { "content-type": "text/html" }),
        expect: { outcome: "HTTP_ERROR" as const, status: 404, decision: "reinitialize" as const },
      },
      {
        name: "session expiry as a 404 with no body is a session gone: reinitialize",
        exchange: answered(404, "", {}),
        expect: { outcome: "HTTP_ERROR" as const, status: 404, decision: "reinitialize" as const },
      },
      {
        name: "session expiry as 401 \"Session not found\" without a Bearer challenge is a session gone, not a token problem: reinitialize, flagged",
        exchange: answered(401, errBody(1, -32001, "Session not found")),
        expect: { outcome: "HTTP_ERROR" as const, status: 401, decision: "reinitialize" as const, findingCodes: ["warning:UNKNOWN_SESSION_AS_401"], absentFindingCodes: ["AUTH_CHALLENGE_MISSING"] },
      },
      {
        name: "a 401 with a Bearer challenge stays an auth answer even when its body names the session: reauthorize",
        exchange: answered(401, errBody(1, -32001, "Session not found"), { ...JSON_CT, "www-authenticate": 'Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource"' }),
        expect: { outcome: "HTTP_ERROR" as const, status: 401, decision: "reauthorize" as const, absentFindingCodes: ["UNKNOWN_SESSION_AS_401"] },
      },
      {
        name: "a 401 without a challenge whose body says nothing of the session stays an auth answer: reauthorize",
        exchange: answered(401, errBody(1, -32600, "Unauthorized")),
        expect: { outcome: "HTTP_ERROR" as const, status: 401, decision: "reauthorize" as const, absentFindingCodes: ["UNKNOWN_SESSION_AS_401"] },
      },
      {
        name: "session expiry as 410 Gone is a session gone: reinitialize, flagged",
        exchange: answered(410, errBody(1, -32600, "Gone: the session has expired")),
        expect: { outcome: "HTTP_ERROR" as const, status: 410, decision: "reinitialize" as const, findingCodes: ["warning:UNKNOWN_SESSION_AS_410"] },
      },
      {
        name: "a 409 to a request carrying a session id does not say the session ended: do-not-retry, noted",
        exchange: answered(409, errBody(1, -32600, "Conflict: the session is no longer active")),
        expect: { outcome: "HTTP_ERROR" as const, status: 409, decision: "do-not-retry" as const, findingCodes: ["info:SESSION_CONFLICT_409"] },
      },
      {
        name: "410 without a session id is not read as a session gone",
        exchange: { request: { headers: { "MCP-Protocol-Version": "2025-11-25" }, body: call1 }, response: { status: 410, headers: JSON_CT, body: errBody(1, -32600, "Gone") } },
        expect: { outcome: "HTTP_ERROR" as const, status: 410, decision: "do-not-retry" as const, absentFindingCodes: ["UNKNOWN_SESSION_AS_410"] },
      },
    ];
  })(),
  {
    name: "a 400 to a request with a session id whose body is not about the session stays do-not-retry",
    exchange: {
      request: { headers: { "Mcp-Session-Id": "s1", "MCP-Protocol-Version": "2025-11-25" }, body: call1 },
      response: { status: 400, headers: JSON_CT, body: errBody(null, -32000, "Bad Request: body too deep") },
    },
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry", absentFindingCodes: ["UNKNOWN_SESSION_AS_400"] },
  },
  {
    name: "a 2026-07-28 server without server/discover (404 and -32601) is flagged",
    exchange: {
      request: { headers: { "MCP-Protocol-Version": "2026-07-28" }, body: { jsonrpc: "2.0", id: "d1", method: "server/discover", params: { _meta: META_2026 } } },
      response: { status: 404, headers: JSON_CT, body: errBody("d1", -32601, "Method not found") },
    },
    expect: { outcome: "HTTP_ERROR", decision: "do-not-retry", findingCodes: ["warning:DISCOVER_NOT_IMPLEMENTED"] },
  },
  {
    name: "a 2026-07-28 server answering server/discover with -32601 at 200 is flagged too",
    exchange: {
      request: { headers: { "MCP-Protocol-Version": "2026-07-28" }, body: { jsonrpc: "2.0", id: "d1", method: "server/discover", params: { _meta: META_2026 } } },
      response: { status: 200, headers: JSON_CT, body: errBody("d1", -32601, "Method not found") },
    },
    expect: { outcome: "JSONRPC_ERROR", findingCodes: ["warning:DISCOVER_NOT_IMPLEMENTED"] },
  },
  {
    name: "a request with Accept: text/html that the server served anyway is flagged",
    exchange: { request: { headers: { Accept: "text/html" }, body: call1 }, response: { status: 200, headers: JSON_CT, body: ok1 } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["warning:ACCEPT_NOT_HONOURED"] },
  },
  {
    name: "a request whose Accept lists both JSON and SSE carries no Accept finding",
    exchange: { request: { headers: { Accept: "application/json, text/event-stream" }, body: call1 }, response: { status: 200, headers: JSON_CT, body: ok1 } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: [] },
  },
  {
    name: "a 2026-07-28 result without resultType is flagged even without the request, from its 2026-only _meta",
    exchange: { response: { status: 200, headers: JSON_CT, body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [], _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } } } }) } },
    expect: { outcome: "TOOL_SUCCESS", findingCodes: ["warning:RESULT_TYPE_MISSING"], details: { protocolVersion: "2026-07-28", protocolVersionSource: "detected" } },
  },
];

/** A HAR 1.2 document with one entry per [request body, status, response text]. */
function har(entries: [unknown, number, string][]): unknown {
  return {
    log: {
      version: "1.2",
      creator: { name: "faultline-table", version: "1" },
      entries: entries.map(([request, status, text]) => ({
        startedDateTime: "2026-11-30T00:00:00.000Z",
        time: 1,
        request: { method: "POST", url: "http://127.0.0.1/mcp", httpVersion: "HTTP/1.1", headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: -1, postData: { mimeType: "application/json", text: JSON.stringify(request) } },
        response: { status, statusText: "", httpVersion: "HTTP/1.1", headers: [], cookies: [], content: { size: text.length, mimeType: status === 202 ? "" : "application/json", text }, redirectURL: "", headersSize: -1, bodySize: -1 },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      })),
    },
  };
}
