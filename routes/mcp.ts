import { Hono } from "hono";
import { DEFAULT_SESSION_ID } from "../src/session/record.ts";
import { sessionStub } from "../src/session/stubs.ts";

/** The MCP endpoints: /mcp is the default session; /s/{id}/mcp is any session. Host and Origin are checked by the app first. */
export const mcpRoutes = new Hono<{ Bindings: Env }>()
  .all("/mcp", (c) => sessionStub(c.env, DEFAULT_SESSION_ID).fetch(c.req.raw))
  .all("/s/:id/mcp", (c) => sessionStub(c.env, c.req.param("id")).fetch(c.req.raw));
