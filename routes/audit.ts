import { Hono } from "hono";
import { z } from "zod";
import { ApiError, validationError } from "../src/api-error.ts";
import { whoIs } from "../src/access/audit.ts";
import { indexStub } from "../src/session/index-stub.ts";

const AuditQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** The nextCursor of the previous page: lines older than it follow. */
  cursor: z.string().regex(/^[1-9][0-9]{0,15}$/, "must be a nextCursor returned by this list").optional(),
});

/**
 * GET /api/audit: the audit lines, newest first, paged with a cursor. The admin's only (with a token configured the
 * viewer gets 403: the log tells who did what, which a read-only watcher has no need for); open without a token, like
 * the rest of the API.
 */
export const auditRoutes = new Hono<{ Bindings: Env }>().get("/", async (c) => {
  const who = await whoIs(c);
  if (who !== "admin" && who !== "local") {
    throw new ApiError(403, "admin_only", "The audit log is readable with the admin token only");
  }
  const parsed = AuditQuerySchema.safeParse(c.req.query());
  if (!parsed.success) throw validationError(parsed.error, ["query"]);
  const { limit, cursor } = parsed.data;
  const { lines, more } = await indexStub(c.env).auditPage(limit, cursor === undefined ? undefined : Number(cursor));
  const last = lines.at(-1);
  return c.json({ lines, ...(more && last ? { nextCursor: String(last.seq) } : {}) });
});
