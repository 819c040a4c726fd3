import { isRecord } from "./json.ts";

/** Header names lower-cased; repeated names (differing only in case) joined with ", " as HTTP does. */
export type HeaderMap = ReadonlyMap<string, string>;

export function headerMap(input: unknown): HeaderMap {
  const map = new Map<string, string>();
  if (!isRecord(input)) return map;
  for (const [name, raw] of Object.entries(input)) {
    const value = headerValue(raw);
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
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type === "" ? undefined : type;
}

export function isJsonMediaType(type: string | undefined): boolean {
  return type === "application/json" || (type !== undefined && /^application\/[^/]+\+json$/.test(type));
}

export const SSE_MEDIA_TYPE = "text/event-stream";
