import { Hono } from "hono";
import { parseMcpPath } from "../src/base/mcp-path.ts";
import { ErrorCode, errorMessage } from "../src/wire/jsonrpc.ts";
import { asMcpAnswer, jsonResponse } from "../src/wire/response.ts";
import { DEFAULT_SESSION_ID } from "../src/session/record.ts";
import { sessionStub } from "../src/session/stubs.ts";

/** What an MCP endpoint answers when something below it threw (src/app.ts's error handler): a JSON-RPC error. */
export const mcpInternalError = (): Response => asMcpAnswer(jsonResponse(500, errorMessage(undefined, ErrorCode.InternalError, "Internal error")));

/**
 * The MCP endpoints: /mcp is the default session; /s/{id}/mcp (or /s/{id}.{secret}/mcp, a capability URL, with the
 * admin token set) is any session. Host, Origin and the capability's secret are checked by the app first. The
 * session's object answers with the MCP answer headers already set (asMcpAnswer in its fetch), so nothing is copied here.
 */
export const mcpRoutes = new Hono<{ Bindings: Env }>()
  .all("/mcp", (c) => sessionStub(c.env, DEFAULT_SESSION_ID).fetch(c.req.raw))
  .all("/s/:segment/mcp", (c) => sessionStub(c.env, parseMcpPath(c.req.path)!.id).fetch(c.req.raw));
