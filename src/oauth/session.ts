import { publicOrigin } from "../base/public-origin.ts";
import type { BearerFacts } from "../mcp/bearer-facts.ts";
import type { Scenario } from "../mcp/scenario.ts";
import { bearerFacts } from "./bearer.ts";
import { mountOfMcpPath, resourceOf } from "./mount.ts";
import { type OAuthEndpoint, serveOAuth } from "./server.ts";
import { oauthSettings } from "./settings.ts";
import { type EndpointRequest, type GrantEvent, OAuthStore } from "./store.ts";

/** What of a session's scenario its authorization server reads: the needs it declares (undefined: no scenario). */
type NeedsOf = Pick<Scenario, "needs"> | undefined;

type Vars = { FAULTLINE_PUBLIC_URL?: string; ALLOWED_ORIGINS?: string; ALLOWED_HOSTS?: string; FAULTLINE_ADMIN_TOKEN?: string };

/**
 * The session's side of its authorization server, called from the SessionObject: one function per RPC, so the
 * Durable Object only delegates. `prefix` is "" or "/s/{seg}" as the client's URL had it.
 */
export function serveSessionOAuth(request: Request, endpoint: OAuthEndpoint, prefix: string, scenario: NeedsOf, params: Record<string, unknown>, sql: SqlStorage, env: Vars): Promise<Response> {
  const settings = oauthSettings(scenario, params);
  const mount = { origin: publicOrigin(request, env), prefix };
  return serveOAuth(endpoint, request, { mount, settings, store: () => new OAuthStore(sql), vars: env, now: Date.now() });
}

/** The facts of an MCP request's bearer token, for scenarios that need the OAuth server only (others never read them). */
export function sessionBearer(request: Request, scenario: NeedsOf, sql: SqlStorage, env: Vars): BearerFacts | undefined {
  if (scenario?.needs?.oauthServer !== true) return undefined;
  const authorization = request.headers.get("authorization");
  if (!authorization) return undefined;
  const mount = mountOfMcpPath(publicOrigin(request, env), new URL(request.url).pathname);
  if (!mount) return undefined;
  return bearerFacts({ authorization }, new OAuthStore(sql), resourceOf(mount), Date.now());
}

/** The token endpoint's answers since `since` (ms), for the auth checks; undefined when the session runs no server. */
export function sessionGrantEvents(sql: SqlStorage, scenario: NeedsOf, params: Record<string, unknown>, since: number): GrantEvent[] | undefined {
  return oauthSettings(scenario, params) ? new OAuthStore(sql).events(since) : undefined;
}

/** The requests to the endpoint an auth.server_faults session faults, for auth-server-retry-bounded; none otherwise. */
export function sessionEndpointRequests(sql: SqlStorage, scenario: NeedsOf, params: Record<string, unknown>): EndpointRequest[] {
  return oauthSettings(scenario, params)?.serverFault ? new OAuthStore(sql).requests(0) : [];
}
