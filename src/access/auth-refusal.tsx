import type { Context } from "hono";
import { LoginPage } from "../dashboard/login-page.tsx";
import { SECURITY_HEADERS } from "../dashboard/security.ts";
import { routedPath } from "./canonical-path.ts";
import { refusal } from "./refusal.ts";

const CHALLENGE = 'Bearer realm="faultline"';

/**
 * The 401 of the management surface: a JSON body and a Bearer challenge (RFC 6750 §3; `invalid_token` when a
 * credential was presented and is wrong). A browser asking a dashboard page for HTML gets the login form instead
 * of the JSON, with the same status and challenge.
 */
export function unauthorized(c: Context, presented: boolean): Response | Promise<Response> {
  const challenge = presented ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE;
  const message = presented
    ? "The token or login cookie is not valid"
    : "Authentication required: send Authorization: Bearer <FAULTLINE_ADMIN_TOKEN> or sign in at /login";
  if (!routedPath(c).startsWith("/api/") && (c.req.header("accept") ?? "").includes("text/html")) {
    return c.html(<LoginPage error={presented ? message : undefined} />, 401, { ...SECURITY_HEADERS, "www-authenticate": challenge });
  }
  return refusal(routedPath(c), 401, "unauthorized", message, { "www-authenticate": challenge });
}
