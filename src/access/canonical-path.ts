import type { Context, MiddlewareHandler } from "hono";
import { refusal } from "./refusal.ts";

/**
 * The one path every guard and the router use: Hono's `c.req.path`, the request path percent-decoded once (reserved
 * characters such as `/` kept encoded). The guards used to test the raw `URL.pathname` while the router routed the
 * decoded one, so `/%61pi/...` and `/%6dcp` reached the API and MCP routes unguarded. Every guard in src/access reads
 * the path through this function, and `canonicalPath` below first refuses any path whose decoding could differ
 * between two readers.
 */
export function routedPath(c: Context): string {
  return c.req.path;
}

/** Why a raw request path is ambiguous, or undefined when decoding it once gives the one meaning everyone reads. */
export function ambiguousPath(rawPath: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(rawPath)) return "it holds a '%' that is not followed by two hex digits";
  for (const raw of rawPath.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return "a percent-escape in it is not valid UTF-8";
    }
    // An encoded "/" or "\" would be a separator to one reader and a character to another; an encoded "%" (double
    // encoding) would decode again in whatever reads the path a second time.
    if (/[/\\]/.test(segment)) return "it holds an encoded '/' or '\\' (%2F, %5C)";
    if (segment.includes("%")) return "it holds an encoded '%' (%25): double encoding";
    if (segment === "." || segment === "..") return "it holds a '.' or '..' segment";
    if (/[\u0000-\u001f\u007f]/.test(segment)) return "it holds an encoded control character";
  }
  return undefined;
}

/** The raw path of a request URL, as sent: between the authority and the query or fragment. */
function rawPathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0) return "/";
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

/**
 * The first middleware: a path whose decoding is ambiguous gets 400 naming the rule, before any guard or route
 * reads it. The rest decode to one path, the one `routedPath` returns.
 */
export const canonicalPath: MiddlewareHandler = async (c, next) => {
  const raw = rawPathOf(c.req.url);
  if (!raw.includes("%") && !/(^|\/)\.\.?(\/|$)/.test(raw)) return next();
  const why = ambiguousPath(raw);
  if (why) return refusal(routedPath(c), 400, "invalid_path", `The request path '${raw}' is refused: ${why}. Send the path with plain characters`);
  await next();
};
