/** Small, total helpers for values of unknown shape. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `key` is an own property of `obj` whose value is not `undefined`. */
export function has(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

/** MCP request ids: a string or an integer, never null (all three versions). */
export function isRequestId(value: unknown): value is string | number {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : "invalid JSON" };
  }
}

// Printable ASCII that JSON.stringify would leave as it is (no quote, no backslash).
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const NOT_BLANK = /\S/;

/**
 * True when `text` is empty or white space only, as String.prototype.trim() sees it, without copying it. Text that
 * starts with printable ASCII (nearly all) is answered without the regular expression.
 */
export function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  return !(first > 0x20 && first < 0x7f) && !NOT_BLANK.test(text);
}

/** A short, safe rendering of any value for finding messages. */
export function show(value: unknown, max = 80): string {
  if (typeof value === "string" && PLAIN.test(value)) return value.length + 2 > max ? `"${value.slice(0, max - 2)}…` : `"${value}"`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isInteger(value)) return "fractional number";
  return typeof value;
}
