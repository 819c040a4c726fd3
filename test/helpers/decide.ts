import type { Fault } from "../../src/faults/schema.ts";
import type { Counters, RequestFacts } from "../../src/mcp/scenario.ts";

/** One request of a case: facts over a 2026-07-28 tools/call of `echo`, and counters that override the counted ones. */
export interface Step {
  request?: Partial<RequestFacts>;
  counters?: Partial<Omit<Counters, "count">>;
  /** Milliseconds since the epoch; default 2026-11-30T12:00:00Z. */
  now?: number;
  /** The fault decided for this request (kind and every field, as journalled), or undefined for none. */
  fault: Fault | Record<string, unknown> | undefined;
}

/** A named table row: raw params (parsed by the scenario's own schema, so defaults apply) and requests in order. */
export interface DecideCase {
  name: string;
  params?: Record<string, unknown>;
  steps: Step[];
}

/** The cases of one scenario, as a file under test/scenarios/decide/ exports them (its default export). */
export interface ScenarioCases {
  scenario: string;
  cases: DecideCase[];
}

export const cases = (scenario: string, list: DecideCase[]): ScenarioCases => ({ scenario, cases: list });

export const NOW = Date.parse("2026-11-30T12:00:00Z");

/** The facts of a 2026-07-28 tools/call of `echo`; `over` replaces any of them. */
export function facts(over: Partial<RequestFacts> = {}): RequestFacts {
  return {
    era: "modern",
    protocolVersion: "2026-07-28",
    httpMethod: "POST",
    kind: "request",
    method: "tools/call",
    toolName: "echo",
    arguments: {},
    headers: {},
    ...over,
  };
}

/** A tools/call of `tool`. */
export const call = (tool: string, over: Partial<RequestFacts> = {}): Partial<RequestFacts> => ({ method: "tools/call", toolName: tool, ...over });

/** A request of another method (no tool name). */
export const method = (name: string, over: Partial<RequestFacts> = {}): Partial<RequestFacts> => ({ method: name, toolName: undefined, ...over });

/** A request on a legacy MCP session (2025-11-25) with an Mcp-Session-Id. */
export const legacy = (over: Partial<RequestFacts> = {}): Partial<RequestFacts> => ({ era: "legacy", protocolVersion: "2025-11-25", mcpSessionId: "s1", ...over });

/**
 * Counters as the session's Durable Object keeps them (src/session/session-object.ts `count`): every POST, per
 * JSON-RPC method, per tool, per legacy MCP session, and the scenario's own tallies; each includes the current request.
 */
export function counterState() {
  const counts = new Map<string, number>();
  const bump = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  return (request: RequestFacts, over: Partial<Omit<Counters, "count">> = {}): Counters => ({
    posts: bump("posts"),
    method: request.method ? bump(`method:${request.method}`) : 0,
    tool: request.toolName ? bump(`tool:${request.toolName}`) : 0,
    mcpSession: request.mcpSessionId ? bump(`session:${request.mcpSessionId}`) : 0,
    ...over,
    count: (key) => bump(`count:${key}`),
  });
}
