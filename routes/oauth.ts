import { Hono, type Context } from "hono";
import { isAllowedOrigin } from "../src/base/allowlist.ts";
import { capabilityRefusal } from "../src/access/capability.ts";
import { parseMcpPath } from "../src/base/mcp-path.ts";
import { capabilitiesEnabled } from "../src/base/capability-url.ts";
import type { OAuthEndpoint } from "../src/oauth/server.ts";
import { DEFAULT_SESSION_ID } from "../src/session/record.ts";
import { indexStub, sessionStub } from "../src/session/stubs.ts";

type Env_ = { Bindings: Env };

/**
 * Hands one request to the authorization server of the session `seg` names (the default session without one). The
 * segment is checked as the MCP URL's would be: with FAULTLINE_ADMIN_TOKEN set it must carry the id's capability
 * secret (and the default session is reached only through its own), checked before any Durable Object is touched.
 * Otherwise an unknown session gets 404 here, from the index, so no Durable Object is made for a made-up id.
 */
export async function toSession(c: Context<Env_>, seg: string | undefined, endpoint: OAuthEndpoint): Promise<Response> {
  const mcpPath = seg === undefined ? "/mcp" : `/s/${seg}/mcp`;
  const refused = await capabilityRefusal(c.env, mcpPath);
  if (refused) return c.json({ error: { code: "not_found", message: `No authorization server at this path: ${mcpPath} is not a session's MCP URL on this server` } }, 404);
  const id = parseMcpPath(mcpPath)?.id ?? DEFAULT_SESSION_ID;
  if (id !== DEFAULT_SESSION_ID && !capabilitiesEnabled(c.env) && !(await indexStub(c.env).has(id))) {
    return c.json({ error: { code: "not_found", message: `No session '${id}': its authorization server does not exist` } }, 404);
  }
  return sessionStub(c.env, id).oauth(c.req.raw, endpoint, seg === undefined ? "" : `/s/${seg}`);
}

/** The request headers OAuth clients send: form and JSON bodies, and the SDKs' MCP-Protocol-Version on discovery. */
const ALLOWED_HEADERS = "content-type, authorization, mcp-protocol-version";

/**
 * CORS for the OAuth endpoints and their metadata, for the origins the allowlist admits: browser-based clients (the
 * MCP Inspector) run the whole flow from the page. No credentials: nothing here reads cookies.
 */
export const oauthCors = async (c: Context<Env_>, next: () => Promise<void>) => {
  const origin = c.req.header("origin");
  if (origin === undefined || !isAllowedOrigin(origin, new URL(c.req.url), c.env ?? {})) return next();
  if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined) {
    return new Response(null, {
      status: 204,
      headers: { "access-control-allow-origin": origin, "access-control-allow-methods": "GET, POST", "access-control-allow-headers": ALLOWED_HEADERS, "access-control-max-age": "600", vary: "Origin" },
    });
  }
  await next();
  const res = new Response(c.res.body, c.res);
  res.headers.set("access-control-allow-origin", origin);
  res.headers.append("vary", "Origin");
  c.res = res;
};

const ENDPOINTS = ["authorize", "token", "register"] as const;

/** {issuer}/authorize, /token and /register, where the issuer is {origin}/oauth (default session) or {origin}/s/{seg}/oauth. */
export const oauthRoutes = new Hono<Env_>();
oauthRoutes.use("/oauth/*", oauthCors);
oauthRoutes.use("/s/:seg/oauth/*", oauthCors);
for (const endpoint of ENDPOINTS) {
  const methods = endpoint === "authorize" ? ["GET", "POST"] : ["POST"];
  oauthRoutes.on(methods, `/oauth/${endpoint}`, (c) => toSession(c, undefined, endpoint));
  oauthRoutes.on(methods, `/s/:seg/oauth/${endpoint}`, (c) => toSession(c, c.req.param("seg"), endpoint));
}
