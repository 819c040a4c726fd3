import { Hono } from "hono";
import { ErrorCode, errorMessage } from "../src/mcp/jsonrpc.ts";
import { jsonResponse } from "../src/mcp/wire.ts";
import { checkOrigin } from "../src/origin.ts";
import { DEFAULT_SESSION_ID } from "../src/session/record.ts";
import { sessionStub } from "../src/session/stubs.ts";

async function forward(env: Env, id: string, request: Request): Promise<Response> {
  const refused = checkOrigin(request, env.ALLOWED_HOSTS);
  // The body MAY be a JSON-RPC error response with no id (2025-11-25 transports, Security Warning).
  if (refused) return jsonResponse(403, errorMessage(undefined, ErrorCode.InvalidRequest, `Forbidden: ${refused}`));
  return sessionStub(env, id).fetch(request);
}

/** The MCP endpoints: /mcp is the default session; /s/{id}/mcp is any session. */
export const mcpRoutes = new Hono<{ Bindings: Env }>()
  .all("/mcp", (c) => forward(c.env, DEFAULT_SESSION_ID, c.req.raw))
  .all("/s/:id/mcp", (c) => forward(c.env, c.req.param("id"), c.req.raw));
