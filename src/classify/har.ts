import { z } from "zod";
import type { Exchange } from "./exchange.ts";
import { isRecord } from "./json.ts";

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
 * `jsonrpc` and a string `method`) into an Exchange. Other entries (GET streams, assets,
 * batches) are left out; JSON-RPC entries without a recorded response are reported in `skipped`.
 */
export function exchangesFromHar(har: Har): { exchanges: HarExchange[]; skipped: HarSkip[] } {
  const exchanges: HarExchange[] = [];
  const skipped: HarSkip[] = [];
  har.log.entries.forEach((entry, index) => {
    const message = jsonRpcRequest(entry.request.postData?.text);
    if (!message) return;
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

