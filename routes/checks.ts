import { Hono } from "hono";
import { sessionNotFound } from "../src/api-error.ts";
import { runChecks } from "../src/checks/index.ts";
import { sessionStub } from "../src/session/stubs.ts";

/** /api/sessions/{id}/checks: how the client behaved, judged from the journal since the scenario was set. */
export const checkRoutes = new Hono<{ Bindings: Env }>().get("/:id/checks", async (c) => {
  const id = c.req.param("id");
  const judged = await sessionStub(c.env, id).journalSinceEpoch();
  if (!judged) throw sessionNotFound(id);
  const { scenario, entries } = judged;
  return c.json({ scenario, checks: runChecks(scenario, entries) });
});
