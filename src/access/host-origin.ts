import type { MiddlewareHandler } from "hono";
import { refusedHost } from "../base/allowlist.ts";
import { routedPath } from "./canonical-path.ts";
import { refusedOrigin, type OriginVars } from "./own-origin.ts";
import { changesState, isMcpPath } from "./paths.ts";
import { refusal } from "./refusal.ts";

/**
 * The DNS-rebinding guard, on every route: a foreign Host gets 403 whatever the path, so a rebound name can neither
 * read the API nor have its own name reflected in an `mcpUrl`. A foreign Origin gets 403 on the MCP endpoints (any
 * method, as the transport spec asks) and on state-changing `/api` requests (a cross-site form or fetch). It tests
 * the path the router routes (`routedPath`), never the raw one: `/%61pi/...` is `/api/...` to both.
 */
export const hostOriginGuard: MiddlewareHandler<{ Bindings: OriginVars }> = async (c, next) => {
  const request = c.req.raw;
  const path = routedPath(c);
  const host = refusedHost(new URL(request.url), c.env ?? {});
  if (host) return refusal(path, 403, "forbidden_host", `Forbidden: ${host}`);
  const guarded = isMcpPath(path) || (path.startsWith("/api/") && changesState(request.method));
  const origin = guarded ? refusedOrigin(request, c.env ?? {}) : undefined;
  if (origin) return refusal(path, 403, "forbidden_origin", `Forbidden: ${origin}`);
  await next();
};
