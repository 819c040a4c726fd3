import { z } from "zod";
import { ErrorCode, RpcError } from "../wire/jsonrpc.ts";
import { META, MODERN_VERSION, SUPPORTED_VERSIONS } from "../wire/versions.ts";

/** The per-request metadata every 2026-07-28 request carries in params._meta. */
export const ModernMetaSchema = z.object({
  [META.protocolVersion]: z.string().min(1),
  [META.clientCapabilities]: z.record(z.string(), z.unknown()),
  [META.clientInfo]: z.object({ name: z.string(), version: z.string() }).loose().optional(),
});

export type ModernMeta = ReturnType<typeof ModernMetaSchema.safeParse>;

/** Reads params._meta once; the read stage keeps the result and validateModern judges it. */
export function readModernMeta(params: Record<string, unknown>): ModernMeta {
  return ModernMetaSchema.safeParse(params._meta);
}

// SEP-2663 Routing Headers: tasks/get, tasks/update and tasks/cancel carry Mcp-Name: <params.taskId>.
const NAME_HEADER_METHODS = new Set(["tools/call", "resources/read", "prompts/get", "tasks/get", "tasks/update", "tasks/cancel"]);

/** Decodes `=?base64?...?=` header values (2026-07-28 streamable-http "Value Encoding"). */
export function decodeHeaderValue(value: string): string | undefined {
  // Standard base64 (RFC 4648 section 4) with its padding; unpadded or URL-safe text is an invalid value.
  const match = /^=\?base64\?((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)\?=$/.exec(value);
  if (!match) return /^[\x20-\x7e]*$/.test(value) && value.trim() === value ? value : undefined;
  try {
    const binary = atob(match[1] ?? "");
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function mismatch(message: string): RpcError {
  return new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, { httpStatus: 400 });
}

/**
 * Checks a stateless request: required _meta (-32602), a supported version (-32022), and headers that
 * match the body (-32020). All of them travel with HTTP 400.
 */
export function validateModern(
  headers: Record<string, string>,
  method: string,
  params: Record<string, unknown> | undefined,
  meta: ModernMeta,
  inputSchemaOf: (toolName: string) => Record<string, unknown> | undefined,
): void {
  if (!meta.success) {
    const missing = meta.error.issues.map((i) => `params._meta.${i.path.join(".")}`).join(", ");
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: missing or invalid ${missing || "params._meta"}`, { httpStatus: 400 });
  }
  const version = meta.data[META.protocolVersion];
  // The header MUST equal the body's version, so a disagreement is a HeaderMismatch before it is an unsupported version.
  const headerVersion = headers["mcp-protocol-version"];
  if (headerVersion === undefined) throw mismatch("MCP-Protocol-Version header is missing");
  if (headerVersion !== version) throw mismatch(`MCP-Protocol-Version header value '${headerVersion}' does not match body value '${version}'`);
  if (version !== MODERN_VERSION) {
    throw new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
      httpStatus: 400,
      data: { supported: [...SUPPORTED_VERSIONS], requested: version },
    });
  }

  const headerMethod = headers["mcp-method"];
  if (headerMethod === undefined) throw mismatch("Mcp-Method header is missing");
  if (headerMethod !== method) throw mismatch(`Mcp-Method header value '${headerMethod}' does not match body value '${method}'`);

  if (NAME_HEADER_METHODS.has(method)) {
    const bodyName = String((method === "resources/read" ? params?.uri : method.startsWith("tasks/") ? params?.taskId : params?.name) ?? "");
    const raw = headers["mcp-name"];
    if (raw === undefined) throw mismatch("Mcp-Name header is missing");
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw mismatch("Mcp-Name header value has invalid characters or encoding");
    if (decoded !== bodyName) throw mismatch(`Mcp-Name header value '${decoded}' does not match body value '${bodyName}'`);
    if (method === "tools/call") checkParamHeaders(headers, inputSchemaOf(bodyName), params?.arguments);
  }
}

/** Properties marked `x-mcp-header` must be mirrored in `Mcp-Param-{Name}` when the argument is present. */
function checkParamHeaders(headers: Record<string, string>, schema: Record<string, unknown> | undefined, args: unknown) {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const values = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  for (const [property, definition] of Object.entries(properties)) {
    const headerName = definition["x-mcp-header"];
    if (typeof headerName !== "string") continue;
    const value = values[property];
    if (value === undefined || value === null) continue;
    const raw = headers[`mcp-param-${headerName.toLowerCase()}`];
    if (raw === undefined) throw mismatch(`Mcp-Param-${headerName} header is missing for argument '${property}'`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw mismatch(`Mcp-Param-${headerName} header value has invalid characters or encoding`);
    const same = typeof value === "number" ? Number(decoded) === value : String(value) === decoded;
    if (!same) throw mismatch(`Mcp-Param-${headerName} header value '${decoded}' does not match body value '${String(value)}'`);
  }
}
