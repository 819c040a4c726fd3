import { z } from "zod";
import { canonical } from "../mcp/call-params.ts";

/**
 * A reading of the wire, not a fact about the client: within one MCP session (or, for 2026-07-28, no session on
 * either side) and one clientInfo, a retry that reuses the JSON-RPC id is likely the same message sent again by a
 * transport ("transport"); one with a new id is a new request for the same call ("application"). Anything else,
 * e.g. a retry on a new session after a 404, cannot be read from the wire ("unknown").
 */
export const RetryOriginSchema = z.enum(["transport", "application", "unknown"]);
export type RetryOrigin = z.infer<typeof RetryOriginSchema>;

/** What the wire shows of one attempt at a call. */
export interface WireAttempt {
  id?: string | number | null;
  session?: string;
  /** clientInfo written canonically; undefined when the journal does not know it. */
  client?: string;
}

export function clientKey(clientInfo: Record<string, unknown> | undefined): string | undefined {
  return clientInfo === undefined ? undefined : canonical(clientInfo);
}

export function retryOrigin(earlier: WireAttempt, retry: WireAttempt): RetryOrigin {
  if (earlier.session !== retry.session || earlier.client === undefined || earlier.client !== retry.client) return "unknown";
  if (earlier.id === undefined || earlier.id === null || retry.id === undefined || retry.id === null) return "unknown";
  return earlier.id === retry.id ? "transport" : "application";
}

/** The sentence the checks and the dashboard show for an origin. */
export const ORIGIN_READING: Readonly<Record<RetryOrigin, string>> = {
  transport: "same session, clientInfo and JSON-RPC id: reads as the same message sent again (by a transport?)",
  application: "same session and clientInfo, new JSON-RPC id: reads as a new request for the same call (by the application?)",
  unknown: "another session or clientInfo, or no id: the wire does not tell where this retry came from",
};
