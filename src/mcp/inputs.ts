import { InputRequired } from "./dispatch.ts";
import { ErrorCode, isRecord, RpcError } from "../wire/jsonrpc.ts";
import type { StateClaims } from "./request-state.ts";
import type { SessionRuntime } from "./runtime.ts";
import type { ElicitParams, ElicitResult } from "./tool.ts";
import { capabilityRefusal } from "./capability-refusal.ts";

const ELICIT_TIMEOUT_MS = 5 * 60_000;

export function elicitRequest(params: ElicitParams) {
  const { elicitationId: _id, ...rest } = params;
  return { method: "elicitation/create", params: { mode: params.mode ?? "form", ...rest } };
}

/**
 * Legacy eras: elicitation/create sent through legacyAsk. A mode the client did not declare is refused like a missing
 * capability (src/mcp/capability-refusal.ts), as 2026-07-28 does; anything else but an answer (no stream, no reply)
 * reads as a cancel, which tools handle like any refusal.
 */
export function legacyElicit(ask: <T>(request: InputRequest) => Promise<T>, clientCapabilities: Record<string, unknown>) {
  return async (_key: string, params: ElicitParams): Promise<ElicitResult> => {
    // 2025-11-25 lifecycle: both parties MUST only use negotiated capabilities; an empty elicitation capability means form mode only.
    const mode = params.mode ?? "form";
    if (!supportsElicitation(clientCapabilities, mode)) throw capabilityRefusal("legacy", `elicitation.${mode}`, { elicitation: { [mode]: {} } });
    const { elicitationId, ...rest } = params;
    const url = params.mode === "url" ? { elicitationId: elicitationId ?? crypto.randomUUID() } : {};
    const answer = await ask<ElicitResult>({ method: "elicitation/create", params: { ...rest, ...url } }).catch(() => undefined);
    return typeof answer?.action === "string" ? answer : { action: "cancel" };
  };
}

export function supportsElicitation(clientCapabilities: Record<string, unknown>, mode: "form" | "url"): boolean {
  const elicitation = clientCapabilities.elicitation;
  if (!elicitation || typeof elicitation !== "object") return false;
  const modes = Object.keys(elicitation);
  return mode === "url" ? modes.includes("url") : modes.length === 0 || modes.includes("form");
}

// ---- input requests: elicitation, sampling and roots in both eras ----

export type InputRequest = { method: string; params: Record<string, unknown> };

/** request-state.ts claims plus the answers of earlier rounds (`a`), so a later round need not ask again. */
export type CarriedClaims = StateClaims & { a?: Record<string, unknown> };

const ANSWER_CHECKS: Record<string, (answer: Record<string, unknown>) => boolean> = {
  "elicitation/create": (a) => ["accept", "decline", "cancel"].includes(a.action as string),
  "sampling/createMessage": (a) => typeof a.role === "string" && (isRecord(a.content) || Array.isArray(a.content)),
  "roots/list": (a) => Array.isArray(a.roots),
};

const CAPABILITY_OF: Record<string, "elicitation" | "sampling" | "roots"> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

function missingCapability(capability: string, detail: Record<string, Record<string, unknown>>): RpcError {
  const name = Object.keys(detail).length > 0 ? `${capability}.${Object.keys(detail).join(", ")}` : capability;
  return capabilityRefusal("modern", name, { [capability]: detail });
}

/** A malformed inputResponses is a protocol error (2026-07-28 mrtr.mdx, Server Requirements). */
export function checkInputResponses(params: Record<string, unknown>): void {
  if (!("inputResponses" in params)) return;
  const responses = params.inputResponses;
  if (!isRecord(responses) || !Object.values(responses).every(isRecord)) {
    throw new RpcError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object whose values are result objects");
  }
}

/**
 * 2026-07-28 MRTR: an answer comes from the retry's inputResponses (only for keys the signed requestState asked
 * for, unless the tool accepts unsigned input) or from an earlier round carried in the state. A missing one ends
 * the call with input_required; input calls awaited together (Promise.all) share one InputRequired.
 */
export class ModernInputs {
  readonly answered: Record<string, unknown>;
  private readonly fresh: Record<string, unknown>;
  private readonly clientCapabilities: Record<string, unknown>;
  private pending: InputRequired | undefined;

  constructor(fresh: Record<string, unknown>, claims: CarriedClaims | undefined, clientCapabilities: Record<string, unknown>) {
    this.fresh = fresh;
    this.answered = { ...(claims?.a ?? {}) };
    this.clientCapabilities = clientCapabilities;
  }

  ask<T>(key: string, request: InputRequest): Promise<T> {
    if (key in this.answered) return Promise.resolve(this.answered[key] as T);
    const answer = this.fresh[key];
    if (answer !== undefined) {
      if (!isRecord(answer) || !ANSWER_CHECKS[request.method]?.(answer)) {
        return Promise.reject(new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses.${key} is not a ${request.method} result`));
      }
      this.answered[key] = answer;
      return Promise.resolve(answer as T);
    }
    // The server MUST NOT include input requests the client has not declared support for.
    const capability = CAPABILITY_OF[request.method];
    if (capability && !this.clientCapabilities[capability]) return Promise.reject(missingCapability(capability, {}));
    // An empty elicitation capability means form mode only; url mode needs elicitation.url (2026-07-28 elicitation.mdx).
    const mode = request.params.mode === "url" ? "url" : "form";
    if (capability === "elicitation" && !supportsElicitation(this.clientCapabilities, mode)) {
      return Promise.reject(missingCapability("elicitation", { [mode]: {} }));
    }
    this.pending ??= new InputRequired({});
    this.pending.requests[key] = request;
    return Promise.reject(this.pending);
  }
}

/** The inputResponses a retry may use: those the signed state asked for, or all of them for tools that accept unsigned input. */
export function usableResponses(params: Record<string, unknown>, claims: CarriedClaims | undefined, acceptsUnsigned: boolean): Record<string, unknown> {
  const responses = isRecord(params.inputResponses) ? params.inputResponses : {};
  if (claims) return Object.fromEntries(Object.entries(responses).filter(([key]) => claims.k.includes(key)));
  return acceptsUnsigned && params.requestState === undefined ? responses : {};
}

/** Legacy eras: a real server-to-client request on the POST's SSE stream, answered by a later POST. */
export function legacyAsk(emit: ((m: Record<string, unknown>) => void) | undefined, runtime: SessionRuntime, clientCapabilities: Record<string, unknown>) {
  return async <T>(request: InputRequest): Promise<T> => {
    const capability = CAPABILITY_OF[request.method];
    // 2025-11-25 lifecycle: both parties MUST only use capabilities that were negotiated.
    if (capability && !clientCapabilities[capability]) {
      throw capabilityRefusal("legacy", `${request.method} needs ${capability}`, { [capability]: {} });
    }
    if (!emit) throw new RpcError(ErrorCode.InternalError, `${request.method} needs an SSE response stream`);
    const id = `${capability ?? "request"}-${crypto.randomUUID()}`;
    const answer = runtime.waitForClient(id, ELICIT_TIMEOUT_MS);
    emit({ jsonrpc: "2.0", id, method: request.method, params: request.params });
    const response = (await answer) as { result?: unknown; error?: { code?: number; message?: string } } | undefined;
    if (isRecord(response?.result)) return response.result as T;
    throw new RpcError(ErrorCode.InternalError, `The client did not answer ${request.method}${response?.error?.message ? `: ${response.error.message}` : ""}`);
  };
}

