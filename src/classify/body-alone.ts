/**
 * Inputs that are a response's body alone, as `curl -s` prints it (no `-i`): a JSON-RPC message, a batch of them, or
 * an SSE stream. The verdict reads the status line and the headers first, so such an input is refused with a rule
 * of its own (`missing_status_line`) and a sentence that says what is missing and how to capture it, instead of the
 * schema's complaints about a `status` and a `body` the input never meant to have.
 */
import { isRecord } from "./json.ts";

export const MISSING_STATUS_LINE = "missing_status_line";

const HOW = "the status line and headers are missing. Capture the response with `curl -si`, or give {status, headers?, body}";

/** A JSON-RPC message itself: a `jsonrpc` key and none of the keys an exchange has. */
export function isJsonRpcMessage(value: unknown): boolean {
  return isRecord(value) && "jsonrpc" in value && !("status" in value) && !("response" in value) && !("body" in value);
}

/** A JSON-RPC batch itself: a non-empty array of JSON-RPC messages. */
export function isJsonRpcBatch(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every(isJsonRpcMessage);
}

/** Text that starts as an SSE stream does: its first line that is not blank is a field (`event:`, `data:`, …) or a comment. */
export function looksLikeSseBody(text: string): boolean {
  const first = /^\uFEFF?\s*([^\r\n]*)/.exec(text)?.[1] ?? "";
  return /^(?:event|data|id|retry)[ \t]*:/.test(first) || first.startsWith(":");
}

/** The sentence for a body given alone; `what` names it ("A JSON-RPC message", "An SSE stream"). */
export function bodyAloneMessage(what: string): string {
  return `${what} alone, as \`curl -s\` prints a body: ${HOW}`;
}
