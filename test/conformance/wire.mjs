// Wire helpers for the recording client: a fetch that keeps every raw HTTP exchange, SSE parsing,
// and the 2026-07-28 header rules (Mcp-Name / Mcp-Param-* value encoding, x-mcp-header validity).
import { appendFileSync } from "node:fs";

const READ_LIMIT_MS = 10_000;

/** Appends one exchange per line to `file` (JSONL); does nothing without a file. */
export function recorder(file, scenario) {
  let seq = 0;
  return (exchange) => {
    seq += 1;
    if (file) appendFileSync(file, `${JSON.stringify({ scenario, seq, ...exchange })}\n`);
  };
}

function headersOf(response) {
  const out = {};
  response.headers.forEach((value, key) => (out[key] = value));
  return out;
}

/** Parses SSE text into events ({id?, event?, retry?, data}); comments are dropped. */
export function parseSseEvents(text) {
  const events = [];
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    const event = { data: [] };
    let seen = false;
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      seen = true;
      if (field === "data") event.data.push(value);
      else if (field === "id") event.id = value;
      else if (field === "event") event.event = value;
      else if (field === "retry" && /^\d+$/.test(value)) event.retry = Number(value);
    }
    if (seen) events.push({ ...event, data: event.data.join("\n") });
  }
  return events;
}

/** JSON-RPC messages carried by SSE events (events whose data is not JSON are skipped). */
export function sseMessages(events) {
  const out = [];
  for (const event of events) {
    if (event.data.trim() === "") continue;
    try {
      out.push(JSON.parse(event.data));
    } catch {
      // not JSON: the classifier reports it; the client just cannot use it
    }
  }
  return out;
}

/**
 * Sends one HTTP request and records it with the raw response. `stopWhen(text)` lets a caller stop reading an SSE
 * stream the server keeps open (a resumed GET stream) once it holds what the caller needs.
 */
export async function exchange(record, { label, method = "POST", url, headers = {}, body, expectedId, jsonrpcMethod, stopWhen }) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), READ_LIMIT_MS);
  const started = Date.now();
  let response;
  try {
    response = await fetch(url, { method, headers, body, signal: controller.signal });
  } catch (error) {
    clearTimeout(timer);
    record({ label, request: { method, url, headers, body }, error: String(error), elapsedMs: Date.now() - started });
    throw error;
  }
  let text = "";
  let cut = false;
  const decoder = new TextDecoder();
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (stopWhen?.(text)) {
          cut = true;
          await reader.cancel().catch(() => undefined);
          break;
        }
      }
    }
  } catch (error) {
    cut = true;
    text += decoder.decode();
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  const result = { status: response.status, headers: headersOf(response), body: text };
  record({
    label,
    request: { method, url, headers, body },
    response: result,
    ...(expectedId === undefined ? {} : { expectedId }),
    ...(jsonrpcMethod === undefined ? {} : { jsonrpcMethod }),
    // True when the client stopped reading before the server ended the body.
    clientStoppedReading: cut,
    endedAt: Date.now(),
    elapsedMs: Date.now() - started,
  });
  return result;
}

/** The JSON-RPC response for `id` in a recorded response body (JSON or SSE), and the SSE events. */
export function readResponse(result, id) {
  const type = result.headers["content-type"] ?? "";
  if (type.includes("text/event-stream")) {
    const events = parseSseEvents(result.body);
    const message = sseMessages(events).find((m) => m.id === id && ("result" in m || "error" in m));
    return { message, events };
  }
  try {
    return { message: JSON.parse(result.body), events: [] };
  } catch {
    return { message: undefined, events: [] };
  }
}

/** 2026-07-28 Value Encoding: plain printable ASCII without edge whitespace, else =?base64?...?=. */
export function encodeHeaderValue(value) {
  const plain = /^[\x20-\x7e]*$/.test(value) && value.trim() === value && !/^=\?base64\?.*\?=$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/** The x-mcp-header annotations of a tool, or undefined when any is invalid (the client MUST drop such tools). */
export function paramHeaders(tool) {
  const properties = tool?.inputSchema?.properties ?? {};
  const seen = new Set();
  const out = [];
  for (const [property, schema] of Object.entries(properties)) {
    if (!schema || typeof schema !== "object" || !("x-mcp-header" in schema)) continue;
    const name = schema["x-mcp-header"];
    if (typeof name !== "string" || !TOKEN.test(name)) return undefined;
    if (!PRIMITIVE.has(schema.type)) return undefined;
    if (seen.has(name.toLowerCase())) return undefined;
    seen.add(name.toLowerCase());
    out.push({ property, name });
  }
  return out;
}

/** Mcp-Param-{Name} headers for the arguments present (null or absent values get no header). */
export function paramHeaderValues(annotations, args) {
  const headers = {};
  for (const { property, name } of annotations) {
    const value = args[property];
    if (value === undefined || value === null) continue;
    headers[`Mcp-Param-${name}`] = encodeHeaderValue(typeof value === "string" ? value : String(value));
  }
  return headers;
}
