import { Hono } from "hono";
import { ApiError } from "../src/api-error.ts";
import { classify } from "../src/classify/index.ts";
import { exchangeFromRawHttp, parseClassifyInput, parseJsonText, type InputError } from "../src/classify/input.ts";
import { jsonDepth, MAX_JSON_DEPTH, showBytes, SIZE_LIMITS } from "../src/json-limits.ts";
import { looksLikeHar } from "../src/classify/har.ts";
import { readCapped } from "../src/read-body.ts";

/** The largest request body accepted, in bytes (1 MiB; a HAR document may have 8 MiB). */
export const MAX_BODY_BYTES = SIZE_LIMITS.classify;
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
  const tooLarge = (limit: number, what: string) => new ApiError(413, "payload_too_large", `The request body is larger than ${showBytes(limit)} (the size limit for ${what})`);
  if (text === undefined) throw isJson ? tooLarge(SIZE_LIMITS.har, "a HAR upload") : tooLarge(MAX_BODY_BYTES, "/classify");
  if (isJson && jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError(400, "too_deep", `The JSON nests deeper than ${MAX_JSON_DEPTH} levels (the nesting limit)`);
  }
  const now = Date.now();

  if (isHttp) {
    const query = c.req.query();
    const params = { expectedId: query.expectedId, method: query.method, protocolVersion: query.protocolVersion };
    const exchange = exchangeFromRawHttp(text, params, (name) => `query.${name}`);
    if (!exchange.ok) throw inputError(exchange.error);
    return c.json(classify(exchange.value, { now }));
  }

  const json = parseJsonText(text);
  if (!json.ok) throw inputError(json.error);
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES && !looksLikeHar(json.value)) throw tooLarge(MAX_BODY_BYTES, "/classify (8 MiB for a HAR document)");
  const input = parseClassifyInput(json.value, { maxExchanges: MAX_EXCHANGES });
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

function inputError(error: InputError): ApiError {
  if (error.kind === "too_many") return new ApiError(413, "too_many_exchanges", error.message, error.issues);
  return new ApiError(400, "invalid_request", error.message, error.issues);
}
