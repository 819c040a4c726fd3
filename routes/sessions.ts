import { Hono } from "hono";
import { z } from "zod";
import { ApiError, sessionNotFound, validationError } from "../src/api-error.ts";
import { parseJsonLimited, showBytes, SIZE_LIMITS } from "../src/json-limits.ts";
import { readCapped } from "../src/read-body.ts";
import type { SessionView } from "../src/session/session-object.ts";
import { createSession, indexStub, mcpUrl, sessionStub } from "../src/session/access.ts";
import { findScenario, paramsSchema, SCENARIOS } from "../scenarios/index.ts";

/** A session as the API shows it, with its MCP URL; 404 when the call found no session. */
function shown(requestUrl: string, id: string, view: SessionView | undefined) {
  if (!view) throw sessionNotFound(id);
  return { ...view, mcpUrl: mcpUrl(new URL(requestUrl).origin, id) };
}

const CreateSessionSchema = z.strictObject({
  scenario: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
  id: z
    .string()
    .regex(/^[a-z0-9-]{3,64}$/, "must match [a-z0-9-]{3,64}")
    .optional(),
});

const ChangeScenarioSchema = z.strictObject({
  scenario: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
});

async function readJson(request: Request): Promise<unknown> {
  // Requiring application/json also keeps other sites' plain form posts (no CORS preflight) from creating sessions.
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(415, "unsupported_media_type", "Send the request body as Content-Type: application/json");
  }
  const text = await readCapped(request, SIZE_LIMITS.sessionParams);
  if (text === undefined) throw new ApiError(413, "too_large", `The request body exceeds ${showBytes(SIZE_LIMITS.sessionParams)} (the size limit for session params)`);
  const json = parseJsonLimited(text);
  if (json.ok) return json.value;
  if (json.reason === "too_deep") throw new ApiError(400, "too_deep", json.message);
  throw new ApiError(400, "invalid_json", "The request body is not valid JSON");
}

function parse<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, prefix);
  return result.data;
}

/** Validates a scenario id and its params, applying the defaults. */
function resolveScenario(scenario: string, params: Record<string, unknown> | undefined) {
  const found = findScenario(scenario);
  if (!found) {
    throw new ApiError(400, "invalid_request", `scenario: unknown scenario '${scenario}' (one of: ${SCENARIOS.map((s) => s.id).join(", ")})`, [
      { path: "scenario", rule: "unknown_scenario", message: `Unknown scenario '${scenario}'` },
    ]);
  }
  return { scenario: found.id, params: parse(paramsSchema(found), params ?? {}, "params") as Record<string, unknown> };
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}


export const sessionRoutes = new Hono<{ Bindings: Env }>()
  .post("/", async (c) => {
    const body = parse(CreateSessionSchema, await readJson(c.req.raw));
    const { scenario, params } = resolveScenario(body.scenario, body.params);
    const id = body.id ?? randomId();
    const { record, created } = await createSession(c.env, { id, scenario, params, createdAt: new Date().toISOString() });
    if (!created) throw new ApiError(409, "session_exists", `A session with id '${id}' already exists`, [{ path: "id", rule: "unique", message: "already exists" }]);
    return c.json({ ...record, mcpUrl: mcpUrl(new URL(c.req.url).origin, id) }, 201);
  })
  .get("/", async (c) => {
    const origin = new URL(c.req.url).origin;
    const sessions = await indexStub(c.env).list(500);
    return c.json({ sessions: sessions.map((s) => ({ ...s, mcpUrl: mcpUrl(origin, s.id) })) });
  })
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    const view = await sessionStub(c.env, id).view();
    return c.json(shown(c.req.url, id, view));
  })
  .put("/:id/scenario", async (c) => {
    const id = c.req.param("id");
    const body = parse(ChangeScenarioSchema, await readJson(c.req.raw));
    const { scenario, params } = resolveScenario(body.scenario, body.params);
    const view = await sessionStub(c.env, id).setScenario(scenario, params);
    const answer = shown(c.req.url, id, view);
    await indexStub(c.env).put({ id, scenario, createdAt: answer.createdAt });
    return c.json(answer);
  })
  .post("/:id/reset", async (c) => {
    const id = c.req.param("id");
    const view = await sessionStub(c.env, id).reset();
    return c.json(shown(c.req.url, id, view));
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    const existed = await sessionStub(c.env, id).erase();
    await indexStub(c.env).remove(id);
    if (!existed) throw sessionNotFound(id);
    return c.body(null, 204);
  });
