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

/** The media type of a Content-Type value, lower-cased and without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(";");
  const type = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === "" ? undefined : type;
}

export function isJsonMediaType(type: string | undefined): boolean {
  return type === "application/json" || (type !== undefined && /^application\/[^/]+\+json$/.test(type));
}

export const SSE_MEDIA_TYPE = "text/event-stream";
