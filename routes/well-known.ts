import { Hono } from "hono";
import { oauthCors, toSession } from "./oauth.ts";

type Env_ = { Bindings: Env };

/**
 * Discovery. Each session that runs an authorization server (an auth.* scenario, authorizationServer "builtin")
 * serves, for its MCP URL `{origin}{prefix}/mcp` and its issuer `{origin}{prefix}/oauth` (prefix `/s/{seg}`, or none
 * for the default session's `/mcp`):
 * - RFC 9728 §3.1 Protected Resource Metadata, the well-known name inserted before the resource's path;
 * - RFC 8414 §3.1 Authorization Server Metadata, likewise inserted before the issuer's path, and the two OpenID
 *   Connect Discovery forms 2025-11-25 clients also try (inserted, and appended to the issuer).
 * Every other session answers 404: there is no authorization server to find, and none is invented.
 */
export const wellKnownRoutes = new Hono<Env_>();
wellKnownRoutes.use("/.well-known/*", oauthCors);
wellKnownRoutes.use("/oauth/.well-known/*", oauthCors);
wellKnownRoutes.use("/s/:seg/oauth/.well-known/*", oauthCors);

wellKnownRoutes.get("/.well-known/oauth-protected-resource", (c) =>
  c.json({ error: { code: "not_found", message: "No resource lives at the origin: each MCP URL has its own metadata, at /.well-known/oauth-protected-resource/s/{id}/mcp (or …/mcp for the default session)" } }, 404),
);
wellKnownRoutes.get("/.well-known/oauth-protected-resource/mcp", (c) => toSession(c, undefined, "resource-metadata"));
wellKnownRoutes.get("/.well-known/oauth-protected-resource/s/:seg/mcp", (c) => toSession(c, c.req.param("seg"), "resource-metadata"));

for (const name of ["oauth-authorization-server", "openid-configuration"]) {
  wellKnownRoutes.get(`/.well-known/${name}/oauth`, (c) => toSession(c, undefined, "server-metadata"));
  wellKnownRoutes.get(`/.well-known/${name}/s/:seg/oauth`, (c) => toSession(c, c.req.param("seg"), "server-metadata"));
}
wellKnownRoutes.get("/oauth/.well-known/openid-configuration", (c) => toSession(c, undefined, "server-metadata"));
wellKnownRoutes.get("/s/:seg/oauth/.well-known/openid-configuration", (c) => toSession(c, c.req.param("seg"), "server-metadata"));
