import type { MiddlewareHandler } from "hono";
import { refusedHost, refusedOrigin, type AccessVars } from "../base/allowlist.ts";
import { changesState, isMcpPath } from "./paths.ts";
import { refusal } from "./refusal.ts";

/**
 * The DNS-rebinding guard, on every route: a foreign Host gets 403 whatever the path, so a rebound name can neither
 * read the API nor have its own name reflected in an `mcpUrl`. A foreign Origin gets 403 on the MCP endpoints (any
 * method, as the transport spec asks) and on state-changing `/api` requests (a cross-site form or fetch).
 */
export const hostOriginGuard: MiddlewareHandler<{ Bindings: AccessVars }> = async (c, next) => {
  const request = c.req.raw;
  const url = new URL(request.url);
  const host = refusedHost(url, c.env ?? {});
  if (host) return refusal(url.pathname, 403, "forbidden_host", `Forbidden: ${host}`);
  const guarded = isMcpPath(url.pathname) || (url.pathname.startsWith("/api/") && changesState(request.method));
  const origin = guarded ? refusedOrigin(request, c.env ?? {}) : undefined;
  if (origin) return refusal(url.pathname, 403, "forbidden_origin", `Forbidden: ${origin}`);
  await next();
};
