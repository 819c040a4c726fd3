import { Hono } from "hono";
import { ApiError, parseJsonBody, payloadTooLarge } from "../src/api-error.ts";
import { classify, exchangeFromRawHttp, looksLikeHar, parseClassifyInput, type InputError } from "../src/classify/index.ts";
import { SIZE_LIMITS } from "../src/base/json-limits.ts";
import { readCapped } from "../src/base/read-body.ts";

/** The largest body accepted, in bytes, except a HAR document (SIZE_LIMITS.har). */
const MAX_BODY_BYTES = SIZE_LIMITS.classify;

/** The most exchanges one request may carry (array elements, or JSON-RPC entries of a HAR). */
export const MAX_EXCHANGES = 100;

const SUPPORTED_TYPES = "application/json (one exchange, an array of exchanges, or a HAR 1.2 document) or message/http (a raw response as `curl -si` prints it)";

/** POST /classify: one exchange, an array of them, a HAR document, or a raw HTTP response in; verdicts out. */
export const classifyRoutes = new Hono<{ Bindings: Env }>();

classifyRoutes.post("/", async (c) => {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const isJson = mediaType === "application/json" || /^application\/[\w.+-]+\+json$/.test(mediaType);
  const isHttp = mediaType === "message/http";
  if (!isJson && !isHttp) {
    const got = mediaType === "" ? "no Content-Type" : `Content-Type ${mediaType}`;
    throw new ApiError(415, "unsupported_media_type", `Cannot classify ${got}; send ${SUPPORTED_TYPES}`);
  }

  // Read up to the HAR limit; past MAX_BODY_BYTES only a HAR document is accepted.
  const text = await readCapped(c.req.raw, isJson ? SIZE_LIMITS.har : MAX_BODY_BYTES);
  if (text === undefined) throw payloadTooLarge(isJson ? SIZE_LIMITS.har : MAX_BODY_BYTES);
  const now = Date.now();

  if (isHttp) {
    const query = c.req.query();
    const params = {
      expectedId: query.expectedId,
      method: query.method,
      protocolVersion: query.protocolVersion,
      httpMethod: query.httpMethod,
      sessionId: query.sessionId,
    };
    const exchange = exchangeFromRawHttp(text, params, (name) => `query.${name}`);
    if (!exchange.ok) throw inputError(exchange.error);
    return c.json(classify(exchange.value, { now }));
  }

  const json = parseJsonBody(text);
  if (overBodyLimit(text) && !looksLikeHar(json)) throw payloadTooLarge(MAX_BODY_BYTES);
  const input = parseClassifyInput(json, { maxExchanges: MAX_EXCHANGES });
  if (!input.ok) throw inputError(input.error);
  switch (input.value.kind) {
    case "single":
      return c.json(classify(input.value.exchange, { now }));
    case "batch":
      return c.json(input.value.exchanges.map((exchange) => classify(exchange, { now })));
    case "har": {
      const entries = input.value.entries.map(({ index, method, id, exchange }) => ({ index, method, id, verdict: classify(exchange, { now }) }));
      const { skipped } = input.value;
      return c.json(skipped.length > 0 ? { entries, skipped } : { entries });
    }
  }
});

/**
 * True when `text` takes more than MAX_BODY_BYTES in UTF-8. A UTF-16 code unit takes at most 3 bytes, so a text of at
 * most MAX_BODY_BYTES / 3 units is under the limit without encoding it (every request encoded its body before).
 */
function overBodyLimit(text: string): boolean {
  return text.length * 3 > MAX_BODY_BYTES && new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES;
}

function inputError(error: InputError): ApiError {
  if (error.kind === "too_many") return new ApiError(413, "too_many_exchanges", error.message, error.issues);
  return new ApiError(400, "invalid_request", error.message, error.issues);
}
