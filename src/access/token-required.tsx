import type { Context } from "hono";
import { Layout } from "../dashboard/layout.tsx";
import { SECURITY_HEADERS } from "../dashboard/security.ts";
import { isLoopback } from "../base/allowlist.ts";
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

/** The 503 that says so: JSON on /api, a page for a browser asking a dashboard page for HTML. */
export function tokenRequired(c: Context): Response | Promise<Response> {
  if (!c.req.path.startsWith("/api/") && (c.req.header("accept") ?? "").includes("text/html")) {
    return c.html(
      <Layout title="Sign-in not configured" section="sessions">
        <section class="empty-state">
          <h1>The dashboard is off</h1>
          <p>{WHY}</p>
        </section>
      </Layout>,
      503,
      SECURITY_HEADERS,
    );
  }
  return refusal(c.req.path, 503, "admin_token_required", WHY);
}
