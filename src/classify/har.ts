import { z } from "zod";
import type { Exchange } from "./exchange.ts";
import { isRecord } from "./json.ts";
import { parseSse } from "./sse.ts";

// Only the HAR 1.2 fields the reader uses are declared; everything else a browser or proxy
// writes is kept out of the way with loose objects.
const HarHeaderSchema = z.looseObject({ name: z.string(), value: z.string() });

const HarEntrySchema = z.looseObject({
  request: z.looseObject({
    method: z.string().optional(),
    url: z.string().optional(),
    headers: z.array(HarHeaderSchema).default([]),
    postData: z.looseObject({ mimeType: z.string().optional(), text: z.string().optional() }).optional(),
  }),
  response: z.looseObject({
    status: z.number(),
    headers: z.array(HarHeaderSchema).default([]),
    content: z
      .looseObject({ mimeType: z.string().optional(), text: z.string().optional(), encoding: z.string().optional() })
      .default({}),
  }),
});

/** The part of a HAR 1.2 document (`{log: {entries: [...]}}`) that the reader needs. */
export const HarSchema = z.object({
  log: z.looseObject({ entries: z.array(HarEntrySchema) }),
});
export type Har = z.infer<typeof HarSchema>;
export type HarEntry = z.infer<typeof HarEntrySchema>;

/** One HAR entry whose request body is a JSON-RPC message, ready for classify(). */
export interface HarExchange {
  /** Position in `log.entries`. */
  index: number;
  method: string;
  /** The request's JSON-RPC id; null for a notification. */
  id: string | number | null;
  exchange: Exchange;
}

/** A HAR entry with a JSON-RPC request that cannot be classified, and why. */
export interface HarSkip {
  index: number;
  reason: string;
}

/** True for a value shaped like a HAR document: an object whose `log` is an object. */
export function looksLikeHar(value: unknown): boolean {
  return isRecord(value) && isRecord(value.log) && !("response" in value) && !("status" in value);
}

/**
 * Turns every entry whose `request.postData.text` is a JSON-RPC message (an object with
 * `jsonrpc` and a string `method`) into an Exchange. A GET whose response is an SSE stream is the
 * resumption of the request whose stream sent the event its `Last-Event-ID` names (2025-11-25
 * transports): it is classified as that request's answer, or reported in `skipped` with the reason.
 * Other entries (assets, batches) are left out; JSON-RPC entries without a recorded response are
 * reported in `skipped`.
 */
export function exchangesFromHar(har: Har): { exchanges: HarExchange[]; skipped: HarSkip[] } {
  const exchanges: HarExchange[] = [];
  const skipped: HarSkip[] = [];
  // Event id → the request whose stream (or resumed stream) sent it.
  const requestOfEvent = new Map<string, Record<string, unknown> & { method: string }>();
  har.log.entries.forEach((entry, index) => {
    const resumed = isSseGet(entry);
    const message = resumed ? requestOfEvent.get(header(entry.request.headers, "last-event-id") ?? "") : jsonRpcRequest(entry.request.postData?.text);
    if (!message) {
      if (resumed) skipped.push({ index, reason: resumeSkipReason(entry) });
      return;
    }
    const { status } = entry.response;
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      // Browsers record status 0 for requests that got no response (blocked, aborted, offline).
      skipped.push({ index, reason: `response.status ${status} is not an HTTP status: no response was recorded` });
      return;
    }
    const body = responseText(entry.response.content);
    if (body === undefined) {
      skipped.push({ index, reason: "response.content.text is not valid base64" });
      return;
    }
    const responseHeaders = headerRecord(entry.response.headers);
    const mimeType = entry.response.content.mimeType;
    if (mimeType && !Object.keys(responseHeaders).some((name) => name.toLowerCase() === "content-type")) {
      responseHeaders["content-type"] = mimeType;
    }
    if (isSse(entry)) {
      for (const event of parseSse(body).events) if (event.id) requestOfEvent.set(event.id, message);
    }
    exchanges.push({
      index,
      method: message.method,
      id: typeof message.id === "string" || typeof message.id === "number" ? message.id : null,
      exchange: {
        request: { headers: headerRecord(entry.request.headers), body: message },
        response: { status, headers: responseHeaders, body },
      },
    });
  });
  return { exchanges, skipped };
}

function isSse(entry: HarEntry): boolean {
  return /text\/event-stream/i.test(header(entry.response.headers, "content-type") ?? entry.response.content.mimeType ?? "");
}

/** A GET (no request body) answered with an SSE stream. */
const isSseGet = (entry: HarEntry) => (entry.request.method ?? "GET").toUpperCase() === "GET" && isSse(entry);

function resumeSkipReason(entry: HarEntry): string {
  const lastEventId = header(entry.request.headers, "last-event-id");
  return lastEventId === undefined
    ? "a GET SSE stream without Last-Event-ID: it answers no request (server-initiated messages only)"
    : `a GET SSE stream resuming Last-Event-ID ${JSON.stringify(lastEventId)}, which no earlier JSON-RPC entry's stream sent: no request to classify it against`;
}

/** A header's value by case-insensitive name (the first one). */
function header(headers: Array<{ name: string; value: string }>, name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

function jsonRpcRequest(text: string | undefined): (Record<string, unknown> & { method: string }) | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !("jsonrpc" in value) || typeof value.method !== "string") return undefined;
  return value as Record<string, unknown> & { method: string };
}

/** HAR 1.2 §content: `text` is base64 when `encoding` is "base64"; the bytes are read as UTF-8. */
function responseText(content: HarEntry["response"]["content"]): string | undefined {
  const text = content.text ?? "";
  if (content.encoding?.toLowerCase() !== "base64") return text;
  let binary: string;
  try {
    binary = atob(text.replace(/\s+/g, ""));
  } catch {
    return undefined;
  }
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/** Repeated names are joined with ", "; HTTP/2 pseudo-headers (":status") are dropped. */
function headerRecord(headers: Array<{ name: string; value: string }>): Record<string, string> {
  const record: Record<string, string> = {};
  const namesByLowerCase = new Map<string, string>();
  for (const { name, value } of headers) {
    if (name.startsWith(":")) continue;
    const known = namesByLowerCase.get(name.toLowerCase());
    if (known === undefined) {
      namesByLowerCase.set(name.toLowerCase(), name);
      record[name] = value;
    } else {
      record[known] = `${record[known]}, ${value}`;
    }
  }
  return record;
}

