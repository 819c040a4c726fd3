import { checkContentBlock } from "./content.ts";
import { schemaMismatch } from "./json-schema.ts";
import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import { has, isRecord, show, typeName } from "./json.ts";
import type { RequestInfo } from "./request.ts";
import type { ProtocolVersion } from "./verdict.ts";
import type { VersionSource } from "./version.ts";
import { isModern } from "./version.ts";
import { createdTaskNotes, readTask, taskError, type TaskFacts } from "./task-result.ts";

export interface ResultContext {
  version: ProtocolVersion;
  versionSource: VersionSource;
  request: RequestInfo;
  findings: Findings;
}

/** The result layer's answer; problems are already recorded as error findings. */
export type ResultOutcome =
  | { outcome: "TOOL_SUCCESS" | "TOOL_ERROR"; details: Record<string, unknown> }
  | { outcome: "INPUT_REQUIRED"; inputKeys: string[]; requestState: boolean; details: Record<string, unknown> }
  | { outcome: "INVALID_TOOL_RESULT"; problem: string; details: Record<string, unknown> }
  /** SEP-2663: the request was answered with a task (CreateTaskResult) instead of its result. */
  | { outcome: "TASK_CREATED"; task: TaskFacts; details: Record<string, unknown> }
  /** SEP-2663: a tasks/get answer, the task as it stands (the message layer picks the outcome per status). */
  | { outcome: "TASK_STATUS"; task: TaskFacts; inputKeys: string[]; error?: { code: number; message: string; data?: unknown }; details: Record<string, unknown> };

const INPUT_METHODS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);
const MRTR_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

// The field each method's result cannot do without; a missing one makes the result unusable.
const REQUIRED_FIELDS: Readonly<Record<string, readonly (readonly [string, "array" | "object" | "string"])[]>> = {
  "tools/list": [["tools", "array"]],
  "prompts/list": [["prompts", "array"]],
  "resources/list": [["resources", "array"]],
  "resources/templates/list": [["resourceTemplates", "array"]],
  "prompts/get": [["messages", "array"]],
  "resources/read": [["contents", "array"]],
  "completion/complete": [["completion", "object"]],
  initialize: [
    ["protocolVersion", "string"],
    ["capabilities", "object"],
    ["serverInfo", "object"],
  ],
  "server/discover": [
    ["supportedVersions", "array"],
    ["capabilities", "object"],
  ],
};

function isKind(value: unknown, kind: "array" | "object" | "string"): boolean {
  if (kind === "array") return Array.isArray(value);
  if (kind === "object") return isRecord(value);
  return typeof value === "string";
}

function explicitLegacy(ctx: ResultContext): boolean {
  return !isModern(ctx.version) && ctx.versionSource !== "detected" && ctx.versionSource !== "default";
}

function invalid(ctx: ResultContext, code: string, message: string, specRef: string | undefined, details: Record<string, unknown>): ResultOutcome {
  ctx.findings.error(code, message, specRef);
  return { outcome: "INVALID_TOOL_RESULT", problem: message, details };
}

/** Classifies a JSON-RPC `result`: resultType, MRTR input requests, then the method's own shape. */
export function classifyResult(result: unknown, ctx: ResultContext): ResultOutcome {
  const details: Record<string, unknown> = {};
  const modern = isModern(ctx.version);
  const ref = modern ? SpecRef.s26ResultType : SpecRef.s1125ToolResult;
  if (!isRecord(result)) return invalid(ctx, "RESULT_NOT_OBJECT", `result is ${typeName(result)}; an MCP result MUST be an object.`, ref, details);

  const resultType = result.resultType;
  if (resultType === undefined) {
    if (modern) {
      ctx.findings.warning(
        "RESULT_TYPE_MISSING",
        'The result has no resultType; 2026-07-28 servers MUST send it. Clients treat an absent resultType as "complete".',
        SpecRef.s26ResultType,
      );
    }
  } else {
    details.resultType = resultType;
    if (typeof resultType !== "string") {
      return invalid(ctx, "RESULT_TYPE_INVALID", `resultType is ${typeName(resultType)}; it MUST be a string.`, SpecRef.s26ResultType, details);
    }
    if (resultType === "input_required") return inputRequired(result, ctx, details);
    if (resultType === "task") return createdTask(result, ctx, details);
    if (resultType !== "complete") {
      return invalid(ctx, "RESULT_TYPE_UNKNOWN", `resultType ${show(resultType)} is not recognized; an unrecognized resultType MUST be considered invalid.`, SpecRef.s26ResultType, details);
    }
    if (explicitLegacy(ctx)) {
      ctx.findings.info("RESULT_TYPE_UNEXPECTED", `resultType is a 2026-07-28 field; a ${ctx.version} client ignores it.`);
    }
  }
  if (ctx.request.method === "tasks/get") return taskStatus(result, ctx, details);
  return ctx.request.method === "tools/call" ? callToolResult(result, ctx, details) : otherResult(result, ctx, details);
}

function createdTask(result: Record<string, unknown>, ctx: ResultContext, details: Record<string, unknown>): ResultOutcome {
  if (explicitLegacy(ctx)) {
    ctx.findings.warning("TASK_IN_LEGACY_VERSION", `resultType "task" is the 2026-07-28 tasks extension; a ${ctx.version} client does not understand it.`, SpecRef.s26Tasks);
  }
  const task = readTask(result, ctx.findings, "A CreateTaskResult");
  if ("problem" in task) return { outcome: "INVALID_TOOL_RESULT", problem: task.problem, details };
  createdTaskNotes(result, ctx.findings);
  Object.assign(details, { taskId: task.taskId, taskStatus: task.status, ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}) });
  ctx.findings.info("TASK_CREATED", `The server answered ${ctx.request.method} with task ${show(task.taskId, 80)} (${task.status}) instead of its result.`, SpecRef.s26Tasks);
  return { outcome: "TASK_CREATED", task, details };
}

/** A tasks/get answer: the Task fields, then what its status carries (inputRequests, result or error). */
function taskStatus(result: Record<string, unknown>, ctx: ResultContext, details: Record<string, unknown>): ResultOutcome {
  const task = readTask(result, ctx.findings, "A tasks/get answer");
  if ("problem" in task) return { outcome: "INVALID_TOOL_RESULT", problem: task.problem, details };
  Object.assign(details, { taskId: task.taskId, taskStatus: task.status, ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}) });
  if (typeof result.statusMessage === "string") details.statusMessage = result.statusMessage.slice(0, 500);
  const bad = (message: string) => invalid(ctx, "TASK_STATUS_PAYLOAD_INVALID", message, SpecRef.s26Tasks, details);
  if (task.status === "input_required") {
    const requests = result.inputRequests;
    if (!isRecord(requests)) return bad(`An input_required task MUST carry inputRequests (an object keyed by name); got ${typeName(requests)}.`);
    const keys = Object.keys(requests);
    const problems = keys.flatMap((key) => inputRequestProblems(key, requests[key], ctx.findings));
    if (problems[0] !== undefined) return bad(problems[0].message);
    details.inputRequests = keys;
    return { outcome: "TASK_STATUS", task, inputKeys: keys, details };
  }
  if (task.status === "failed") {
    const error = taskError(result);
    if (error === undefined) return bad(`A failed task MUST carry error, a JSON-RPC error object with an integer code and a message; got ${typeName(result.error)}.`);
    details.jsonrpcError = error;
    return { outcome: "TASK_STATUS", task, inputKeys: [], error, details };
  }
  if (task.status === "completed") {
    if (!isRecord(result.result)) return bad(`A completed task MUST carry result (an object); got ${typeName(result.result)}.`);
    // A tool's task ends with a CallToolResult: judged as the call's own result would be.
    if (has(result.result, "content")) {
      const inner = callToolResult(result.result, ctx, details);
      if (inner.outcome === "INVALID_TOOL_RESULT") return inner;
    }
  }
  return { outcome: "TASK_STATUS", task, inputKeys: [], details };
}

function inputRequired(result: Record<string, unknown>, ctx: ResultContext, details: Record<string, unknown>): ResultOutcome {
  const { findings } = ctx;
  if (explicitLegacy(ctx)) {
    findings.warning("MRTR_IN_LEGACY_VERSION", `input_required is 2026-07-28 MRTR; a ${ctx.version} client does not understand it.`, SpecRef.s26Mrtr);
  }
  if (!MRTR_METHODS.has(ctx.request.method)) {
    return invalid(ctx, "INPUT_REQUIRED_NOT_ALLOWED", `Servers MUST NOT return input_required for ${ctx.request.method}; only tools/call, prompts/get and resources/read may.`, SpecRef.s26Mrtr, details);
  }
  const hasRequests = has(result, "inputRequests");
  const hasState = has(result, "requestState");
  if (!hasRequests && !hasState) {
    return invalid(ctx, "INPUT_REQUIRED_EMPTY", "An input_required result MUST include at least one of inputRequests or requestState.", SpecRef.s26Mrtr, details);
  }
  if (hasState && typeof result.requestState !== "string") {
    return invalid(ctx, "REQUEST_STATE_INVALID", `requestState is ${typeName(result.requestState)}; it MUST be an opaque string.`, SpecRef.s26Mrtr, details);
  }
  let keys: string[] = [];
  if (hasRequests) {
    const requests = result.inputRequests;
    if (!isRecord(requests)) {
      return invalid(ctx, "INPUT_REQUESTS_INVALID", `inputRequests is ${typeName(requests)}; it MUST be an object keyed by server-chosen names.`, SpecRef.s26Mrtr, details);
    }
    keys = Object.keys(requests);
    details.inputRequests = keys;
    const problems = keys.flatMap((key) => inputRequestProblems(key, requests[key], findings));
    const first = problems[0];
    if (first !== undefined) {
      for (const p of problems) findings.error(p.code, p.message, SpecRef.s26Mrtr);
      return { outcome: "INVALID_TOOL_RESULT", problem: first.message, details };
    }
    if (keys.length === 0 && !hasState) {
      findings.warning("INPUT_REQUESTS_EMPTY", "inputRequests is empty and there is no requestState; the retry carries nothing new.", SpecRef.s26Mrtr);
    }
  }
  details.requestStatePresent = hasState;
  return { outcome: "INPUT_REQUIRED", inputKeys: keys, requestState: hasState, details };
}

function inputRequestProblems(key: string, request: unknown, findings: Findings): { code: string; message: string }[] {
  const where = `inputRequests[${JSON.stringify(key)}]`;
  if (!isRecord(request)) return [{ code: "INPUT_REQUEST_INVALID", message: `${where} is ${typeName(request)}, not an object with method and params.` }];
  if (typeof request.method !== "string" || !INPUT_METHODS.has(request.method)) {
    return [
      {
        code: "INPUT_REQUEST_METHOD_INVALID",
        message: `${where}.method is ${show(request.method)}; it MUST be elicitation/create, sampling/createMessage or roots/list.`,
      },
    ];
  }
  if (has(request, "jsonrpc") || has(request, "id")) {
    findings.warning("INPUT_REQUEST_HAS_ENVELOPE", `${where} carries jsonrpc/id; input requests are {method, params} only.`, SpecRef.s26Mrtr);
  }
  const params = request.params;
  const bad = (why: string) => [{ code: "INPUT_REQUEST_PARAMS_INVALID", message: `${where} (${String(request.method)}) ${why}.` }];
  if (request.method === "roots/list") return params === undefined || isRecord(params) ? [] : bad("params must be an object");
  if (!isRecord(params)) return bad("needs a params object");
  if (request.method === "elicitation/create") {
    if (typeof params.message !== "string") return bad("needs params.message (string)");
    if (params.mode === "url") return typeof params.url === "string" ? [] : bad("in url mode needs params.url (string)");
    if (params.mode !== undefined && params.mode !== "form") return bad(`has unknown mode ${show(params.mode)}`);
    return isRecord(params.requestedSchema) ? [] : bad("in form mode needs params.requestedSchema (object)");
  }
  if (!Array.isArray(params.messages) || typeof params.maxTokens !== "number") return bad("needs params.messages (array) and params.maxTokens (number)");
  return [];
}

function callToolResult(result: Record<string, unknown>, ctx: ResultContext, details: Record<string, unknown>): ResultOutcome {
  const { findings } = ctx;
  const modern = isModern(ctx.version);
  const ref = modern ? SpecRef.s26ToolResult : SpecRef.s1125ToolResult;

  // 2025-11-25 task augmentation: a CreateTaskResult stands in for the CallToolResult.
  if (ctx.request.taskAugmented && isRecord(result.task) && !has(result, "content")) {
    findings.info("TASK_CREATED", "The call was task-augmented and the server created a task; fetch its result with tasks/result.");
    details.task = true;
    return { outcome: "TOOL_SUCCESS", details };
  }

  const problems: string[] = [];
  const fail = (code: string, message: string): void => {
    findings.error(code, message, ref);
    problems.push(message);
  };

  const content = result.content;
  if (!has(result, "content")) fail("CONTENT_MISSING", "A tools/call result MUST have content (an array, possibly empty).");
  else if (!Array.isArray(content)) fail("CONTENT_NOT_ARRAY", `content is ${typeName(content)}; it MUST be an array of content blocks.`);
  else {
    details.contentBlocks = content.length;
    content.forEach((block, index) => {
      for (const p of checkContentBlock(block, index)) {
        if (p.severity === "error") fail("CONTENT_BLOCK_INVALID", `${p.message}.`);
        else findings.warning("CONTENT_BLOCK_SUSPECT", `${p.message}.`, ref);
      }
    });
  }

  if (has(result, "isError") && typeof result.isError !== "boolean") {
    fail("IS_ERROR_NOT_BOOLEAN", `isError is ${typeName(result.isError)}; if present it MUST be a boolean.`);
  }
  if (has(result, "structuredContent")) {
    if (!modern && !isRecord(result.structuredContent)) {
      fail("STRUCTURED_CONTENT_NOT_OBJECT", `structuredContent is ${typeName(result.structuredContent)}; in ${ctx.version} it MUST be an object (any JSON value only from 2026-07-28).`);
    } else if (Array.isArray(content) && !content.some((b) => isRecord(b) && b.type === "text")) {
      findings.info("STRUCTURED_CONTENT_WITHOUT_TEXT", "structuredContent has no serialized copy in a text block; tools SHOULD include one for older clients.", ref);
    }
  }

  outputSchemaChecks(result, ctx, fail);

  const problem = problems[0];
  if (problem !== undefined) return { outcome: "INVALID_TOOL_RESULT", problem, details };
  if (result.isError === true) {
    details.isError = true;
    const text = Array.isArray(content) ? content.find((b) => isRecord(b) && b.type === "text" && typeof b.text === "string") : undefined;
    if (isRecord(text)) details.toolErrorText = String(text.text).slice(0, 500);
    return { outcome: "TOOL_ERROR", details };
  }
  return { outcome: "TOOL_SUCCESS", details };
}

/**
 * With the tool's outputSchema known (2025-06-18 and later, server/tools "Output Schema"): "Servers MUST provide
 * structured results that conform to this schema", so a result without structuredContent, or with one that does not
 * conform, is invalid. An isError result is a tool execution error, not the tool's output: it may lack
 * structuredContent, and one that does not conform is only a warning (SDK v1's callTool still rejects it; v2 skips
 * the check for errors).
 */
function outputSchemaChecks(result: Record<string, unknown>, ctx: ResultContext, fail: (code: string, message: string) => void): void {
  const schema = ctx.request.outputSchema;
  if (schema === undefined) return;
  const isError = result.isError === true;
  if (!has(result, "structuredContent")) {
    if (!isError) fail("STRUCTURED_CONTENT_MISSING", "The tool declares an outputSchema, so its result MUST carry structuredContent that conforms to it; this one has none.");
    return;
  }
  const found = schemaMismatch(result.structuredContent, schema);
  if (found === undefined) return;
  if (!isError) fail("STRUCTURED_CONTENT_MISMATCH", `structuredContent does not conform to the tool's outputSchema: ${found}.`);
  else ctx.findings.warning("ERROR_STRUCTURED_CONTENT_MISMATCH", `The isError result carries structuredContent that does not conform to the tool's outputSchema (${found}); a client that validates it anyway (SDK v1) rejects the whole result.`, isModern(ctx.version) ? SpecRef.s26ToolResult : SpecRef.s1125ToolResult);
}

function otherResult(result: Record<string, unknown>, ctx: ResultContext, details: Record<string, unknown>): ResultOutcome {
  const { findings, request } = ctx;
  const method = request.method;
  const modern = isModern(ctx.version);
  if (modern && (method === "initialize" || method === "ping")) {
    findings.info("METHOD_REMOVED_2026", `${method} does not exist in 2026-07-28.`, SpecRef.s26Changelog);
  }
  for (const [field, kind] of REQUIRED_FIELDS[method] ?? []) {
    if (!isKind(result[field], kind)) {
      return invalid(ctx, "RESULT_FIELD_INVALID", `A ${method} result needs ${field} (${kind}); got ${typeName(result[field])}.`, undefined, details);
    }
  }
  if (method === "tools/list") toolsListChecks(result, ctx);
  if (method === "server/discover" || (modern && method === "tools/list")) cacheableChecks(result, method, findings);
  return { outcome: "TOOL_SUCCESS", details };
}

function toolsListChecks(result: Record<string, unknown>, ctx: ResultContext): void {
  const tools = Array.isArray(result.tools) ? result.tools : [];
  tools.forEach((tool, index) => {
    const ok = isRecord(tool) && typeof tool.name === "string" && isRecord(tool.inputSchema) && tool.inputSchema.type === "object";
    if (!ok) {
      ctx.findings.warning("TOOL_DEFINITION_INVALID", `tools[${index}] needs a string name and an inputSchema object whose type is "object".`, isModern(ctx.version) ? SpecRef.s26ToolsList : undefined);
    }
  });
}

// 2026 CacheableResult: ttlMs (>= 0) and cacheScope ("public" | "private") are required.
function cacheableChecks(result: Record<string, unknown>, method: string, findings: Findings): void {
  const ref = method === "tools/list" ? SpecRef.s26ToolsList : SpecRef.s26Discover;
  if (!(typeof result.ttlMs === "number" && result.ttlMs >= 0)) {
    findings.error("TTL_MISSING", `A 2026-07-28 ${method} result MUST carry ttlMs (a number >= 0); got ${typeName(result.ttlMs)}.`, ref);
  }
  if (result.cacheScope !== "public" && result.cacheScope !== "private") {
    findings.error("CACHE_SCOPE_INVALID", `A 2026-07-28 ${method} result MUST carry cacheScope "public" or "private"; got ${show(result.cacheScope)}.`, ref);
  }
}
