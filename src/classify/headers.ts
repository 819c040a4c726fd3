import { isRecord } from "./json.ts";

/** Header names lower-cased; repeated names (differing only in case) joined with ", " as HTTP does. */
export type HeaderMap = ReadonlyMap<string, string>;

const NO_HEADERS: HeaderMap = new Map();

export function headerMap(input: unknown): HeaderMap {
  if (!isRecord(input)) return NO_HEADERS;
  const map = new Map<string, string>();
  for (const name of Object.keys(input)) {
    const value = headerValue(input[name]);
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const previous = map.get(key);
    map.set(key, previous === undefined ? value : `${previous}, ${value}`);
  }
  return map;
}

function headerValue(raw: unknown): string | undefined {
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  if (Array.isArray(raw)) {
    const parts = raw.filter((part): part is string => typeof part === "string");
    return parts.length > 0 ? parts.join(", ") : undefined;
  }
  return undefined;
}

// Servers send a handful of distinct Content-Type values; remembering the last few spares a
// slice, trim and lower-casing per response. Bounded, and a pure function of its key.
const MEDIA_TYPES = new Map<string, string | undefined>();
const MEDIA_TYPES_MAX = 32;

/** The media type of a Content-Type value, lower-cased and without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const known = MEDIA_TYPES.get(contentType);
  if (known !== undefined || MEDIA_TYPES.has(contentType)) return known;
  const semicolon = contentType.indexOf(";");
  const raw = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  const type = raw === "" ? undefined : raw;
  if (contentType.length <= 200) {
    if (MEDIA_TYPES.size >= MEDIA_TYPES_MAX) MEDIA_TYPES.clear();
    MEDIA_TYPES.set(contentType, type);
  }
  return type;
}

export function isJsonMediaType(type: string | undefined): boolean {
  return type === "application/json" || (type !== undefined && /^application\/[^/]+\+json$/.test(type));
}

export const SSE_MEDIA_TYPE = "text/event-stream";
