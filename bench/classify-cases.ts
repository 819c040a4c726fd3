// The cases of `npm run bench:classify` (bench/classify.ts), shared with bench/verdict-corpus.ts: synthetic bodies,
// and the captures of real servers (test/fixtures/classify/real/, made by captures/capture.mjs) as `curl -si` text.
import { readdirSync, readFileSync } from "node:fs";
import { parseSse, type Exchange, type HttpMessageParams } from "../src/classify/index.ts";

/** One thing classify() is given: a ready exchange, or raw HTTP text (the response, and the request beside it). */
export type Input = { exchange: Exchange } | { response: string; request?: string; params?: HttpMessageParams };

export interface Case {
  name: string;
  /** The ceiling for time(classify every input) / time(JSON.parse every text in `json`). */
  target: number;
  inputs: Input[];
  /** The JSON texts a client must parse at the least: each body, or each SSE event's data. */
  json: string[];
}

const request = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
const jsonHeaders = { "content-type": "application/json" };

function jsonCase(name: string, target: number, body: string): Case {
  return { name, target, inputs: [{ exchange: { request: { body: request }, response: { status: 200, headers: jsonHeaders, body } } }], json: [body] };
}

/**
 * The same body as raw HTTP text, as `curl -si` prints a Node server's answer (chunked, decoded by curl), given as
 * `faultline classify --expected-id 7 --method tools/call` takes it.
 */
function rawCase(name: string, target: number, body: string): Case {
  const response = [
    "HTTP/1.1 200 OK",
    "content-type: application/json",
    "date: Wed, 02 Dec 2026 06:00:00 GMT",
    "connection: keep-alive",
    "keep-alive: timeout=5",
    "transfer-encoding: chunked",
    "",
    body,
  ].join("\r\n");
  return { name, target, inputs: [{ response, params: { expectedId: "7", method: "tools/call" } }], json: [body] };
}

/** A tools/call result of text blocks of about 1 KB each, every one of which classify() validates. */
function result(blocks: number, blockBytes = 1000): string {
  const content = Array.from({ length: blocks }, (_, i) => ({ type: "text", text: `${i} ${"x".repeat(blockBytes)}` }));
  return JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", content } });
}

/** A tools/call result with one image block of `bytes` bytes of base64 (deterministic, all 64 letters). */
function imageResult(bytes: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let data = "";
  for (let i = 0; data.length < bytes - 2; i++) data += alphabet[(i * 37 + (i >> 6)) % 64];
  data = `${data.slice(0, Math.floor((bytes - 2) / 4) * 4 - 2)}==`;
  return JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", content: [{ type: "image", data, mimeType: "image/png" }] } });
}

function sseCase(name: string, target: number, events: number): Case {
  const progress = (n: number) =>
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p7", progress: n, total: events } });
  const data = [...Array.from({ length: events }, (_, i) => progress(i + 1)), result(1, 40)];
  const body = data.map((d, i) => `id: ${i + 1}\nevent: message\ndata: ${d}\n\n`).join("");
  return { name, target, inputs: [{ exchange: { request: { body: request }, response: { status: 200, headers: { "content-type": "text/event-stream" }, body } } }], json: data };
}

const SMALL_SUCCESS = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", content: [{ type: "text", text: "hello" }] } });
const SMALL_ERROR = JSON.stringify({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Unknown tool: ech" } });

export function syntheticCases(): Case[] {
  return [
    jsonCase("small success (one text block)", 2.5, SMALL_SUCCESS),
    jsonCase("small JSON-RPC error (-32602)", 2.5, SMALL_ERROR),
    sseCase("SSE: 100 progress events and the result", 1.2, 100),
    jsonCase("100 KB result (100 text blocks)", 1.1, result(100)),
    jsonCase("1 MB result (1,000 text blocks)", 1.1, result(1000)),
    jsonCase("1 MB image result (base64 content checks)", 1.2, imageResult(1_000_000)),
    rawCase("raw HTTP: small success", 2, SMALL_SUCCESS),
    rawCase("raw HTTP: small JSON-RPC error", 2, SMALL_ERROR),
    rawCase("raw HTTP: 1 MB result", 1.1, result(1000)),
    rawCase("raw HTTP: 1 MB image result", 1.2, imageResult(1_000_000)),
  ];
}

interface Capture {
  name: string;
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string } | null;
}

const REASONS: Record<number, string> = { 200: "OK", 202: "Accepted", 204: "No Content", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable" };

function message(first: string, headers: Record<string, string>, body: string): string {
  return [first, ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`), "", body].join("\r\n");
}

/** Each body's JSON texts: the body itself, or its SSE events' data; none for an empty body. */
function jsonTexts(response: { headers: Record<string, string>; body: string }): string[] {
  if (response.body === "") return [];
  const type = Object.entries(response.headers).find(([n]) => n.toLowerCase() === "content-type")?.[1] ?? "";
  if (type.startsWith("text/event-stream")) return parseSse(response.body).events.map((e) => e.data).filter((d) => d !== "");
  return [response.body];
}

/**
 * The raw path on the captures of real servers: one case per stack, every capture with a JSON body (or SSE events) as
 * `curl -si` prints it and its request as sent (`faultline classify --request FILE`), parsed into an exchange and classified, against JSON.parse of the
 * bodies alone. All are small (under 1 KB).
 */
export function captureCases(): Case[] {
  const dir = new URL("../test/fixtures/classify/real/", import.meta.url);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const { exchanges } = JSON.parse(readFileSync(new URL(file, dir), "utf8")) as { exchanges: Capture[] };
      const inputs: Input[] = [];
      const json: string[] = [];
      for (const c of exchanges) {
        if (c.response === null) continue;
        const texts = jsonTexts(c.response);
        if (texts.length === 0) continue;
        json.push(...texts);
        inputs.push({
          response: message(`HTTP/1.1 ${c.response.status} ${REASONS[c.response.status] ?? ""}`.trimEnd(), c.response.headers, c.response.body),
          request: message(`${c.request.method} ${c.request.path} HTTP/1.1`, { Host: "127.0.0.1", ...c.request.headers }, c.request.body),
        });
      }
      return { name: `raw HTTP, real captures: ${file.replace(/\.json$/, "")} (${inputs.length} exchanges)`, target: 2, inputs, json };
    });
}
