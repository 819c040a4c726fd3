// node bench/verdict-corpus.ts OUT: classifies a fixed corpus and writes one JSON line per input (the input adapter's
// result and the verdict) to OUT, so that two trees can be compared with `cmp` after a speed change. Not a test: the
// table, property and real-capture tests say what a verdict must be; this says whether a change moved any of them.
// The corpus: every table case (through its wire shape), every fixture, the real captures as exchanges and as raw
// HTTP text, the dashboard's examples, and seeded random exchanges, raw HTTP texts and content blocks.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { classify, exchangeFromRawHttp, looksLikeRawHttp, parseClassifyInput, parseHttpMessage } from "../src/classify/index.ts";
import type { Exchange, HttpMessageParams } from "../src/classify/index.ts";
import { CLASSIFY_EXAMPLES } from "../src/dashboard/classify-examples.ts";
import { cases } from "../test/classify/cases.ts";
import { captureCases, syntheticCases } from "./classify-cases.ts";

const out: string[] = [];
const NOW = Date.UTC(2026, 9, 21, 7, 28, 0);
const verdict = (exchange: unknown) => {
  try {
    return classify(exchange as Exchange, { now: NOW });
  } catch (error) {
    return { threw: String(error) };
  }
};
const emit = (label: string, value: unknown) => out.push(JSON.stringify([label, value]));

function fromText(label: string, text: string, request?: string, params: HttpMessageParams = {}): void {
  if (looksLikeRawHttp(text)) {
    const parsed = exchangeFromRawHttp(text, params, undefined, request);
    emit(label, parsed.ok ? { exchange: parsed.value, verdict: verdict(parsed.value) } : parsed);
    emit(`${label} (message)`, parseHttpMessage(text));
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    emit(label, "not JSON");
    return;
  }
  const input = parseClassifyInput(value);
  if (!input.ok) {
    emit(label, input);
    return;
  }
  const exchanges = input.value.kind === "single" ? [input.value.exchange] : input.value.kind === "batch" ? input.value.exchanges : input.value.entries.map((e) => e.exchange);
  exchanges.forEach((e, i) => emit(`${label}#${i}`, verdict(e)));
}

for (const c of cases) {
  if (!c.via) emit(c.name, verdict(c.exchange));
  else if (c.via.kind === "http") {
    const parsed = exchangeFromRawHttp(c.via.text, c.via.params ?? {}, undefined, c.via.request);
    emit(c.name, parsed.ok ? { exchange: parsed.value, verdict: verdict(parsed.value) } : parsed);
  } else fromText(c.name, JSON.stringify(c.via.kind === "har" ? c.via.doc : c.via.value));
}
const fixtures = new URL("../test/fixtures/classify/", import.meta.url);
for (const name of readdirSync(fixtures).filter((f) => f.includes("."))) fromText(name, readFileSync(new URL(name, fixtures), "utf8"));
const raw = new URL("real/raw/", fixtures);
for (const name of readdirSync(raw).filter((f) => f.endsWith(".response.http"))) {
  fromText(name, readFileSync(new URL(name, raw), "utf8"), readFileSync(new URL(name.replace(".response.", ".request."), raw), "utf8"));
}
for (const example of CLASSIFY_EXAMPLES) fromText(example.id, example.text);
for (const c of [...syntheticCases(), ...captureCases()]) {
  for (const input of c.inputs) {
    if ("exchange" in input) emit(c.name, verdict(input.exchange));
    else fromText(c.name, input.response, input.request, input.params);
  }
}

// Seeded random inputs aimed at what the speed work touches: raw HTTP framing and content blocks.
const SEED = 29;
const RUNS = 3000;
const eol = fc.constantFrom("\r\n", "\n");
const headerName = fc.constantFrom("Content-Type", "content-type", "Transfer-Encoding", "transfer-encoding", "Retry-After", "Mcp-Session-Id", "X-Y", "bad name", "");
const headerValue = fc.constantFrom("application/json", "text/event-stream", "chunked", "gzip, chunked", "Chunked ", "2", "", " padded ", "a\tb");
const jsonBody = fc.oneof(
  fc.constant('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}'),
  fc.constant('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);
const chunked = fc.tuple(jsonBody, fc.nat(8), eol, fc.boolean()).map(([body, cut, e, upper]) => {
  const size = new TextEncoder().encode(body).length;
  const hex = upper ? size.toString(16).toUpperCase() : size.toString(16);
  return `${hex}${cut % 3 === 0 ? ";ext=1" : ""}${e}${body}${e}0${e}${cut % 2 === 0 ? `Trailer: x${e}` : ""}${e}`.slice(0, cut === 7 ? -3 : undefined);
});
const rawResponse = fc
  .tuple(
    fc.constantFrom("HTTP/1.1 200 OK", "HTTP/2 200", "HTTP/1.1 503 Service Unavailable", "HTTP/1.1 100 Continue", "HTTP/1.1 999 X", "HTTP/x 200", "nope", "HTTP/1.0 404 "),
    fc.array(fc.tuple(headerName, headerValue, fc.boolean()), { maxLength: 5 }),
    eol,
    fc.oneof(jsonBody, chunked),
    fc.boolean(),
    fc.constantFrom("", "\uFEFF", "\n\n", "HTTP/1.1 100 Continue\r\n\r\n"),
  )
  .map(([status, headers, e, body, fold, prefix]) => {
    const lines = headers.map(([n, v, f]) => `${n}: ${v}${fold && f ? `${e} folded` : ""}`);
    return `${prefix}${status}${e}${lines.join(e)}${lines.length ? e : ""}${e}${body}`;
  });
const rawRequest = fc
  .tuple(fc.constantFrom("POST /mcp HTTP/1.1", "GET /mcp HTTP/1.1", "DELETE / HTTP/2", "bad line"), fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }), eol, jsonBody, fc.boolean())
  .map(([line, headers, e, body, length]) => {
    const all = [...headers.map(([n, v]) => `${n}: ${v}`), ...(length ? [`Content-Length: ${new TextEncoder().encode(body).length}`] : [])];
    return `${line}${e}${all.join(e)}${all.length ? e : ""}${e}${body}`;
  });
const base64ish = fc.oneof(
  fc.base64String({ maxLength: 64 }),
  fc.string({ unit: fc.constantFrom("A", "z", "0", "+", "/", "=", " ", "\n", "\t", "\u00a0", "\u2028", "\ufeff", "-", "_", "é"), maxLength: 24 }),
  fc.base64String({ maxLength: 32 }).chain((s) => fc.nat(s.length).map((n) => `${s.slice(0, n)}\r\n${s.slice(n)} `)),
  fc.constant(undefined),
  fc.integer(),
);
const block = fc.oneof(
  fc.record({ type: fc.constantFrom("image", "audio"), data: base64ish, mimeType: fc.constantFrom("image/png", undefined) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 5 }) }),
);
const resultBody = fc.array(block, { maxLength: 3 }).map((content) => JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content } }));

const curlLine = fc.constantFrom("> POST /mcp HTTP/1.1", "> GET / HTTP/2", ">  POST /x HTTP/1.1", "> Host: x", ">", "< HTTP/1.1 200 OK", "< content-type: application/json", "<", "* Connected", "{ [5 bytes data]", '{"jsonrpc":"2.0","id":1,"result":{}}', "x> POST / HTTP/1.1", "HTTP/1.1 200 OK", "");
const curlText = fc.array(fc.tuple(curlLine, fc.constantFrom("\n", "\r\n", "\r", "\u2028", "\u2029", " ")), { maxLength: 10 }).map((ls) => ls.map(([l, e]) => l + e).join(""));
const sample = <T>(arb: fc.Arbitrary<T>, runs: number) => fc.sample(arb, { seed: SEED, numRuns: runs });
// Many fields, repeated in other cases, past the count where readHeaders stops comparing names one by one.
for (const count of [23, 24, 25, 60]) {
  const fields = Array.from({ length: count }, (_, i) => `${i >= 30 ? "X-FIELD" : i % 2 ? "X-Field" : "x-field"}-${i % 30}: v${i}`);
  const text = ["HTTP/1.1 200 OK", ...fields, "Content-Type: application/json", "transfer-encoding: chunked", "TRANSFER-ENCODING: chunked", "", "2\r\n{}\r\n0\r\n\r\n"].join("\r\n");
  fromText(`${count} fields`, text);
  fromText(`${count} fields, request`, text, ["POST /mcp HTTP/1.1", ...fields, "content-length: 2", "Content-Length: 2", "", "{}"].join("\r\n"));
}
sample(rawResponse, RUNS).forEach((text, i) => fromText(`random response ${i}`, text));
sample(fc.tuple(rawRequest, rawResponse), RUNS).forEach(([request, response], i) => {
  fromText(`random request+response ${i}`, `${request}${response}`);
  fromText(`random --request ${i}`, response.startsWith("HTTP") ? response : `HTTP/1.1 200 OK\r\n\r\n${response}`, request);
});
sample(curlText, RUNS).forEach((text, i) => {
  emit(`random curl -v ${i}`, looksLikeRawHttp(text));
  fromText(`random curl -v ${i}`, text);
  fromText(`random curl -v request ${i}`, "HTTP/1.1 200 OK\r\n\r\n{}", text);
});
sample(resultBody, RUNS).forEach((body, i) => emit(`random content ${i}`, verdict({ response: { status: 200, headers: { "content-type": "application/json" }, body } })));

writeFileSync(process.argv[2] ?? "/dev/stdout", `${out.join("\n")}\n`);
console.error(`${out.length} lines`);
