import { Hono } from "hono";
import { parseMcpPath } from "../src/base/mcp-path.ts";
import { DEFAULT_SESSION_ID } from "../src/session/record.ts";
import { sessionStub } from "../src/session/stubs.ts";

/**
 * The MCP endpoints: /mcp is the default session; /s/{id}/mcp (or /s/{id}.{secret}/mcp, a capability URL, with the
 * admin token set) is any session. Host, Origin and the capability's secret are checked by the app first.
 */
export const mcpRoutes = new Hono<{ Bindings: Env }>()
  .all("/mcp", (c) => sessionStub(c.env, DEFAULT_SESSION_ID).fetch(c.req.raw))
  .all("/s/:segment/mcp", (c) => sessionStub(c.env, parseMcpPath(c.req.path)!.id).fetch(c.req.raw));
