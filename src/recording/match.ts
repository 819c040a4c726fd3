import { hmacHex } from "../base/digest.ts";
import { callParams, canonical } from "../mcp/call-params.ts";
import { isRecord } from "../wire/jsonrpc.ts";
import { randomHex } from "../base/random-id.ts";
import type { MatchKey } from "./exchange.ts";

/** A new key for a recording's match digests, as hex. */
export const newRecordingKey = () => randomHex(32);

export function keyBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

/**
 * What a replay matches a JSON-RPC request or notification by: method, tool name and the digest of its canonical
 * call params (callParams drops _meta, requestState and inputResponses, so an MRTR retry matches its call and a
 * 2026-07-28 client's per-request _meta does not count). Undefined for anything else.
 */
export function matchKey(message: unknown, key: Uint8Array): MatchKey | undefined {
  if (!isRecord(message) || typeof message.method !== "string") return undefined;
  const params = isRecord(message.params) ? message.params : {};
  const tool = message.method === "tools/call" && typeof params.name === "string" ? params.name : undefined;
  return { method: message.method, ...(tool !== undefined ? { tool } : {}), digest: hmacHex(key, canonical(callParams(params))) };
}

/** The parsed JSON of a text, or undefined. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
