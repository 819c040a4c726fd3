import { issuerOf, type Mount, resourceOf } from "./mount.ts";
import type { OAuthSettings } from "./settings.ts";

/** OAuth 2.0 Protected Resource Metadata (RFC 9728 §2) of a session's MCP URL; `resource` is that URL exactly (§3.3). */
export function protectedResourceMetadata(mount: Mount, settings: OAuthSettings) {
  return {
    resource: resourceOf(mount),
    authorization_servers: [issuerOf(mount)],
    scopes_supported: settings.scopes,
    bearer_methods_supported: ["header"],
    resource_name: "Faultline (fault-injecting MCP server)",
  };
}

/**
 * Authorization Server Metadata (RFC 8414 §2) of a session's issuer. Public clients only (no client secrets), PKCE
 * with S256 only (OAuth 2.1), `iss` in every authorization response (RFC 9207), and both registration mechanisms the
 * MCP spec names: Client ID Metadata Documents first, dynamic client registration (RFC 7591) as the fallback.
 */
export function authorizationServerMetadata(mount: Mount, settings: OAuthSettings) {
  const issuer = issuerOf(mount);
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    scopes_supported: settings.scopes,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}
