import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";
import { SSE_MEDIA_TYPE, isJsonMediaType, mediaType } from "./headers.ts";
import { isBlank, parseJson } from "./json.ts";
import { parseSse } from "./sse.ts";
import type { SseStream } from "./sse.ts";

/** The response body after content-type dispatch: nothing, one JSON value, unparseable text, or an SSE stream. */
export type DecodedBody =
  | { transport: "empty" }
  | { transport: "json" | "other"; kind: "message"; message: unknown }
  | { transport: "json" | "other"; kind: "malformed"; error: string; text: string }
  | { transport: "sse"; sse: SseStream };

const SSE_START = /^(?::|(?:data|event|id|retry)(?::|\r|\n|$))/;

/**
 * Decodes the body. `strict` is true for a 2xx answer to a request, where the spec requires
 * `application/json` or `text/event-stream`; otherwise the content type is not judged.
 */
export function decodeBody(body: unknown, headers: HeaderMap, strict: boolean, findings: Findings): DecodedBody {
  const type = mediaType(headers.get("content-type"));
  if (body === undefined) return { transport: "empty" };
  if (typeof body !== "string") {
    // Already-parsed JSON: it cannot be malformed, and its content type is not judged.
    if (type === SSE_MEDIA_TYPE) findings.info("PARSED_BODY_WITH_SSE_TYPE", "The body was given as parsed JSON although the response is text/event-stream; it is read as one message.");
    return { transport: "json", kind: "message", message: body };
  }
  if (type === SSE_MEDIA_TYPE) return { transport: "sse", sse: parseSse(body) };
  if (isBlank(body)) return { transport: "empty" };
  if (isJsonMediaType(type)) return parsed(body, "json");

  const looksLikeSse = SSE_START.test(body.trimStart());
  if (strict) {
    if (type === undefined) {
      findings.warning("CONTENT_TYPE_MISSING", `The response has no Content-Type; it is read as ${looksLikeSse ? "an SSE stream" : "JSON"}.`, SpecRef.s26Sending);
    } else {
      findings.error("CONTENT_TYPE_INVALID", `A response to a request MUST be application/json or text/event-stream, not ${type}.`, SpecRef.s26Sending);
    }
  }
  if (type === undefined && looksLikeSse) return { transport: "sse", sse: parseSse(body) };
  return parsed(body, type === undefined ? "json" : "other");
}

function parsed(text: string, transport: "json" | "other"): DecodedBody {
  const result = parseJson(text);
  return result.ok ? { transport, kind: "message", message: result.value } : { transport, kind: "malformed", error: result.error, text };
}
