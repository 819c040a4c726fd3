import { Hono } from "hono";
import { publicOrigin } from "../src/public-origin.ts";

/** Scopes named in the auth scenarios' challenges by default. */
const SCOPES = ["faultline:read", "faultline:write"];

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), so the resource_metadata URL in the auth scenarios' 401 and 403
 * challenges resolves. `resource` MUST equal the identifier the well-known URL was built from (RFC 9728 §3.3): the
 * origin for the root document, origin + path for the path-suffixed form clients try first (§3.1).
 * Faultline runs no authorization server: the one listed is under the reserved .invalid name (RFC 2606), so a
 * client's discovery fails there, visibly, rather than at a look-alike.
 */
function metadata(resource: string) {
  return {
    resource,
    authorization_servers: ["https://auth.faultline.invalid"],
    scopes_supported: SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: "Faultline (fault-injecting MCP server)",
  };
}

// Public metadata: browser-based clients (e.g. the MCP Inspector) fetch it cross-origin.
const HEADERS = { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" };

/** GET /.well-known/oauth-protected-resource[/<resource path>]. Mount at "/". */
export const wellKnownRoutes = new Hono<{ Bindings: { FAULTLINE_PUBLIC_URL?: string } }>()
  .get("/.well-known/oauth-protected-resource", (c) => c.json(metadata(publicOrigin(c.req.raw, c.env)), 200, HEADERS))
  .get("/.well-known/oauth-protected-resource/*", (c) => {
    const path = new URL(c.req.url).pathname.slice("/.well-known/oauth-protected-resource".length);
    return c.json(metadata(`${publicOrigin(c.req.raw, c.env)}${path}`), 200, HEADERS);
  });
