import type { z } from "zod";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { issuesFromZod, parseJsonText } from "./classify/index.ts";
import { jsonDepth, MAX_JSON_DEPTH, showBytes } from "./base/json-limits.ts";

// One formatter of zod issues for every API answer: the classifier's, which /classify and the CLI use too.
export { issuesFromZod };

/** One broken rule in a request: where it is, which rule, and a sentence for people. */
export interface Issue {
  path: string;
  rule: string;
  message: string;
}

/**
 * An error answered to an API caller (never to an MCP client: those get JSON-RPC errors).
 * Rendered by the app's one onError as `{error: {code, message, issues?}}`.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly issues: Issue[] | undefined;

  constructor(status: ContentfulStatusCode, code: string, message: string, issues?: Issue[]) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.issues = issues;
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } };
  }
}

/**
 * A 400 whose message names the first broken field and rule, with every issue listed. Paths are formatted by the
 * classifier's one formatter (`params.statusCodes.1`), so /classify and the sessions API name fields alike; `prefix`
 * names where the validated value sits.
 */
export function validationError(error: z.ZodError, prefix: Array<string | number> = []): ApiError {
  return invalidRequest(issuesFromZod(error, prefix));
}

/** The 400 for a list of issues, its message naming the first. */
export function invalidRequest(issues: Issue[]): ApiError {
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message} (${first.rule})` : "invalid request";
  return new ApiError(400, "invalid_request", summary, issues);
}

/** Parses a request body as JSON, or throws a 400: `too_deep` past the nesting limit, `invalid_json` (with line and column) otherwise. */
export function parseJsonBody(text: string): unknown {
  // The nesting limit is checked over the text, before anything parses or walks the value.
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError(400, "too_deep", `The JSON nests deeper than ${MAX_JSON_DEPTH} levels (the nesting limit)`);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new ApiError(400, "invalid_json", parsed.error.message, parsed.error.issues);
  return parsed.value;
}

/** The 413 for a body over `limit` bytes, on every route that reads one. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError(413, "payload_too_large", `The request body is larger than ${limit} bytes (${showBytes(limit)})`);
}

/** The 404 for a session id that names no session. */
export function sessionNotFound(id: string): ApiError {
  return new ApiError(404, "session_not_found", `No session '${id}'`);
}
