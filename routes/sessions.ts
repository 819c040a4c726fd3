import { Hono } from "hono";
import { z } from "zod";
import { ApiError, invalidRequest, issuesFromZod, parseJsonBody, payloadTooLarge, sessionNotFound, validationError, type Issue } from "../src/api-error.ts";
import { SIZE_LIMITS } from "../src/base/json-limits.ts";
import { assertKnownSession } from "../src/access/known-session.tsx";
import { audit } from "../src/access/audit.ts";
import { createWithinCap } from "../src/access/session-cap.ts";
import { randomHex } from "../src/base/random-id.ts";
import { readCapped } from "../src/base/read-body.ts";
import { type SessionView } from "../src/session/record.ts";
import { mcpUrl } from "../src/base/capability-url.ts";
import { decodeCursor, listSessions } from "../src/session/session-list.ts";
import { indexStub, sessionStub } from "../src/session/stubs.ts";
import { closest } from "../src/base/suggest.ts";
import { publicOrigin } from "../src/base/public-origin.ts";
import { findScenario, paramsSchema, SCENARIOS } from "../scenarios/index.ts";
import { proxiedScenario, upstreamOf, withShownUpstream } from "../src/proxy/config.ts";
import { replaySource } from "../src/session/recording-stub.ts";


/** A session as the API shows it, with its MCP URL; 404 when the call found no session. */
async function shown(request: Request, env: Env, id: string, view: SessionView | undefined) {
  if (!view) throw sessionNotFound(id);
  return { ...view, mcpUrl: await mcpUrl(env, publicOrigin(request, env), id) };
}

const CreateSessionSchema = z.strictObject({
  scenario: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
  id: z
    .string()
    .regex(/^[a-z0-9-]{3,64}$/, "must match [a-z0-9-]{3,64}")
    .optional(),
  upstream: z.string().max(2048).optional().describe("Proxy mode: the MCP URL of a real server to forward to; its origin must be in FAULTLINE_UPSTREAMS"),
  forwardAuthorization: z.boolean().optional().describe("Proxy mode: send the client's Authorization header upstream (default false)"),
  record: z.boolean().optional().describe("Keep a recording of every exchange, for a replay session (default: true with an upstream, false otherwise)"),
  /** Exempt from idle expiry (FAULTLINE_SESSION_TTL_HOURS). Set at creation only: PUT …/scenario refuses it. */
  keep: z.boolean().optional(),
  faults: z.strictObject({ scenario: z.string().min(1), params: z.record(z.string(), z.unknown()).optional() }).optional(),
});

const ChangeScenarioSchema = CreateSessionSchema.omit({ id: true, upstream: true, forwardAuthorization: true, record: true, keep: true, faults: true });

async function readJson(request: Request): Promise<unknown> {
  // Requiring application/json also keeps other sites' plain form posts (no CORS preflight) from creating sessions.
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(415, "unsupported_media_type", "Send the request body as Content-Type: application/json");
  }
  const text = await readCapped(request, SIZE_LIMITS.sessionParams);
  if (text === undefined) throw payloadTooLarge(SIZE_LIMITS.sessionParams);
  return parseJsonBody(text);
}

/**
 * Validates a create or change request. A top-level key that is a param of the scenario (or of any scenario, when
 * the scenario is unknown) gets a hint to nest it under `params`, the mistake this rule most often catches.
 */
function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const scenario = findScenario(String((body as { scenario?: unknown } | null)?.scenario ?? ""));
  const paramNames = new Set((scenario ? [scenario] : SCENARIOS).flatMap((s) => Object.keys(paramsSchema(s).shape)));
  const issues = issuesFromZod(result.error, []).map((issue): Issue => {
    if (issue.rule === "unrecognized_keys" && issue.path === "keep") return { ...issue, message: `${issue.message}: keep is set when the session is created (POST /api/sessions) and cannot be changed` };
    if (issue.rule !== "unrecognized_keys" || !paramNames.has(issue.path)) return issue;
    const example = JSON.stringify({ scenario: scenario?.id ?? "…", params: { [issue.path]: (body as Record<string, unknown>)[issue.path] } });
    return { ...issue, message: `${issue.message}: scenario params go under "params", as in ${example}` };
  });
  throw invalidRequest(issues);
}

/** Validates a scenario id and its params, applying the defaults. */
function resolveScenario(scenario: string, params: Record<string, unknown> | undefined, at: string[] = []) {
  const found = findScenario(scenario);
  if (!found) {
    const ids = SCENARIOS.map((s) => s.id);
    const near = closest(scenario, ids);
    const hint = near.length > 0 ? `did you mean ${near.map((id) => `'${id}'`).join(" or ")}?` : `GET /api/scenarios lists the ${ids.length} scenarios`;
    const message = `Unknown scenario '${scenario}'; ${hint}`;
    throw invalidRequest([{ path: [...at, "scenario"].join("."), rule: "unknown_scenario", message }]);
  }
  const result = paramsSchema(found).safeParse(params ?? {});
  if (!result.success) throw validationError(result.error, [...at, "params"]);
  return { scenario: found.id, params: result.data as Record<string, unknown> };
}

const randomId = () => randomHex(16);

const ListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const decoded = decodeCursor(value);
      if (!decoded) ctx.addIssue({ code: "custom", message: "must be a nextCursor returned by this list" });
      return decoded;
    }),
});


export const sessionRoutes = new Hono<{ Bindings: Env }>()
  .post("/", async (c) => {
    const body = parseBody(CreateSessionSchema, await readJson(c.req.raw));
    const { scenario, params } = resolveScenario(body.scenario, body.params);
    const upstream = proxiedScenario(upstreamOf(body, c.env, new URL(c.req.url)), scenario);
    const faults = body.faults && resolveScenario(body.faults.scenario, body.faults.params, ["faults"]);
    const replay = await replaySource(c.env, scenario, params, faults);
    const id = body.id ?? randomId();
    // A proxied session is a recording unless told otherwise (issue 17): its real traffic can be replayed offline.
    const recorded = body.record ?? upstream !== undefined;
    const options = { ...(upstream ? { upstream } : {}), ...(recorded ? { record: true } : {}), ...(body.keep ? { keep: true as const } : {}), ...(faults ? { faults } : {}) };
    // A replay session is created with its recording, in one call: it never answers without it.
    const record = await createWithinCap(c.env, { id, scenario, params, createdAt: new Date().toISOString(), ...options }, replay);
    await audit(c, "create", id, scenario);
    // What judges the client under it, so that a caller (faultline run) needs no list of its own, aliases included.
    const judging = findScenario(scenario)?.judging;
    return c.json({ ...withShownUpstream(record), mcpUrl: await mcpUrl(c.env, publicOrigin(c.req.raw, c.env), id), ...(judging ? { judging } : {}) }, 201);
  })
  .get("/", async (c) => {
    const parsed = ListQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validationError(parsed.error, ["query"]);
    const { limit, cursor } = parsed.data;
    return c.json(await listSessions(c.env, publicOrigin(c.req.raw, c.env), limit, cursor));
  })
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    const view = await sessionStub(c.env, id).view();
    return c.json(await shown(c.req.raw, c.env, id, view));
  })
  .put("/:id/scenario", async (c) => {
    const id = c.req.param("id");
    const body = parseBody(ChangeScenarioSchema, await readJson(c.req.raw));
    const { scenario, params } = resolveScenario(body.scenario, body.params);
    await assertKnownSession(c.env, id);
    proxiedScenario((await sessionStub(c.env, id).view())?.upstream, scenario);
    const replay = await replaySource(c.env, scenario, params);
    // One call: the scenario, its params and a replay's recording become live together, or none of them does.
    const view = await sessionStub(c.env, id).setScenario(scenario, params, replay);
    const answer = await shown(c.req.raw, c.env, id, view);
    await indexStub(c.env).put({ id, scenario, createdAt: answer.createdAt, proxied: answer.upstream !== undefined });
    await audit(c, "scenario", id, scenario);
    return c.json(answer);
  })
  .post("/:id/reset", async (c) => {
    const id = c.req.param("id");
    const answer = await shown(c.req.raw, c.env, id, await sessionStub(c.env, id).reset());
    await audit(c, "reset", id);
    return c.json(answer);
  })
  .post("/:id/expire-mcp-sessions", async (c) => {
    const id = c.req.param("id");
    // In proxy mode the upstream owns the MCP sessions: Faultline has none of its own to end.
    if ((await sessionStub(c.env, id).view())?.upstream) {
      throw new ApiError(409, "unsupported_in_proxy_mode", "In proxy mode the upstream owns the MCP sessions: Faultline has none to expire (restart the upstream instead)");
    }
    const answer = await shown(c.req.raw, c.env, id, await sessionStub(c.env, id).expireMcpSessions());
    await audit(c, "expire-mcp-sessions", id);
    return c.json(answer);
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    const existed = await sessionStub(c.env, id).erase();
    await indexStub(c.env).remove(id);
    if (!existed) throw sessionNotFound(id);
    await audit(c, "delete", id);
    return c.body(null, 204);
  });
