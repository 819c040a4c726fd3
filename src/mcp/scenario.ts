import type { z } from "zod";
import type { Decision } from "../faults/schema.ts";
import type { BearerFacts } from "./bearer-facts.ts";
import type { Era } from "../wire/versions.ts";
import type { ToolDefinition } from "./tool.ts";
import type { Handler } from "./dispatch.ts";
import type { CheckId } from "./check-ids.ts";

/** What a scenario may look at when it decides: the request, already parsed. */
export interface RequestFacts {
  era: Era;
  protocolVersion: string;
  httpMethod: string;
  kind: "request" | "notification" | "response";
  /** JSON-RPC method, when the body has one. */
  method?: string;
  /** params.name of a tools/call. */
  toolName?: string;
  arguments?: Record<string, unknown>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  mcpSessionId?: string;
  /** Legacy eras: the Mcp-Session-Id names an MCP session of this server that has ended (expired, deleted, all expired at once). */
  mcpSessionEnded?: true;
  /** The version an `initialize` asked for, before negotiation picked `protocolVersion`. */
  requestedVersion?: string;
  /** Auth scenarios: what the session's authorization server knows of the bearer token (never the token). */
  bearer?: BearerFacts;
}

/** Counts, including the current request, kept atomically by the session's Durable Object. */
export interface Counters {
  /** Every POST to the session. */
  posts: number;
  /** POSTs carrying this JSON-RPC method. */
  method: number;
  /** tools/call of this tool (0 when the request is not a tools/call). */
  tool: number;
  /** Requests on this legacy MCP session (0 in the stateless era). */
  mcpSession: number;
  /** Counts one more under a scenario-defined key and returns the new count. */
  count(key: string): number;
}

export interface DecideInput<P> {
  params: P;
  request: RequestFacts;
  counters: Counters;
  now: number;
}

/** What a scenario may look at when it decides a standalone GET stream (legacy eras): the GET's headers, and counts. */
export interface DecideGetInput<P> {
  params: P;
  /** Lower-cased header names (Mcp-Session-Id, Last-Event-ID, ...). */
  headers: Record<string, string>;
  /** Counts one more under a scenario-defined key and returns the new count. */
  count(key: string): number;
  now: number;
}

export type Layer = "transport" | "protocol" | "interaction" | "application";

/**
 * What a scenario needs of its session beyond the MCP endpoint. Declared on the scenario, so that the session, the
 * OAuth server and the proxy read it from there and never from the id; test/scenarios/traits.test.ts checks each
 * declaration against what the scenario's decide() reads.
 */
export interface ScenarioNeeds {
  /** An OAuth 2.1 authorization server of the session's own (src/oauth/): its params carry OAUTH_PARAMS, and `request.bearer` is filled in. */
  oauthServer?: true;
  /**
   * MCP sessions Faultline opened itself: it reads `counters.mcpSession`, which counts only those, so it cannot run in
   * front of an upstream (which owns the MCP sessions).
   */
  ownMcpSessions?: true;
}

/**
 * What judges a client under a scenario, declared with it: `faultline run`, /checks and the docs' scenario → checks
 * table read it from here. test/scenarios/judging.test.ts is the gate: a scenario that faults names at least one check,
 * and every check it names exists.
 */
export interface Judging {
  /** The checks that judge what the client did with this scenario's trouble. */
  checks: readonly CheckId[];
  /**
   * How a run tells that the scenario was exercised. `fault` (the default): an exchange carried its fault, which the
   * journal records. `answers`: the trouble is in the scenario's answers (an elicitation round, an expired cursor, a
   * recording), which the journal does not mark as a fault, so only its checks show it reached the client. `control`:
   * nothing to fault, so a run passes on the client's own success.
   */
  exercisedBy?: "fault" | "answers" | "control";
  /**
   * When the journalled fault is only the way in and the scenario's own trouble lies beyond it (auth.server_faults:
   * the 401 always fires, the faulted authorization-server endpoint only if the client gets that far): the checks of
   * which one at least must be present for a run to count the scenario as exercised.
   */
  reachedBy?: readonly CheckId[];
  /** What the journal cannot tell of the client's handling, to follow "the journal cannot tell" (the docs' table shows it). */
  cannotTell?: string;
  /** Why an unattended run (`faultline run --all`) cannot run it: a person, or something prepared first. */
  needsOutside?: string;
}

/** A scenario decides which fault, if any, applies to each request; it never performs one. */
export interface Scenario<P = unknown> {
  id: string;
  title: string;
  summary: string;
  layer: Layer;
  /** Validates the params and applies their defaults. */
  params: z.ZodType<P>;
  /** Example params, shown in the catalogue. */
  example: Record<string, unknown>;
  /** Tools this scenario adds to the catalogue, or replaces by name. */
  tools?: (params: P) => ToolDefinition[];
  /** Method handlers this scenario adds or replaces (resources, prompts, ...). */
  handlers?: (params: P) => Record<string, Handler>;
  decide?(input: DecideInput<P>): Decision | undefined;
  /**
   * Legacy eras: what a standalone GET stream (one that resumes no kept stream) gets. Without it, or when it returns
   * undefined, the GET is answered 405 (the server offers no such stream). It serves the stream itself, so a scenario
   * that has it cannot run in front of an upstream.
   */
  decideGet?(input: DecideGetInput<P>): Decision | undefined;
  /** What it needs of its session; nothing when absent. */
  needs?: ScenarioNeeds;
  /** The checks that judge the client under it, and how a run tells that it was exercised. */
  judging: Judging;
  /**
   * It answers every request from a recording (src/recording/) instead of the handler, and decides no fault itself
   * (a session's `faults` adds one); its params name the recording (`from` or `har`).
   */
  answersFromRecording?: true;
}

/** Keeps the params type of one scenario while the registry holds many. */
export function defineScenario<S extends z.ZodObject>(scenario: Scenario<z.infer<S>> & { params: S }): Scenario<unknown> {
  return scenario as unknown as Scenario<unknown>;
}
