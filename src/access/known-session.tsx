import type { MiddlewareHandler } from "hono";
import { sessionNotFound } from "../api-error.ts";
import { NotFoundPage, SignedIn } from "../dashboard/layout.tsx";
import { signedInAs } from "./caller.ts";
import { ErrorCode, errorMessage } from "../wire/jsonrpc.ts";
import { jsonResponse } from "../wire/response.ts";
import { SECURITY_HEADERS } from "../dashboard/security.ts";
import { DEFAULT_SESSION_ID } from "../session/record.ts";
import { indexStub, sessionStub } from "../session/stubs.ts";
import { decodedSegment } from "./paths.ts";
import { routedPath } from "./canonical-path.ts";
import { capabilityRefusal } from "./capability.ts";
import { parseMcpPath } from "../base/mcp-path.ts";
import { capabilitiesEnabled } from "../base/capability-url.ts";

/** The session id a path addresses, and which surface it is on; undefined for paths that address no one session. */
export function sessionOfPath(path: string): { id: string; surface: "api" | "mcp" | "page" } | undefined {
  const api = path.match(/^\/api\/sessions\/([^/]+)(?:\/|$)/);
  if (api) return { id: decodedSegment(api[1]!), surface: "api" };
  const mcp = parseMcpPath(path);
  if (mcp) return { id: mcp.id, surface: "mcp" };
  const page = path.match(/^\/sessions\/([^/]+)$/);
  if (page) return { id: decodedSegment(page[1]!), surface: "page" };
  return undefined;
}

/**
 * MCP session ids the index listed within the last KNOWN_TTL_MS, so a client's stream of calls does not ask the one
 * index object before every call (a second Durable Object hop per request, and the index a bottleneck shared by every
 * session). Bounded. For at most the TTL after a delete, its MCP requests reach the erased object, which answers
 * the same 404 itself without writing storage back (erase() leaves it so while it stays in memory).
 */
const KNOWN_TTL_MS = 5_000;
const KNOWN_MAX = 10_000;
const known = new Map<string, number>();

async function listedRecently(env: Env, id: string): Promise<boolean> {
  const now = Date.now();
  const seen = known.get(id);
  if (seen !== undefined && now - seen < KNOWN_TTL_MS) return true;
  const listed = await indexStub(env).has(id);
  if (!listed) known.delete(id);
  else {
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(id, now);
  }
  return listed;
}

/** Throws the API's 404 unless the index lists the session. */
export async function assertKnownSession(env: Env, id: string): Promise<void> {
  if (!(await indexStub(env).has(id))) throw sessionNotFound(id);
}

/**
 * An unknown session id gets 404 before its Durable Object is instantiated: a SessionObject writes its SQLite schema
 * as soon as it starts, so every lookup of a made-up id used to leave a file behind. On the MCP endpoints the
 * capability URL's HMAC decides first (src/access/capability.ts); with the admin token set a verified URL needs no
 * index lookup, since only the server can have made it. Otherwise the index (one object, already there) answers.
 * The `default` session's MCP endpoint is let through: it comes into being on first use; its API and page make it too.
 */
export const knownSession: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const path = routedPath(c);
  const target = sessionOfPath(path);
  if (!target) return next();
  if (target.surface === "mcp") {
    const refused = await capabilityRefusal(c.env, path);
    if (refused) return refused;
    if (capabilitiesEnabled(c.env) || target.id === DEFAULT_SESSION_ID) return next();
  }
  // The default session exists from the first look, not only from the first MCP request (a DELETE still deletes).
  if (target.id === DEFAULT_SESSION_ID && c.req.method !== "DELETE") await sessionStub(c.env, DEFAULT_SESSION_ID).ensureDefault();
  // PUT /api/sessions/{id}/scenario validates its body first (a wrong scenario is named whether or not the session
  // exists) and calls assertKnownSession itself.
  if (c.req.method === "PUT" && path.endsWith("/scenario")) return next();
  if (target.surface === "api") {
    await assertKnownSession(c.env, target.id);
    return next();
  }
  if (target.surface === "mcp" ? await listedRecently(c.env, target.id) : await indexStub(c.env).has(target.id)) return next();
  if (target.surface === "page") {
    const page = <NotFoundPage what={`There is no session '${target.id}'. It may have been deleted.`} />;
    return c.html(<SignedIn.Provider value={await signedInAs(c)}>{page}</SignedIn.Provider>, 404, SECURITY_HEADERS);
  }
  const hint = `Create it with POST /api/sessions and the body {"id": ${JSON.stringify(target.id)}, "scenario": "baseline"} (any scenario), or use /mcp, the default session`;
  return jsonResponse(404, errorMessage(undefined, ErrorCode.InvalidRequest, `Session not found: no session has the id '${target.id}'. ${hint}`, { id: target.id }));
};
