import type { Findings } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";
import { has, isRecord, isRequestId, parseJson, show } from "./json.ts";

/** What the classifier knows about the request that produced the response. */
export interface RequestInfo {
  /** "request" expects a response; "notification" and a legacy client "response" expect 202. */
  kind: "request" | "notification" | "response";
  method: string;
  methodSource: "input" | "body" | "default";
  /** The HTTP method, upper-cased; POST when the exchange does not say. */
  httpMethod: string;
  expectedId?: string | number;
  sessionId?: string;
  headerVersion?: string;
  metaVersion?: string;
  /** params.protocolVersion of an initialize request. */
  initializeVersion?: string;
  progressToken?: string | number;
  taskAugmented: boolean;
  /** The called tool's outputSchema, when the input gave it (exchange.outputSchema). */
  outputSchema?: Record<string, unknown>;
}

const META_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

// Read in place of an absent request, params or _meta, so that none is allocated per classification.
const NONE: Readonly<Record<string, unknown>> = Object.freeze({});

export function readRequest(exchange: Record<string, unknown>, headers: HeaderMap, findings: Findings): RequestInfo {
  const request = isRecord(exchange.request) ? exchange.request : NONE;
  const body = requestBody(request.body, findings);
  const params = isRecord(body) && isRecord(body.params) ? body.params : NONE;
  const meta = isRecord(params._meta) ? params._meta : NONE;

  const inputMethod = typeof exchange.method === "string" ? exchange.method : undefined;
  const bodyMethod = isRecord(body) && typeof body.method === "string" ? body.method : undefined;
  const httpMethod = typeof request.method === "string" ? request.method.trim().toUpperCase() : "POST";
  // A GET or DELETE carries no JSON-RPC message: its HTTP method is the method the verdict names.
  const method = inputMethod ?? bodyMethod ?? (httpMethod === "GET" || httpMethod === "DELETE" ? httpMethod : "tools/call");
  const methodSource = inputMethod !== undefined ? "input" : bodyMethod !== undefined ? "body" : "default";

  let expectedId: string | number | undefined;
  if (isRequestId(exchange.expectedId)) expectedId = exchange.expectedId;
  else if (isRecord(body) && isRequestId(body.id)) expectedId = body.id;
  else if (isRecord(body) && has(body, "id")) {
    findings.warning("REQUEST_ID_INVALID", `The request id ${show(body.id)} is not a string or integer; MCP ids are never null.`);
  }

  const info: RequestInfo = {
    kind: requestKind(exchange, body, expectedId, method),
    method,
    methodSource,
    httpMethod,
    taskAugmented: isRecord(params.task),
  };
  if (expectedId !== undefined) info.expectedId = expectedId;
  const sessionId = headers.get("mcp-session-id");
  if (sessionId !== undefined) info.sessionId = sessionId;
  const headerVersion = headers.get("mcp-protocol-version");
  if (headerVersion !== undefined) info.headerVersion = headerVersion.trim();
  if (typeof meta[META_VERSION_KEY] === "string") info.metaVersion = meta[META_VERSION_KEY];
  if (method === "initialize" && typeof params.protocolVersion === "string") info.initializeVersion = params.protocolVersion;
  if (isRequestId(meta.progressToken)) info.progressToken = meta.progressToken;
  if (isRecord(exchange.outputSchema)) info.outputSchema = exchange.outputSchema;
  return info;
}

function requestBody(raw: unknown, findings: Findings): unknown {
  if (typeof raw !== "string") return raw;
  if (raw.trim() === "") return undefined;
  const parsed = parseJson(raw);
  if (parsed.ok) {
    if (Array.isArray(parsed.value)) findings.info("REQUEST_IS_BATCH", "The request body is a JSON array; batches are not allowed since 2025-06-18.");
    return parsed.value;
  }
  findings.info("REQUEST_BODY_UNPARSEABLE", `The request body is not JSON (${parsed.error}); the expected id and method are unknown.`);
  return undefined;
}

// A notification is a message without an id; by the rule a "notifications/" method with no id is one too.
function requestKind(
  exchange: Record<string, unknown>,
  body: unknown,
  expectedId: string | number | undefined,
  method: string,
): RequestInfo["kind"] {
  if (isRequestId(exchange.expectedId)) return "request";
  if (isRecord(body)) {
    if (typeof body.method === "string") return has(body, "id") ? "request" : "notification";
    if (has(body, "result") || has(body, "error")) return "response";
  }
  if (expectedId === undefined && method.startsWith("notifications/")) return "notification";
  return "request";
}
