import { z } from "zod";
import { jsonResponse } from "../wire/response.ts";
import { NO_STORE } from "./wire.ts";

/** The authorization server's endpoints `auth.server_faults` can fault; `metadata` is its RFC 8414 document. */
export const FAULTED_ENDPOINTS = ["token", "register", "metadata"] as const;
export type FaultedEndpoint = (typeof FAULTED_ENDPOINTS)[number];

/** The params of `auth.server_faults` that say what its authorization server does wrong (spread into its zod object). */
export const SERVER_FAULT_PARAMS = {
  endpoint: z.enum(FAULTED_ENDPOINTS).default("token").describe("The authorization server's endpoint that is faulted: token, register, or metadata (its RFC 8414 document)"),
  fault: z.enum(["5xx", "429", "slow", "flap"]).default("5xx").describe("5xx: answer `status`; 429: Too Many Requests with Retry-After; slow: answer after `delayMs`; flap: answer `status` and then the real answer, by turns"),
  times: z.number().int().min(1).max(100).default(2).describe("Requests to the endpoint that get the fault (flap: of the first 2×times, every other one, the first included)"),
  status: z.number().int().min(500).max(599).default(503).describe("5xx and flap: the status answered"),
  retryAfter: z.number().int().min(0).max(3600).default(1).describe("429: the Retry-After seconds"),
  delayMs: z.number().int().min(1).max(30_000).default(5_000).describe("slow: how long the answer is held back"),
};

const ServerFaultSchema = z.object(SERVER_FAULT_PARAMS);
export type ServerFault = z.infer<typeof ServerFaultSchema>;

/** The server fault of a session's params, or undefined when they carry none (only auth.server_faults has `fault`). */
export function serverFaultOf(params: Record<string, unknown>): ServerFault | undefined {
  if (params.fault === undefined) return undefined;
  const parsed = ServerFaultSchema.safeParse(params);
  return parsed.success ? parsed.data : undefined;
}

/** The OAuth server's endpoint names (server.ts OAuthEndpoint) as `endpoint` calls them. */
export function faultedName(endpoint: string): FaultedEndpoint | undefined {
  if (endpoint === "server-metadata") return "metadata";
  return endpoint === "token" || endpoint === "register" ? endpoint : undefined;
}

/** What the `n`th request (from 1) to the faulted endpoint gets: an answer in place of the real one, a delay, or nothing. */
export type EndpointFaultDecision = { answer: Response; retryAfter?: number } | { delayMs: number } | undefined;

export function endpointFault(fault: ServerFault, n: number): EndpointFaultDecision {
  const failing = fault.fault === "flap" ? n <= 2 * fault.times && n % 2 === 1 : n <= fault.times;
  if (!failing) return undefined;
  if (fault.fault === "slow") return { delayMs: fault.delayMs };
  const description = `auth.server_faults: ${fault.endpoint} request ${n} is faulted (${fault.fault})`;
  if (fault.fault === "429") {
    return { answer: jsonResponse(429, { error: "temporarily_unavailable", error_description: description }, { ...NO_STORE, "retry-after": String(fault.retryAfter) }), retryAfter: fault.retryAfter };
  }
  return { answer: jsonResponse(fault.status, { error: "temporarily_unavailable", error_description: description }, NO_STORE) };
}
