import { primaryChallenge } from "./auth.ts";
import type { Challenge } from "./auth.ts";
import type { ErrorAdvice } from "./error-codes.ts";
import type { Findings } from "./findings.ts";
import { SpecRef } from "./findings.ts";
import type { HeaderMap } from "./headers.ts";
import type { RequestInfo } from "./request.ts";
import { readRetryAfter } from "./retry-after.ts";
import type { ProtocolVersion, RetryAdvice, RetryDecision } from "./verdict.ts";
import { isModern } from "./version.ts";
import type { TransientHttpStatus } from "../wire/facts.ts";
import { challengesBearer } from "./session-gone.ts";

/** Default bounded retry: at most 2 retries, exponential backoff with jitter starting at 200 ms. */
export const DEFAULT_MAX_ATTEMPTS = 2;
export const DEFAULT_INITIAL_BACKOFF_MS = 200;

const IDEMPOTENCY_CAVEAT =
  "Retry only read-only or idempotent calls (tools/call is not idempotent in general: check the tool's readOnlyHint/idempotentHint), " +
  `at most ${DEFAULT_MAX_ATTEMPTS} times, with exponential backoff and jitter from ${DEFAULT_INITIAL_BACKOFF_MS} ms.`;

export function advice(decision: RetryDecision, reason: string, extra?: Partial<RetryAdvice>): RetryAdvice {
  return extra === undefined ? { decision, reason } : { decision, reason, ...extra };
}

/** The "conditional" advice: bounded attempts, backoff, and the server's wait time when it gave one. */
export function conditional(why: string, afterMs?: number, maxAttempts = DEFAULT_MAX_ATTEMPTS): RetryAdvice {
  const out: RetryAdvice = {
    decision: "conditional",
    reason: `${why} ${IDEMPOTENCY_CAVEAT}${afterMs !== undefined ? ` Wait at least ${afterMs} ms first.` : ""}`,
    maxAttempts,
    initialBackoffMs: DEFAULT_INITIAL_BACKOFF_MS,
  };
  if (afterMs !== undefined) out.afterMs = afterMs;
  return out;
}

/** Advice from a JSON-RPC error code. */
export function fromErrorAdvice(a: ErrorAdvice): RetryAdvice {
  const out = advice(a.decision, a.reason);
  if (a.supportedVersions !== undefined) out.supportedVersions = a.supportedVersions;
  return out;
}

export interface StatusInput {
  status: number;
  version: ProtocolVersion;
  request: RequestInfo;
  headers: HeaderMap;
  now: number | undefined;
  findings: Findings;
  /** Advice from a JSON-RPC error found in the body, if any. */
  bodyAdvice?: ErrorAdvice;
  /** True when the body's error message is about the session id (what SDK servers say of a session they do not know). */
  sessionRejected?: boolean;
  /** True when the body's error message says the session is unknown, expired or invalid (src/classify/session-gone.ts). */
  sessionUnknown?: boolean;
}

export interface StatusAdvice {
  retry: RetryAdvice;
  challenge?: Challenge;
}

// What each of TRANSIENT_HTTP_STATUSES (src/wire/facts.ts) means; the type holds the keys to exactly that list.
// 500 is retried conditionally but only once: it is as often a persistent bug as a transient fault.
const TRANSIENT: Readonly<Record<TransientHttpStatus, string>> = {
  408: "The server timed out waiting for the request (408).",
  429: "The server is rate limiting (429).",
  500: "The server failed (500); this may be transient or a persistent bug.",
  502: "A gateway got a bad answer upstream (502).",
  503: "The server is unavailable (503).",
  504: "A gateway timed out upstream (504).",
  524: "An edge proxy timed out waiting for the origin's response (524, Cloudflare's \"A timeout occurred\").",
};

/** Retry advice for a non-2xx status, following the body's JSON-RPC error where it is more specific. */
export function adviseHttpStatus(input: StatusInput): StatusAdvice {
  const { status, findings, headers, request } = input;

  const legacySession = request.sessionId !== undefined && !isModern(input.version);
  if (status === 401 && legacySession && input.sessionUnknown === true && !challengesBearer(headers.get("www-authenticate"))) return sessionAs401(findings);
  if (status === 401 || (status === 403 && headers.has("www-authenticate"))) return reauthorize(input);
  if ((status === 410 || status === 409) && legacySession) return sessionGoneOr409(status, findings);
  if (status === 404 && request.sessionId !== undefined) {
    if (!isModern(input.version)) {
      return {
        retry: advice(
          "reinitialize",
          "The session is gone: a 404 to a request carrying Mcp-Session-Id means the server ended it. Start a new session with initialize (without a session id), then resend.",
        ),
      };
    }
    findings.info("SESSION_ID_IGNORED_2026", "The request carried Mcp-Session-Id, but 2026-07-28 has no sessions; this 404 is not a session expiry.", SpecRef.s26Statelessness);
  }

  const transient = (TRANSIENT as Readonly<Record<number, string | undefined>>)[status] ?? (status >= 500 && status !== 501 && status !== 505 ? `The server failed (${status}).` : undefined);
  if (transient !== undefined || status === 413) {
    const wait = readRetryAfter(headers, input.now, findings);
    if (transient !== undefined) return { retry: conditional(transient, wait.afterMs, status === 500 ? 1 : DEFAULT_MAX_ATTEMPTS) };
    if (wait.afterMs !== undefined) return { retry: conditional("The body was too large for now (413) and the server named a time to retry.", wait.afterMs) };
  }

  if (status === 400 && request.sessionId !== undefined && !isModern(input.version) && input.sessionRejected === true) {
    findings.warning(
      "UNKNOWN_SESSION_AS_400",
      "The server answers a request with an unknown or ended Mcp-Session-Id with 400; it MUST answer 404. Treat it as a 404 anyway: start a new session with initialize (without a session id), then resend.",
      SpecRef.s1125Sessions,
    );
    return { retry: advice("reinitialize", "The server no longer knows the session (400 naming the session id, read as the 404 the spec requires). Start a new session with initialize (without a session id), then resend.") };
  }
  if (status >= 400 && status < 500 && input.bodyAdvice?.specific) return { retry: fromErrorAdvice(input.bodyAdvice) };
  if (status === 400 && isModern(input.version)) return { retry: legacyFallback(input.bodyAdvice) };
  if (status >= 400 && status < 600) {
    return { retry: advice("do-not-retry", `HTTP ${status} is a client-side or permanent failure; sending the same request again will fail again.`) };
  }
  return { retry: advice("investigate", `HTTP ${status} is not a final answer an MCP client expects (redirects and informational statuses are handled below MCP).`) };
}

/** A 401 without a Bearer challenge whose body says the session is unknown: the session is gone, not the token. */
function sessionAs401(findings: Findings): StatusAdvice {
  findings.warning(
    "UNKNOWN_SESSION_AS_401",
    "The server answers a request with an unknown or ended Mcp-Session-Id with 401 and no Bearer challenge; it MUST answer 404. The body says the session is unknown, so the token is not at fault: do not re-authorize.",
    SpecRef.s1125Sessions,
  );
  return {
    retry: advice(
      "reinitialize",
      "The server no longer knows the session (401 without a WWW-Authenticate Bearer challenge, its body naming the session: read as the 404 the spec requires). Start a new session with initialize (without a session id), then resend; resend a call that is not idempotent only if the server cannot have run it.",
    ),
  };
}

/**
 * 410 to a request carrying Mcp-Session-Id: the server says the session existed and is gone for good, a sound reading.
 * 409 is not: SDK servers send it for a second standalone stream, so it does not say the session ended.
 */
function sessionGoneOr409(status: 409 | 410, findings: Findings): StatusAdvice {
  if (status === 409) {
    findings.info(
      "SESSION_CONFLICT_409",
      "The request carried Mcp-Session-Id and got 409. 409 does not say the session ended (SDK servers send it for a second standalone GET stream); a client cannot conclude the session is gone from it alone.",
      SpecRef.s1125Sessions,
    );
    return { retry: advice("do-not-retry", "409 Conflict does not say the session ended: do not resend the same request. If every request on this session now gets 409, start a new session with initialize (without a session id); never resend a call that is not idempotent on the strength of a 409.") };
  }
  findings.warning("UNKNOWN_SESSION_AS_410", "The server answers a request with an ended Mcp-Session-Id with 410 Gone; it MUST answer 404. Treat it as a 404: the session is over.", SpecRef.s1125Sessions);
  return { retry: advice("reinitialize", "The session is gone (410 to a request carrying Mcp-Session-Id, read as the 404 the spec requires). Start a new session with initialize (without a session id), then resend.") };
}

function reauthorize(input: StatusInput): StatusAdvice {
  const { status, findings, version } = input;
  const header = input.headers.get("www-authenticate");
  const challenge = primaryChallenge(header);
  const authRef = version === "2026-07-28" ? SpecRef.s26Auth : version === "2025-11-25" ? SpecRef.s1125Auth : SpecRef.s0618Auth;
  if (status === 401 && challenge === undefined) {
    findings.warning("AUTH_CHALLENGE_MISSING", "The 401 has no WWW-Authenticate challenge; the client cannot learn the resource metadata or scope from it.", authRef);
  } else if (status === 401 && challenge?.resourceMetadata === undefined) {
    if (version === "2025-06-18") {
      findings.warning("RESOURCE_METADATA_MISSING", "The 401 challenge has no resource_metadata; 2025-06-18 servers MUST send it.", authRef);
    } else {
      findings.info("RESOURCE_METADATA_MISSING", "The 401 challenge has no resource_metadata; the client must fall back to the well-known Protected Resource Metadata URIs.", authRef);
    }
  }
  if (challenge?.error === "insufficient_scope") {
    findings.info(
      "INSUFFICIENT_SCOPE",
      `The token lacks scope${challenge.scope !== undefined ? ` (needs "${challenge.scope}")` : ""}; step up authorization with the union of scopes, a bounded number of times.`,
      SpecRef.s1125Scope,
    );
  }
  const reason =
    status === 401
      ? "The request is unauthenticated or the token is invalid/expired: obtain a token (using the challenge's resource_metadata and scope), then resend."
      : "The token lacks permission: request the scopes named in the challenge (step-up authorization), then resend; give up after a few attempts.";
  const out: StatusAdvice = { retry: advice("reauthorize", reason) };
  if (challenge !== undefined) out.challenge = challenge;
  return out;
}

// 2026-07-28 streamable-http "Backward Compatibility": a 400 whose body is not one of the modern errors
// (-32020, -32021, -32022) comes from a server that predates 2026-07-28, so the client falls back to initialize.
function legacyFallback(bodyAdvice: ErrorAdvice | undefined): RetryAdvice {
  const body = bodyAdvice === undefined ? "no JSON-RPC error" : "a JSON-RPC error that is not -32020, -32021 or -32022";
  return advice(
    "legacy-fallback",
    `A 2026-07-28 request got 400 with ${body}: the server speaks only an earlier protocol version. Fall back to the initialize handshake (2025-11-25, then older versions), cache that era for this server, and send the call again in that session.`,
    { specRef: SpecRef.s26BackCompat },
  );
}
