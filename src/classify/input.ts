import { z } from "zod";
import { ExchangeSchema, type Exchange } from "./exchange.ts";
import { exchangesFromHar, HarSchema, looksLikeHar, type HarExchange, type HarSkip } from "./har.ts";
import { isCurlVerbose, parseHttpMessage, parseHttpRequest, splitCurlVerbose, startsWithRequestLine } from "./http-message.ts";
import type { HttpRequestMessage } from "./http-message.ts";
import { isRecord } from "./json.ts";
import { bodyAloneMessage, isJsonRpcBatch, isJsonRpcMessage, looksLikeSseBody, MISSING_STATUS_LINE } from "./body-alone.ts";

/** One broken rule in the input: where (`3.response.status`), which rule, and a sentence. */
export interface InputIssue {
  path: string;
  rule: string;
  message: string;
}

/** Why an input was refused: `too_many` when it holds more exchanges than allowed, else `invalid`. */
export interface InputError {
  kind: "invalid" | "too_many";
  message: string;
  issues: InputIssue[];
}

/** What a caller sent, normalized: one exchange, a list of them, or the JSON-RPC entries of a HAR. */
export type ClassifyInput =
  | { kind: "single"; exchange: Exchange }
  | { kind: "batch"; exchanges: Exchange[] }
  | { kind: "har"; entries: HarExchange[]; skipped: HarSkip[] };

export type InputResult<T> = { ok: true; value: T } | { ok: false; error: InputError };

export interface InputOptions {
  /** The most exchanges one input may hold (an array's length, a HAR's JSON-RPC entries). */
  maxExchanges?: number;
}

const RequestShape = ExchangeSchema.shape.request.unwrap().shape;
const ResponseShape = ExchangeSchema.shape.response.shape;
const { expectedId, method, protocolVersion, outputSchema } = ExchangeSchema.shape;

/** `{request?: {headers?, body?}, response: {status, headers?, body}, expectedId?, method?, protocolVersion?, outputSchema?}`. */
export const NestedExchangeInputSchema = z.strictObject({
  request: z.strictObject(RequestShape).optional(),
  response: z.strictObject(ResponseShape),
  expectedId,
  method,
  protocolVersion,
  outputSchema,
});
export type NestedExchangeInput = z.infer<typeof NestedExchangeInputSchema>;

/** `{status, headers?, body, expectedId?, method?, protocolVersion?, outputSchema?}`: the response fields at the top. */
export const FlatExchangeInputSchema = z.strictObject({
  ...ResponseShape,
  expectedId,
  method,
  protocolVersion,
  outputSchema,
});
export type FlatExchangeInput = z.infer<typeof FlatExchangeInputSchema>;

/**
 * Query parameters (or CLI options) that go with a raw HTTP response. `expectedId=1` is the
 * integer 1, `expectedId="1"` (quoted) is the string "1", any other text is taken as a string.
 */
export const HttpMessageParamsSchema = z.object({
  expectedId: z
    .string()
    .min(1, "must not be empty")
    .transform((raw, ctx): string | number => {
      if (/^-?\d+$/.test(raw)) {
        const number = Number(raw);
        if (Number.isSafeInteger(number)) return number;
        ctx.addIssue({ code: "custom", message: `${raw} is outside the safe integer range; quote it ("${raw}") to mean a string id` });
        return z.NEVER;
      }
      if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) return raw.slice(1, -1);
      return raw;
    })
    .optional(),
  method: z.string().min(1, "must not be empty").optional(),
  protocolVersion: z.string().min(1, "must not be empty").optional(),
  /** The request's HTTP method (GET, POST, DELETE); it wins over the method of a given request text. */
  httpMethod: z.string().regex(/^[A-Za-z]+$/, "must be an HTTP method such as GET, POST or DELETE").optional(),
  /** The request's Mcp-Session-Id; it wins over the header of a given request text. */
  sessionId: z.string().regex(/^[\x21-\x7E]+$/, "must be visible ASCII (0x21-0x7E), as the spec requires of session ids").optional(),
});
export type HttpMessageParams = z.input<typeof HttpMessageParamsSchema>;

const SHAPES_HINT = 'an exchange object ({status, body} or {response: {status, body}}), an array of exchanges, or a HAR document ({"log": {"entries": [...]}})';

/** Parses JSON text; on failure the issue names the position, line and column when the runtime reports one. */
export function parseJsonText(text: string): InputResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(detail)?.[1];
    let where = "";
    if (position !== undefined && !/\(line \d+/.test(detail)) {
      const before = text.slice(0, Number(position));
      const line = before.split("\n").length;
      const column = before.length - before.lastIndexOf("\n");
      where = ` (line ${line} column ${column})`;
    }
    const message = text.trim() === "" ? "The body is empty: expected JSON" : `The body is not valid JSON: ${detail}${where}`;
    return invalid([{ path: "(root)", rule: "invalid_json", message }]);
  }
}

/**
 * The error for text that is an SSE stream's body alone (`curl -s` of a stream), which is neither JSON nor raw HTTP;
 * undefined for any other text.
 */
export function sseBodyAlone(text: string): InputError | undefined {
  if (!looksLikeSseBody(text)) return undefined;
  return invalid([{ path: "(root)", rule: MISSING_STATUS_LINE, message: bodyAloneMessage("An SSE stream") }]).error;
}

/**
 * Normalizes any accepted JSON shape into exchanges: a HAR document (detected by its `log`
 * object), an array of exchanges, or one exchange in the flat or nested form (nested when it
 * has a `response` key).
 */
export function parseClassifyInput(value: unknown, options: InputOptions = {}): InputResult<ClassifyInput> {
  const max = options.maxExchanges ?? Number.POSITIVE_INFINITY;

  if (isJsonRpcBatch(value)) return invalid([{ path: "(root)", rule: MISSING_STATUS_LINE, message: bodyAloneMessage("A JSON-RPC batch") }]);
  if (Array.isArray(value)) {
    if (value.length > max) {
      return tooMany(`At most ${max} exchanges per request; this array has ${value.length}`, "(root)");
    }
    const exchanges: Exchange[] = [];
    const issues: InputIssue[] = [];
    value.forEach((element, index) => {
      const result = parseExchangeInput(element, [index]);
      if (result.ok) exchanges.push(result.value);
      else issues.push(...result.error.issues);
    });
    if (issues.length > 0) return invalid(issues);
    return { ok: true, value: { kind: "batch", exchanges } };
  }

  if (looksLikeHar(value)) {
    const har = HarSchema.safeParse(value);
    if (!har.success) return invalid(issuesFromZod(har.error, []));
    const { exchanges: entries, skipped } = exchangesFromHar(har.data);
    if (entries.length > max) {
      return tooMany(`At most ${max} exchanges per request; this HAR has ${entries.length} JSON-RPC entries`, "log.entries");
    }
    return { ok: true, value: { kind: "har", entries, skipped } };
  }

  if (!isRecord(value)) {
    return invalid([{ path: "(root)", rule: "invalid_type", message: `Expected ${SHAPES_HINT}; got ${typeName(value)}` }]);
  }
  const single = parseExchangeInput(value, []);
  return single.ok ? { ok: true, value: { kind: "single", exchange: single.value } } : single;
}

/** Validates one exchange in the flat or nested form and returns it as an Exchange; issue paths start at `at`. */
export function parseExchangeInput(value: unknown, at: Array<string | number> = []): InputResult<Exchange> {
  if (!isRecord(value)) {
    return invalid([{ path: formatPath(at), rule: "invalid_type", message: `Expected an exchange object; got ${typeName(value)}` }]);
  }
  if (isJsonRpcMessage(value)) return invalid([{ path: formatPath(at), rule: MISSING_STATUS_LINE, message: bodyAloneMessage("A JSON-RPC message") }]);
  if ("response" in value) {
    const nested = NestedExchangeInputSchema.safeParse(value);
    if (!nested.success) return invalid(issuesFromZod(nested.error, at));
    return { ok: true, value: withoutUndefined(nested.data) };
  }
  const flat = FlatExchangeInputSchema.safeParse(value);
  if (!flat.success) return invalid(issuesFromZod(flat.error, at));
  const { status, headers, body, ...rest } = flat.data;
  return { ok: true, value: withoutUndefined({ response: withoutUndefined({ status, headers, body }), ...rest }) };
}

/**
 * Turns a raw HTTP response (as `curl -si` prints it) and its parameters into an Exchange.
 * Problems in the message have the path "(body)"; problems in a parameter are named by
 * `paramPath` (the route says "query.expectedId", the CLI "--expected-id").
 */
export function exchangeFromRawHttp(
  text: string,
  params: HttpMessageParams = {},
  paramPath: (name: string) => string = (name) => name,
  requestText?: string,
): InputResult<Exchange> {
  // No parameters (a capture given as it is): nothing for zod to check, and no copy to build. Keys the schema does not
  // know are dropped by it either way.
  const parsedParams = isEmpty(params) ? NO_PARAMS : HttpMessageParamsSchema.safeParse(params);
  if (!parsedParams.success) {
    return invalid(
      parsedParams.error.issues.map((issue) => ({
        path: paramPath(issue.path.map(String).join(".")),
        rule: issue.code,
        message: issue.message,
      })),
    );
  }
  let responseText = text;
  let request: HttpRequestMessage | undefined;
  if (isCurlVerbose(text)) {
    const split = splitCurlVerbose(text);
    responseText = split.response;
    requestText ??= split.request;
  } else if (startsWithRequestLine(text)) {
    const head = parseHttpRequest(text);
    if (!head.ok) return invalid([messageIssue("(body)", head.error)]);
    request = head.request;
    responseText = head.rest;
  }
  if (requestText !== undefined) {
    const given = parseHttpRequest(isCurlVerbose(requestText) ? splitCurlVerbose(requestText).request : requestText);
    if (!given.ok) return invalid([messageIssue(paramPath("request"), given.error)]);
    request = given.request;
  }
  const parsed = parseHttpMessage(responseText);
  if (!parsed.ok) return invalid([messageIssue("(body)", parsed.error)]);
  const { status, headers, body } = parsed.message;
  const { httpMethod, sessionId, ...rest } = parsedParams.data;
  return { ok: true, value: withoutUndefined({ request: requestOf(request, httpMethod, sessionId), response: { status, headers, body }, ...rest }) };
}

const NO_PARAMS: { success: true; data: z.output<typeof HttpMessageParamsSchema> } = { success: true, data: {} };
const PARAM_NAMES = Object.keys(HttpMessageParamsSchema.shape);

/** True when the schema would read no parameter (every one it knows is undefined): its answer is then `{}`. */
function isEmpty(params: unknown): boolean {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return false;
  for (const name of PARAM_NAMES) if ((params as Record<string, unknown>)[name] !== undefined) return false;
  return true;
}

function messageIssue(path: string, error: { code: string; message: string; line?: number }): InputIssue {
  return { path, rule: error.code, message: `${error.message}${error.line === undefined ? "" : ` (line ${error.line})`}` };
}

/** The exchange's request from a parsed request text and the parameters that override it; undefined when none says anything. */
function requestOf(parsed: HttpRequestMessage | undefined, httpMethod: string | undefined, sessionId: string | undefined): Exchange["request"] {
  if (parsed === undefined && httpMethod === undefined && sessionId === undefined) return undefined;
  // The parsed headers are this call's own object: used as they are unless --session-id replaces one.
  let headers: Record<string, string> = parsed?.headers ?? {};
  if (sessionId !== undefined) {
    headers = {};
    for (const [name, value] of Object.entries(parsed?.headers ?? {})) {
      if (name.toLowerCase() !== "mcp-session-id") headers[name] = value;
    }
    headers["Mcp-Session-Id"] = sessionId;
  }
  const out: NonNullable<Exchange["request"]> = { method: (httpMethod ?? parsed?.method ?? "POST").toUpperCase(), headers };
  if (parsed !== undefined && parsed.body !== "") out.body = parsed.body;
  return out;
}

/**
 * True when text looks like raw HTTP rather than JSON: a response (it starts with `HTTP/`), a request followed by its
 * response (it starts with a request line), or `curl -v` output.
 */
export function looksLikeRawHttp(text: string): boolean {
  return /^\uFEFF?\s*HTTP\//.test(text) || startsWithRequestLine(text) || isCurlVerbose(text);
}

/**
 * Formats a path as `3.response.status`, the one form every API error uses; a key that is not a plain name is quoted
 * (`headers."a b"`).
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  const parts = path.map((part) => (typeof part === "number" || /^[\w$-]+$/.test(String(part)) ? String(part) : JSON.stringify(String(part))));
  return parts.length === 0 ? "(root)" : parts.join(".");
}

/** Turns zod issues into path + rule pairs, one per unknown key; paths start at `at`. */
export function issuesFromZod(error: z.ZodError, at: Array<string | number>): InputIssue[] {
  return error.issues.flatMap((issue): InputIssue[] => {
    const base = [...at, ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))];
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: formatPath([...base, key]), rule: issue.code, message: `Unknown field "${key}"` }));
    }
    // zod reports a missing z.unknown() field (a body) as "expected nonoptional".
    const message = issue.code === "invalid_type" && issue.expected === "nonoptional" ? "Required" : issue.message;
    return [{ path: formatPath(base), rule: issue.code, message }];
  });
}

function invalid(issues: InputIssue[]): { ok: false; error: InputError } {
  const first = issues[0];
  const message = first ? `${first.path}: ${first.message} (${first.rule})` : "invalid input";
  return { ok: false, error: { kind: "invalid", message, issues } };
}

function tooMany(message: string, path: string): { ok: false; error: InputError } {
  return { ok: false, error: { kind: "too_many", message, issues: [{ path, rule: "max_exchanges", message }] } };
}

/** Drops keys whose value is undefined, so verdict input and JSON output stay minimal. */
function withoutUndefined<T extends object>(value: T): T {
  // Defined keys copied in order; the values it is given have the schemas' fixed keys (never "__proto__").
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = v;
  }
  return out as T;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
