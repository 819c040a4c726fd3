import { Hono } from "hono";
import { sessionNotFound } from "../src/api-error.ts";
import { sessionStub } from "../src/session/stubs.ts";

/** /api/sessions/{id}/checks: how the client behaved, judged (in the session's Durable Object) from the journal since the scenario was set. */
export const checkRoutes = new Hono<{ Bindings: Env }>().get("/:id/checks", async (c) => {
  const id = c.req.param("id");
  const judged = await sessionStub(c.env, id).checks();
  if (!judged) throw sessionNotFound(id);
  return c.json(judged);
});
