/**
 * The limits every JSON input meets at the door, checked before anything walks the value: a nesting depth (counted
 * over the text in one pass, before JSON.parse) and a size per kind of input. Past a limit the caller answers 400 or
 * 413 with a message naming the limit.
 */

/** Deepest nesting of arrays and objects accepted in any JSON input. */
export const MAX_JSON_DEPTH = 256;

/** Largest body accepted, in bytes, per kind of input. */
export const SIZE_LIMITS = {
  /** A request to an MCP endpoint. */
  mcp: 1024 * 1024,
  /** A POST /classify body (one exchange, an array, or raw HTTP). */
  classify: 1024 * 1024,
  /** A HAR document posted to /classify. */
  har: 8 * 1024 * 1024,
  /** The body of POST/PUT on the sessions API (scenario and params). */
  sessionParams: 64 * 1024,
} as const;

/** "1 MiB", "64 KiB": a limit as people read it. */
export function showBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The deepest nesting of arrays and objects in a JSON text, counting brackets outside strings; stops counting as soon
 * as `limit` is passed. Linear in the text, no recursion, and exact for valid JSON (invalid JSON fails to parse anyway).
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

export type LimitedJson =
  | { ok: true; value: unknown }
  | { ok: false; reason: "too_deep"; message: string }
  | { ok: false; reason: "invalid_json"; message: string };

/** Parses JSON text, refusing nesting deeper than MAX_JSON_DEPTH before parsing it. */
export function parseJsonLimited(text: string, maxDepth = MAX_JSON_DEPTH): LimitedJson {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    return { ok: false, reason: "too_deep", message: `The JSON nests deeper than ${maxDepth} levels (the nesting limit)` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: "invalid_json", message: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
