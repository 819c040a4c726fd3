import { z } from "zod";
import type { Scenario } from "../mcp/scenario.ts";
import { type ServerFault, serverFaultOf } from "./endpoint-faults.ts";

/** The scopes every auth scenario's authorization server grants; a scenario's own `scope` param adds its tokens. */
export const BASE_SCOPES = ["faultline:read", "faultline:write"] as const;

/** The scope granted when a client asks for none, and the one the builtin challenges name by default. */
export const DEFAULT_SCOPE = "faultline:read";

/** The params every scenario that needs the OAuth server takes besides its own (spread into its zod object). */
export const OAUTH_PARAMS = {
  authorizationServer: z
    .enum(["builtin", "none"])
    .default("builtin")
    .describe("builtin: this session runs an OAuth 2.1 authorization server and checks tokens; none: no server, any bearer token passes"),
  consent: z.boolean().default(false).describe("builtin: /authorize shows a one-click consent page instead of approving at once"),
  refreshTokenSeconds: z.number().int().min(1).max(30 * 86_400).default(86_400).describe("builtin: how long a refresh token lives"),
};

/** How one session's authorization server behaves, read from its scenario's params. */
export interface OAuthSettings {
  consent: boolean;
  refreshTokenSeconds: number;
  /** Every scope this server grants. */
  scopes: string[];
  /** Every refresh is refused with invalid_grant and its grant revoked, as if the user withdrew it (auth.token_expiry). */
  refreshRevoked: boolean;
  /** auth.server_faults: the endpoint it faults and how. */
  serverFault?: ServerFault;
}

const AccessSchema = z.object({ ...OAUTH_PARAMS, refreshRevoked: z.boolean() }).partial().passthrough();

/**
 * The settings of a session running `scenario` with `params`, or undefined when it runs no authorization server: its
 * scenario declares no need of one, or its params turn it off.
 */
export function oauthSettings(scenario: Pick<Scenario, "needs"> | undefined, params: Record<string, unknown>): OAuthSettings | undefined {
  if (scenario?.needs?.oauthServer !== true) return undefined;
  const parsed = AccessSchema.safeParse(params);
  const p = parsed.success ? parsed.data : {};
  if ((p.authorizationServer ?? "builtin") !== "builtin") return undefined;
  const own = typeof params.scope === "string" ? params.scope.split(" ").filter(Boolean) : [];
  return {
    consent: p.consent ?? false,
    refreshTokenSeconds: p.refreshTokenSeconds ?? 86_400,
    scopes: [...new Set([...BASE_SCOPES, ...own])],
    refreshRevoked: p.refreshRevoked ?? false,
    ...withFault(serverFaultOf(params)),
  };
}

const withFault = (serverFault: ServerFault | undefined) => (serverFault ? { serverFault } : {});
