import type { AccessVars } from "../base/allowlist.ts";
import { jsonResponse } from "../wire/response.ts";
import { readCapped } from "../base/read-body.ts";
import { authorize, type AuthorizeContext } from "./authorize.ts";
import { serverFacts } from "./client-id.ts";
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata.ts";
import type { Mount } from "./mount.ts";
import { register } from "./register.ts";
import type { OAuthSettings } from "./settings.ts";
import type { OAuthStore } from "./store.ts";
import { token } from "./token.ts";
import { endpointFault, faultedName, type ServerFault } from "./endpoint-faults.ts";
import { sleep } from "../base/sleep.ts";
import { formFields, MAX_OAUTH_BODY, oauthError } from "./wire.ts";

export type OAuthEndpoint = "resource-metadata" | "server-metadata" | "authorize" | "token" | "register";

export interface OAuthContext {
  mount: Mount;
  /** Undefined when the session runs no authorization server. */
  settings: OAuthSettings | undefined;
  store: () => OAuthStore;
  /** The Worker's vars: the allowlist, and what says where the server runs (src/oauth/client-id.ts serverFacts). */
  vars: AccessVars & { FAULTLINE_PUBLIC_URL?: string; FAULTLINE_ADMIN_TOKEN?: string };
  now: number;
}

/** Public metadata: browsers and clients may cache it for a while. */
const METADATA_HEADERS = { "cache-control": "public, max-age=60" };

/** Serves one request to a session's authorization server or its protected-resource metadata. */
export async function serveOAuth(endpoint: OAuthEndpoint, request: Request, context: OAuthContext): Promise<Response> {
  const { settings, mount } = context;
  if (!settings) {
    return jsonResponse(404, {
      error: {
        code: "no_authorization_server",
        message: "This session runs no authorization server: only auth.* scenarios with authorizationServer \"builtin\" (the default) have one. See docs/oauth.md",
      },
    });
  }
  const faulted = settings.serverFault?.endpoint === faultedName(endpoint) ? settings.serverFault : undefined;
  if (faulted) return withServerFault(faulted, context.store(), context.now, () => serveEndpoint(endpoint, request, context, settings));
  return serveEndpoint(endpoint, request, context, settings);
}

/**
 * auth.server_faults: the faulted endpoint's `n`th request gets the fault `endpointFault` decides (an answer in place
 * of the real one, or the real one late), and every request to it is recorded for auth-server-retry-bounded.
 */
async function withServerFault(fault: ServerFault, store: OAuthStore, now: number, serve: () => Promise<Response>): Promise<Response> {
  const decision = endpointFault(fault, store.countRequest(fault.endpoint));
  const record = (status: number, extra: { fault?: string; retryAfter?: number }) => store.recordRequest({ at: now, end: Date.now(), endpoint: fault.endpoint, status, ...extra });
  if (decision && "answer" in decision) {
    record(decision.answer.status, { fault: fault.fault, ...(decision.retryAfter !== undefined ? { retryAfter: decision.retryAfter } : {}) });
    return decision.answer;
  }
  if (decision) await sleep(decision.delayMs);
  const response = await serve();
  record(response.status, decision ? { fault: fault.fault } : {});
  return response;
}

async function serveEndpoint(endpoint: OAuthEndpoint, request: Request, context: OAuthContext, settings: OAuthSettings): Promise<Response> {
  const { mount } = context;
  if (endpoint === "resource-metadata") return jsonResponse(200, protectedResourceMetadata(mount, settings), METADATA_HEADERS);
  if (endpoint === "server-metadata") return jsonResponse(200, authorizationServerMetadata(mount, settings), METADATA_HEADERS);

  const authorizing = (method: string): AuthorizeContext => ({
    mount, settings, store: context.store(), server: serverFacts(mount.origin, context.vars), vars: context.vars, now: context.now, method,
    cookie: request.headers.get("cookie") ?? undefined,
  });
  if (endpoint === "authorize" && request.method === "GET") return authorize(Object.fromEntries(new URL(request.url).searchParams), authorizing("GET"));
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const wanted = endpoint === "register" ? "application/json" : "application/x-www-form-urlencoded";
  if (type !== wanted) return oauthError(400, "invalid_request", `Content-Type must be ${wanted}`);
  const text = await readCapped(request, MAX_OAUTH_BODY);
  if (text === undefined) return oauthError(413, "invalid_request", `the body is larger than ${MAX_OAUTH_BODY / 1024} KB`);
  if (endpoint === "register") {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return oauthError(400, "invalid_client_metadata", "the body is not JSON");
    }
    return register(body, context.store(), context.now);
  }
  const fields = formFields(text);
  if (endpoint === "token") return token(fields, { mount, settings, store: context.store(), now: context.now });
  return authorize(fields, authorizing("POST"));
}
