import type { z } from "zod";
import type { ContentfulStatusCode } from "hono/utils/http-status";

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

/** Turns zod issues into path + rule pairs; `prefix` names where the validated value sits. */
export function issuesFromZod(error: z.ZodError, prefix = ""): Issue[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((part) => part !== "").join(".");
    return { path: path || "(root)", rule: issue.code, message: issue.message };
  });
}

/** A 400 whose message names the first broken field and rule, with every issue listed. */
export function validationError(error: z.ZodError, prefix = ""): ApiError {
  const issues = issuesFromZod(error, prefix);
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message} (${first.rule})` : "invalid request";
  return new ApiError(400, "invalid_request", summary, issues);
}

/** The 404 for a session id that names no session. */
export function sessionNotFound(id: string): ApiError {
  return new ApiError(404, "session_not_found", `No session '${id}'`);
}
