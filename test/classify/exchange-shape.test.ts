// classify() reports EXCHANGE_SHAPE exactly when zod's ExchangeSchema rejects the exchange, although it
// asks zod only when a cheaper test cannot vouch for the exchange.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { classify, ExchangeSchema } from "../../src/classify/index.ts";

const RUNS = 2000;

function shapeWarned(exchange: unknown): boolean {
  return classify(exchange as never).findings.some((f) => f.code === "EXCHANGE_SHAPE");
}

/** Header records as callers build them, and a few they should not: numbers, arrays, symbols, odd prototypes. */
const headers = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom("content-type", "retry-after", "constructor", "__proto__", "x"), fc.string()),
  fc.dictionary(fc.constantFrom("content-type", "retry-after"), fc.oneof(fc.string(), fc.integer(), fc.array(fc.string()), fc.constant(null))),
  fc.constantFrom(
    Object.assign(Object.create(null) as object, { "content-type": "application/json" }),
    { [Symbol("s")]: "x", "content-type": "application/json" },
    Object.defineProperty({ "content-type": "application/json" }, "hidden", { value: 1, enumerable: false }),
    new Map([["content-type", "application/json"]]),
    Object.assign(new (class Headers {})(), { "content-type": "application/json" }),
    { constructor: () => "x" },
    ["application/json"],
    "content-type: application/json",
  ),
);

const status = fc.oneof(fc.constantFrom(99, 100, 200, 202, 404, 503, 599, 600, 200.5, -1, Number.NaN), fc.integer(), fc.string(), fc.constant(undefined));
const body = fc.oneof(fc.string(), fc.constant(undefined), fc.jsonValue());

const response = fc.oneof(
  fc.record({ status, headers, body }, { requiredKeys: ["status"] }),
  fc.constantFrom(null, "200", [200]),
);

const exchange = fc.oneof(
  fc.record(
    {
      request: fc.oneof(fc.record({ headers, body }, { requiredKeys: [] }), fc.constantFrom(null, "x", [])),
      response,
      expectedId: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.constant(2 ** 60)),
      method: fc.oneof(fc.string(), fc.integer()),
      protocolVersion: fc.oneof(fc.constantFrom("2025-11-25", "2026-07-28"), fc.integer()),
    },
    { requiredKeys: ["response"] },
  ),
  fc.anything(),
);

test("EXCHANGE_SHAPE is reported exactly when ExchangeSchema rejects the exchange", () => {
  fc.assert(
    fc.property(exchange, (x) => {
      const hasResponse = typeof x === "object" && x !== null && !Array.isArray(x) && "response" in x;
      const status = hasResponse ? (x as { response: { status?: unknown } }).response?.status : undefined;
      // Without a response object or an integer status classify() refuses the exchange before any shape check.
      fc.pre(typeof status === "number" && Number.isSafeInteger(status));
      assert.equal(shapeWarned(x), !ExchangeSchema.safeParse(x).success);
    }),
    { numRuns: RUNS },
  );
});

test("an exchange whose header value is a number is classified with an EXCHANGE_SHAPE warning", () => {
  assert.ok(shapeWarned({ response: { status: 200, headers: { "retry-after": 5 }, body: "" } }));
});

test("an exchange whose response has no body member is classified with an EXCHANGE_SHAPE warning", () => {
  assert.ok(shapeWarned({ response: { status: 200, headers: {} } }));
});

test("a well-formed exchange with null-prototype headers is classified without an EXCHANGE_SHAPE warning", () => {
  const h = Object.assign(Object.create(null) as object, { "content-type": "application/json" });
  assert.equal(shapeWarned({ request: { headers: h, body: { jsonrpc: "2.0", id: 1, method: "ping" } }, response: { status: 200, headers: h, body: "{}" } }), false);
});

test("an exchange whose headers carry a symbol key is classified with an EXCHANGE_SHAPE warning naming the key", () => {
  const verdict = classify({ response: { status: 200, headers: { [Symbol("s")]: "x" }, body: "" } } as never);
  const warning = verdict.findings.find((f) => f.code === "EXCHANGE_SHAPE");
  assert.ok(warning, "EXCHANGE_SHAPE missing");
  assert.match(warning.message, /response\.headers\.Symbol\(s\)/);
});
