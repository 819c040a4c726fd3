import type { Context } from "hono";
import { Layout } from "../dashboard/layout.tsx";
import { SECURITY_HEADERS } from "../dashboard/security.ts";
import { isLoopback } from "../base/allowlist.ts";
import { routedPath } from "./canonical-path.ts";
import { refusal } from "./refusal.ts";

/**
 * Without FAULTLINE_ADMIN_TOKEN the management surface is open to whoever reaches it: fine on a laptop, not on a
 * shared server. Faultline cannot tell a deploy from a laptop by how it was started (wrangler dev, workerd and
 * Cloudflare run the same bundle, and a reverse proxy in front of `npm run serve` is a deployment too), so it goes by
 * what a request shows: it came to a name that is not loopback (a *.workers.dev name, an ALLOWED_HOSTS name), or the
 * server says it is published beyond loopback (FAULTLINE_PUBLIC_URL).
 */
export function reachedBeyondLoopback(request: Request, vars: { FAULTLINE_PUBLIC_URL?: string }): boolean {
  if (!isLoopback(new URL(request.url).hostname)) return true;
  const published = URL.parse(vars.FAULTLINE_PUBLIC_URL?.trim() ?? "");
  return published !== null && !isLoopback(published.hostname);
}

const WHY =
  "This server is reached beyond loopback and FAULTLINE_ADMIN_TOKEN is not set, so the API and the dashboard are off: anyone could list, read, reset and delete sessions. Set it (wrangler secret put FAULTLINE_ADMIN_TOKEN when deployed; the environment or .dev.vars for npm run serve), see docs/security.md";

/** A 503 saying why the management surface is off: JSON on /api, a page for a browser asking a dashboard page for HTML. */
function off(c: Context, code: string, why: string): Response | Promise<Response> {
  if (!routedPath(c).startsWith("/api/") && (c.req.header("accept") ?? "").includes("text/html")) {
    return c.html(
      <Layout title="Sign-in not configured" section="sessions">
        <section class="empty-state">
          <h1>The dashboard is off</h1>
          <p>{why}</p>
        </section>
      </Layout>,
      503,
      SECURITY_HEADERS,
    );
  }
  return refusal(routedPath(c), 503, code, why);
}

/** The 503 of a server reached beyond loopback without the admin token. */
export function tokenRequired(c: Context): Response | Promise<Response> {
  return off(c, "admin_token_required", WHY);
}

/** The 503 of a server whose token breaks a rule (src/access/token-rules.ts): it is not used rather than used weakly. */
export function tokenRefused(c: Context, why: string): Response | Promise<Response> {
  return off(c, "weak_token", `${why}. Until then the API and the dashboard are off; see docs/security.md`);
}
