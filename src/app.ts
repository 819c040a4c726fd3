import { Hono } from "hono";
import { ApiError } from "./api-error.ts";
import { adminAuth } from "./access/admin-auth.ts";
import { canonicalPath } from "./access/canonical-path.ts";
import { mcpCors } from "./access/cors.ts";
import { hostOriginGuard } from "./access/host-origin.ts";
import { jsonOnly } from "./access/json-only.ts";
import { knownSession } from "./access/known-session.tsx";
import { loginRoutes } from "./access/login-routes.tsx";
import { auditRoutes } from "../routes/audit.ts";
import { classifyRoutes } from "../routes/classify.ts";
import { checkRoutes } from "../routes/checks.ts";
import { dashboardRoutes } from "../routes/dashboard.tsx";
import { journalRoutes } from "../routes/journal.ts";
import { mcpInternalError, mcpRoutes } from "../routes/mcp.ts";
import { isMcpPath } from "./access/paths.ts";
import { oauthRoutes } from "../routes/oauth.ts";
import { scenarioRoutes } from "../routes/scenarios.ts";
import { recordingRoutes } from "../routes/recordings.ts";
import { sessionRoutes } from "../routes/sessions.ts";
import { wellKnownRoutes } from "../routes/well-known.ts";

/**
 * The HTTP app: every route, the JSON 404 and the one error handler. It imports nothing from `cloudflare:workers`
 * (the Durable Object classes live in src/worker.ts), so routes that need no Durable Object run in plain Node
 * through `app.request(url, init, env)`.
 */
export const app = new Hono<{ Bindings: Env }>();

// Access rules first, in order: a path whose decoding is ambiguous is refused, so that every guard below and the
// router read one decoded path (src/access/canonical-path.ts); then who may reach the server at all (Host, Origin), CORS for the MCP endpoints, what a
// state change on the API may carry, who the caller is when FAULTLINE_ADMIN_TOKEN is set, and last whether the
// session addressed exists (after the caller is known, so existence is not told to strangers).
app.use("*", canonicalPath);
app.use("*", hostOriginGuard);
app.use("*", mcpCors);
app.use("/api/*", jsonOnly);
app.use("*", adminAuth);
app.use("*", knownSession);

app.get("/health", (c) => c.json({ ok: true }));
app.route("/classify", classifyRoutes);
app.route("/api/sessions", sessionRoutes);
app.route("/api/sessions", journalRoutes);
app.route("/api/sessions", checkRoutes);
app.route("/api/scenarios", scenarioRoutes);
app.route("/api/audit", auditRoutes);
app.route("/api/recordings", recordingRoutes);
app.route("/", wellKnownRoutes);
app.route("/", oauthRoutes);
app.route("/", mcpRoutes);
app.route("/", loginRoutes);
app.route("/", dashboardRoutes);

app.notFound((c) => c.json({ error: { code: "not_found", message: `No route for ${c.req.method} ${c.req.path}` } }, 404));
app.onError((err, c) => {
  if (err instanceof ApiError) return c.json(err.toJSON(), err.status);
  console.error("unhandled error", err);
  // An MCP client gets a JSON-RPC error wherever the failure was (a guard, the session's object), never the API's shape.
  if (isMcpPath(c.req.path)) return mcpInternalError();
  return c.json({ error: { code: "internal", message: "Internal error" } }, 500);
});
