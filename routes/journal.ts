import { Hono } from "hono";
import { z } from "zod";
import { ApiError, sessionNotFound, validationError } from "../src/api-error.ts";
import { OutcomeSchema } from "../src/classify/index.ts";
import type { JournalEntry } from "../src/journal/entry.ts";
import { HAR_CLOSE, HAR_OPEN, harEntry } from "../src/journal/har.ts";
import { MAX_LIVE_STREAMS } from "../src/journal/live.ts";
import type { JournalQuery } from "../src/journal/store.ts";
import { sessionStub } from "../src/session/stubs.ts";
import { publicOrigin } from "../src/base/public-origin.ts";

const JournalQuerySchema = z.strictObject({
  method: z.string().min(1).optional(),
  outcome: OutcomeSchema.optional(),
  since: z.coerce.number().int().nonnegative().optional().describe("Only entries with a greater seq"),
  cursor: z.string().regex(/^\d+$/, "must be a cursor returned as nextCursor").optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  order: z.enum(["asc", "desc"]).default("asc"),
  format: z.enum(["json", "jsonl", "har"]).default("json"),
});

/** Entries fetched from the Durable Object per step of an export. */
const EXPORT_PAGE = 100;

/**
 * An export as a stream of text: every matching entry, oldest first, fetched a page at a time as the client reads,
 * so neither the Worker nor the Durable Object ever holds the whole journal.
 */
function exportStream(
  fetchPage: (q: JournalQuery) => Promise<{ entries: JournalEntry[]; nextSeq?: number } | undefined>,
  filter: Omit<JournalQuery, "order" | "limit" | "sinceSeq">,
  since: number | undefined,
  write: { open: string; entry: (e: JournalEntry, first: boolean) => string; close: string },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = since;
  let first = true;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (write.open) controller.enqueue(encoder.encode(write.open));
      },
      async pull(controller) {
        if (done) return;
        const page = await fetchPage({ ...filter, ...(after !== undefined ? { sinceSeq: after } : {}), limit: EXPORT_PAGE, order: "asc" });
        const entries = page?.entries ?? [];
        const text = entries.map((e) => {
          const piece = write.entry(e, first);
          first = false;
          return piece;
        });
        if (text.length) controller.enqueue(encoder.encode(text.join("")));
        after = entries.at(-1)?.seq ?? after;
        if (page?.nextSeq === undefined) {
          done = true;
          if (write.close) controller.enqueue(encoder.encode(write.close));
          controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** /api/sessions/{id}/journal: the journal as pages, JSONL, HAR 1.2, or a live SSE stream. */
export const journalRoutes = new Hono<{ Bindings: Env }>()
  .get("/:id/journal", async (c) => {
    const parsed = JournalQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validationError(parsed.error, ["query"]);
    const q = parsed.data;
    const id = c.req.param("id");
    const stub = sessionStub(c.env, id);
    const filter = { ...(q.method ? { method: q.method } : {}), ...(q.outcome ? { outcome: q.outcome } : {}) };
    if (q.format !== "json") {
      // The first page answers "does the session exist" before any byte of the export is sent.
      if (!(await stub.journalPage({ limit: 1, order: "asc" }))) throw sessionNotFound(id);
      const fetchPage = (query: JournalQuery) => stub.journalPage(query);
      const origin = publicOrigin(c.req.raw, c.env);
      const write =
        q.format === "jsonl"
          ? { open: "", entry: (e: JournalEntry) => `${JSON.stringify(e)}\n`, close: "" }
          : { open: HAR_OPEN, entry: (e: JournalEntry, first: boolean) => `${first ? "" : ","}${JSON.stringify(harEntry(e, origin))}`, close: HAR_CLOSE };
      return new Response(exportStream(fetchPage, filter, q.since, write), {
        headers: {
          "content-type": q.format === "jsonl" ? "application/jsonl; charset=utf-8" : "application/json; charset=utf-8",
          "content-disposition": `attachment; filename="faultline-${id}.${q.format}"`,
        },
      });
    }
    const sinceSeq = q.cursor !== undefined ? Number(q.cursor) : q.since;
    const page = await stub.journalPage({ ...filter, ...(sinceSeq !== undefined ? { sinceSeq } : {}), limit: q.limit, order: q.order });
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
    if (stream === "busy") {
      throw new ApiError(429, "too_many_streams", `At most ${MAX_LIVE_STREAMS} live journal streams per session; close one first`);
    }
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" } });
  });
