import { Hono } from "hono";
import { z } from "zod";
import { ApiError, invalidRequest, issuesFromZod, parseJsonBody, payloadTooLarge, sessionNotFound, validationError, type Issue } from "../src/api-error.ts";
import { SIZE_LIMITS } from "../src/json-limits.ts";
import { assertKnownSession } from "../src/access/known-session.tsx";
import { maxSessions } from "../src/access/session-cap.ts";
import { randomHex } from "../src/random-id.ts";
import { readCapped } from "../src/read-body.ts";
import { mcpUrl, type SessionView } from "../src/session/record.ts";
import { createSession, indexStub, sessionStub } from "../src/session/stubs.ts";
import { closest } from "../src/suggest.ts";
import { publicOrigin } from "../src/public-origin.ts";
import { findScenario, paramsSchema, SCENARIOS } from "../scenarios/index.ts";
import { recordingStub, replaySource } from "../src/recording/source.ts";


/** A session as the API shows it, with its MCP URL; 404 when the call found no session. */
function shown(request: Request, env: Env, id: string, view: SessionView | undefined) {
  if (!view) throw sessionNotFound(id);
  return { ...view, mcpUrl: mcpUrl(publicOrigin(request, env), id) };
}

const CreateSessionSchema = z.strictObject({
  scenario: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
  id: z
    .string()
    .regex(/^[a-z0-9-]{3,64}$/, "must match [a-z0-9-]{3,64}")
    .optional(),
  record: z.boolean().optional().describe("Keep a recording of every exchange, for a replay session"),
  keep: z.boolean().optional(),
  faults: z.strictObject({ scenario: z.string().min(1), params: z.record(z.string(), z.unknown()).optional() }).optional(),
});

const ChangeScenarioSchema = CreateSessionSchema.omit({ id: true, record: true, keep: true, faults: true });

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

/** Where a page of the list ends: the last entry's creation time and id, base64url JSON, opaque to callers. */
const CursorSchema = z.tuple([z.string(), z.string()]);

function encodeCursor(entry: { createdAt: string; id: string }): string {
  return btoa(JSON.stringify([entry.createdAt, entry.id])).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string): { createdAt: string; id: string } | undefined {
  try {
    const [createdAt, id] = CursorSchema.parse(JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/"))));
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

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
    const faults = body.faults && resolveScenario(body.faults.scenario, body.faults.params, ["faults"]);
    const replay = await replaySource(c.env, scenario, params, faults);
    const id = body.id ?? randomId();
    const cap = maxSessions(c.env);
    if ((await indexStub(c.env).count()) >= cap) {
      throw new ApiError(429, "session_limit", `The server holds its maximum of ${cap} sessions (FAULTLINE_MAX_SESSIONS): delete one first`);
    }
    const options = { ...(body.record ? { record: true } : {}), ...(body.keep ? { keep: true } : {}), ...(faults ? { faults } : {}) };
    const { record, created } = await createSession(c.env, { id, scenario, params, createdAt: new Date().toISOString(), ...options });
    if (!created) throw new ApiError(409, "session_exists", `A session with id '${id}' already exists`, [{ path: "id", rule: "unique", message: "already exists" }]);
    if (replay) await recordingStub(c.env, id).loadReplay(replay);
    return c.json({ ...record, mcpUrl: mcpUrl(publicOrigin(c.req.raw, c.env), id) }, 201);
  })
  .get("/", async (c) => {
    const parsed = ListQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validationError(parsed.error, ["query"]);
    const { limit, cursor } = parsed.data;
    const origin = publicOrigin(c.req.raw, c.env);
    const { entries, more } = await indexStub(c.env).page(limit, cursor);
    const last = entries.at(-1);
    const nextCursor = more && last ? encodeCursor(last) : undefined;
    return c.json({ sessions: entries.map((s) => ({ ...s, mcpUrl: mcpUrl(origin, s.id) })), ...(nextCursor ? { nextCursor } : {}) });
  })
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    const view = await sessionStub(c.env, id).view();
    return c.json(shown(c.req.raw, c.env, id, view));
  })
  .put("/:id/scenario", async (c) => {
    const id = c.req.param("id");
    const body = parseBody(ChangeScenarioSchema, await readJson(c.req.raw));
    const { scenario, params } = resolveScenario(body.scenario, body.params);
    await assertKnownSession(c.env, id);
    const replay = await replaySource(c.env, scenario, params);
    const view = await sessionStub(c.env, id).setScenario(scenario, params);
    if (replay) await recordingStub(c.env, id).loadReplay(replay);
    const answer = shown(c.req.raw, c.env, id, view);
    await indexStub(c.env).put({ id, scenario, createdAt: answer.createdAt });
    return c.json(answer);
  })
  .post("/:id/reset", async (c) => {
    const id = c.req.param("id");
    const view = await sessionStub(c.env, id).reset();
    return c.json(shown(c.req.raw, c.env, id, view));
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    const existed = await sessionStub(c.env, id).erase();
    await indexStub(c.env).remove(id);
    if (!existed) throw sessionNotFound(id);
    return c.body(null, 204);
  });
