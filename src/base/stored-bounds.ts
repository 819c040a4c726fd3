/**
 * Bounds on what a session stores of a client-chosen value, declared once: a name (a JSON-RPC method, a tool name,
 * a resource URI, a counter key, a clientInfo field, a journalled header value) is cut with a visible marker, and a
 * client's capabilities or clientInfo past a size are replaced by a note of their size. Whatever a client sends, one
 * stored name or object then costs a bounded number of characters (docs/security.md, "What a session stores").
 */

/** Characters kept of a name, the marker included. */
export const MAX_STORED_NAME = 256;
/** Characters kept of a journalled header value, the marker included. */
export const MAX_STORED_HEADER = 2048;
/** Characters of JSON kept of a client's capabilities or clientInfo; a larger one is replaced by a note. */
export const MAX_STORED_OBJECT = 4096;
/** Characters of JSON kept of a derived record that quotes what was sent (the classifier's verdict). */
export const MAX_STORED_DERIVED = 16 * 1024;
/** Nesting kept of such a record; deeper values become a note. */
const MAX_STORED_DEPTH = 16;

/** What ends a cut name. */
export const NAME_CUT_MARKER = "…[cut by Faultline]";

/** A string of at most `max` characters: itself when short enough, else its start and the marker. */
export function cutName(name: string, max = MAX_STORED_NAME): string {
  return name.length <= max ? name : name.slice(0, max - NAME_CUT_MARKER.length) + NAME_CUT_MARKER;
}

/** Header values cut to MAX_STORED_HEADER; the record itself when none is over. */
export function cutHeaderValues(headers: Record<string, string>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (value.length <= MAX_STORED_HEADER && name.length <= MAX_STORED_NAME) continue;
    out ??= { ...headers };
    delete out[name];
    out[cutName(name)] = cutName(value, MAX_STORED_HEADER);
  }
  return out ?? headers;
}

/** The note that stands for an object too large to keep. */
export const tooLargeNote = (what: string, chars: number) => `${what} not kept: ${chars} characters of JSON, over the ${MAX_STORED_OBJECT} kept`;

/**
 * A client's capabilities as stored: whole when their JSON is at most MAX_STORED_OBJECT characters, else a note of
 * their size under `_faultline` (so no capability is declared by it).
 */
export function boundedCapabilities(capabilities: Record<string, unknown>): Record<string, unknown> {
  const chars = (JSON.stringify(capabilities) ?? "").length;
  return chars <= MAX_STORED_OBJECT ? capabilities : { _faultline: tooLargeNote("capabilities", chars) };
}

/**
 * clientInfo as kept: whole when its JSON is at most MAX_STORED_OBJECT characters and no string in it is longer than
 * a name; else its name, version and title (strings, cut like names) and a note of its size.
 */
export function boundedClientInfo(info: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(info) ?? "";
  if (json.length <= MAX_STORED_OBJECT && !hasLongString(info)) return info;
  const kept = Object.fromEntries(["name", "version", "title"].flatMap((k) => (typeof info[k] === "string" ? [[k, cutName(info[k] as string)]] : [])));
  return { ...kept, _faultline: json.length <= MAX_STORED_OBJECT ? "clientInfo reduced: a string in it was over the name limit" : tooLargeNote("clientInfo", json.length) };
}

function hasLongString(info: Record<string, unknown>): boolean {
  return Object.entries(info).some(([k, v]) => k.length > MAX_STORED_NAME || (typeof v === "string" && v.length > MAX_STORED_NAME));
}

/**
 * A JSON value with every string cut to MAX_STORED_HEADER characters and nesting past MAX_STORED_DEPTH replaced by a
 * note: for a record derived from what a client or upstream sent (a verdict quotes the method and the error message).
 */
export function cutStrings<T>(value: T, depth = 0): T {
  if (typeof value === "string") return cutName(value, MAX_STORED_HEADER) as T;
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_STORED_DEPTH) return "…(nested too deep, not kept)" as T;
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [cutName(k), cutStrings(v, depth + 1)])) as T;
}
