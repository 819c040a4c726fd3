import { Hono } from "hono";
import { z } from "zod";
import { ApiError, sessionNotFound, validationError } from "../src/api-error.ts";
import { OutcomeSchema } from "../src/classify/index.ts";
import { toHar } from "../src/journal/har.ts";
import { sessionStub } from "../src/session/stubs.ts";
import { publicOrigin } from "../src/public-origin.ts";

const JournalQuerySchema = z.strictObject({
  method: z.string().min(1).optional(),
  outcome: OutcomeSchema.optional(),
  since: z.coerce.number().int().nonnegative().optional().describe("Only entries with a greater seq"),
  cursor: z.string().regex(/^\d+$/, "must be a cursor returned as nextCursor").optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  order: z.enum(["asc", "desc"]).default("asc"),
  format: z.enum(["json", "jsonl", "har"]).default("json"),
});


/** /api/sessions/{id}/journal: the journal as pages, JSONL, HAR 1.2, or a live SSE stream. */
export const journalRoutes = new Hono<{ Bindings: Env }>()
  .get("/:id/journal", async (c) => {
    const parsed = JournalQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validationError(parsed.error, ["query"]);
    const q = parsed.data;
    const id = c.req.param("id");
    const filter = { ...(q.method ? { method: q.method } : {}), ...(q.outcome ? { outcome: q.outcome } : {}) };
    if (q.format !== "json") {
      // Exports hold every matching entry, oldest first.
      const all = await sessionStub(c.env, id).journalPage({ ...filter, ...(q.since !== undefined ? { sinceSeq: q.since } : {}), order: "asc" });
      if (!all) throw sessionNotFound(id);
      const entries = all.entries;
      if (q.format === "jsonl") {
        return c.body(entries.map((e) => JSON.stringify(e)).join("\n") + (entries.length ? "\n" : ""), 200, {
          "content-type": "application/jsonl; charset=utf-8",
          "content-disposition": `attachment; filename="faultline-${c.req.param("id")}.jsonl"`,
        });
      }
      c.header("content-disposition", `attachment; filename="faultline-${c.req.param("id")}.har"`);
      return c.json(toHar(entries, publicOrigin(c.req.raw, c.env)));
    }
    const sinceSeq = q.cursor !== undefined ? Number(q.cursor) : q.since;
    const page = await sessionStub(c.env, id).journalPage({ ...filter, ...(sinceSeq !== undefined ? { sinceSeq } : {}), limit: q.limit, order: q.order });
    if (!page) throw sessionNotFound(id);
    return c.json({ entries: page.entries, ...(page.nextSeq !== undefined ? { nextCursor: String(page.nextSeq) } : {}) });
  })
  .get("/:id/journal/stream", async (c) => {
    const since = Number(c.req.query("since") ?? c.req.header("last-event-id") ?? "0");
    if (!Number.isInteger(since) || since < 0) {
      throw new ApiError(400, "invalid_request", "query.since: must be a non-negative integer", [{ path: "query.since", rule: "integer", message: "must be a non-negative integer" }]);
    }
    const stream = await sessionStub(c.env, c.req.param("id")).journalStream(since);
    if (!stream) throw sessionNotFound(c.req.param("id"));
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" } });
  });
