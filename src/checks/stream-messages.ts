import { isRecord } from "../classify/index.ts";
import type { Exchange } from "./exchange.ts";

type Json = Record<string, unknown>;

/** The JSON-RPC messages the journal kept from an exchange's SSE events (a response stream, a GET or listen stream). */
export function streamMessages(x: Exchange): Json[] {
  const out: Json[] = [];
  for (const event of x.entry.response.sseEvents ?? []) {
    try {
      const value: unknown = JSON.parse(event.data);
      if (isRecord(value)) out.push(value);
    } catch {
      // An event cut by the journal's cap, or not JSON: nothing to read.
    }
  }
  return out;
}

/** The client's request body as JSON (a legacy client's JSON-RPC response to a server request, say); undefined when cut. */
export function requestMessage(x: Exchange): Json | undefined {
  if (x.entry.request.body.truncated) return undefined;
  try {
    const value: unknown = JSON.parse(x.entry.request.body.text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
