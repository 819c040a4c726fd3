import { Hono } from "hono";
import { parseMcpPath } from "../src/base/mcp-path.ts";
import { ErrorCode, errorMessage } from "../src/wire/jsonrpc.ts";
import { jsonResponse } from "../src/wire/response.ts";
import { DEFAULT_SESSION_ID } from "../src/session/record.ts";
import { sessionStub } from "../src/session/stubs.ts";

/**
 * Headers every answer on an MCP endpoint carries, whatever its source (the built-in server, an upstream, a
 * recording, a fault). An MCP URL opened in a browser must not become a page of Faultline's origin: a fault's HTML
 * error page or an upstream's own page is shown sandboxed (an opaque origin, no script, no subresource, no framing),
 * and no content type is sniffed into another. Cookies are never set on Faultline's origin by an answer.
 */
export const MCP_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "sandbox; default-src 'none'; frame-ancestors 'none'",
};

/** An answer on an MCP endpoint, with the MCP answer headers and no cookie. */
export function mcpAnswer(response: Response): Response {
  // A Durable Object's answer has immutable headers: copy it (the body stream is passed on, not read).
  const out = new Response(response.body, response);
  out.headers.delete("set-cookie");
  for (const [name, value] of Object.entries(MCP_ANSWER_HEADERS)) out.headers.set(name, value);
  return out;
}

/** What an MCP endpoint answers when something below it threw (src/app.ts's error handler): a JSON-RPC error. */
export const mcpInternalError = (): Response => mcpAnswer(jsonResponse(500, errorMessage(undefined, ErrorCode.InternalError, "Internal error")));

/**
 * The MCP endpoints: /mcp is the default session; /s/{id}/mcp (or /s/{id}.{secret}/mcp, a capability URL, with the
 * admin token set) is any session. Host, Origin and the capability's secret are checked by the app first.
 */
export const mcpRoutes = new Hono<{ Bindings: Env }>()
  .all("/mcp", async (c) => mcpAnswer(await sessionStub(c.env, DEFAULT_SESSION_ID).fetch(c.req.raw)))
  .all("/s/:segment/mcp", async (c) => mcpAnswer(await sessionStub(c.env, parseMcpPath(c.req.path)!.id).fetch(c.req.raw)));
