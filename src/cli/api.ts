import { z } from "zod";
import { CheckSchema } from "../checks/check.ts";
import { ServerError } from "./errors.ts";

// The parts of the sessions API's answers the CLI reads; other fields are allowed and ignored.
/** A scenario's `judging`, as far as the CLI reads it; a server older than the field sends none. */
const JudgingSchema = z.object({
  checks: z.array(z.string()),
  exercisedBy: z.enum(["fault", "answers", "control"]).optional(),
  reachedBy: z.array(z.string()).optional(),
  needsOutside: z.string().optional(),
});
const CreatedSessionSchema = z.object({ id: z.string(), mcpUrl: z.string(), judging: JudgingSchema.optional() });
const ChecksSchema = z.object({ checks: z.array(CheckSchema) });
/** A journal entry, as far as `faultline run` reads it: what was asked, and the fault the scenario chose, if any. */
const JournalLineSchema = z.object({
  seq: z.number().int(),
  request: z.object({ method: z.string() }),
  response: z.object({ status: z.number().int() }),
  rpc: z.object({ method: z.string().optional(), toolName: z.string().optional() }),
  fault: z.object({ kind: z.string(), rule: z.string() }).optional(),
  verdict: z.object({ outcome: z.string() }).optional(),
});
export type JournalLine = z.infer<typeof JournalLineSchema>;
const JournalPageSchema = z.object({ entries: z.array(JournalLineSchema), nextCursor: z.string().optional() });
/** The largest page the journal API gives. */
const JOURNAL_PAGE = 1000;
/** A journal entry as the server gives it, for `faultline journal`: the fields it shows, the rest kept as they are. */
const EntrySchema = z.looseObject({
  seq: z.number().int(),
  time: z.string(),
  durationMs: z.number(),
  request: z.looseObject({ method: z.string() }),
  response: z.looseObject({ status: z.number().int() }),
  rpc: z.looseObject({ method: z.string().optional(), toolName: z.string().optional() }),
  fault: z.looseObject({ kind: z.string() }).optional(),
  verdict: z.looseObject({ outcome: z.string() }).optional(),
  retryOf: z.number().int().optional(),
});
export type Entry = z.infer<typeof EntrySchema>;
const EntryPageSchema = z.object({ entries: z.array(EntrySchema), nextCursor: z.string().optional() });
const ListedSessionSchema = z.looseObject({ id: z.string(), scenario: z.string(), createdAt: z.string(), mcpUrl: z.string() });
export type ListedSession = z.infer<typeof ListedSessionSchema>;
const SessionPageSchema = z.object({ sessions: z.array(ListedSessionSchema), nextCursor: z.string().optional() });
const CatalogueSchema = z.object({
  scenarios: z.array(z.object({ id: z.string(), example: z.record(z.string(), z.unknown()).optional(), judging: JudgingSchema.optional() })),
});
const ApiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type CatalogueEntry = z.infer<typeof CatalogueSchema>["scenarios"][number];

/** The Faultline management API, as the CLI and faultline/testing use it. */
export class FaultlineApi {
  readonly #base: string;
  readonly #headers: Record<string, string>;

  /** `server` is the Faultline origin (http://127.0.0.1:8787); `token` is sent as a bearer token when given. */
  constructor(server: string, token: string | undefined) {
    this.#base = server.replace(/\/+$/, "");
    this.#headers = token ? { authorization: `Bearer ${token}` } : {};
  }

  scenarios() {
    return this.#call("GET", "/api/scenarios", CatalogueSchema, 200).then((body) => body.scenarios);
  }

  createSession(scenario: string, params: Record<string, unknown>) {
    return this.#call("POST", "/api/sessions", CreatedSessionSchema, 201, { scenario, params });
  }

  checks(id: string) {
    return this.#call("GET", `/api/sessions/${encodeURIComponent(id)}/checks`, ChecksSchema, 200).then((body) => body.checks);
  }

  /** The session's whole journal, oldest first, a page at a time. */
  async journal(id: string): Promise<JournalLine[]> {
    const lines: JournalLine[] = [];
    let cursor: string | undefined;
    do {
      const query = `limit=${JOURNAL_PAGE}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page = await this.#call("GET", `/api/sessions/${encodeURIComponent(id)}/journal?${query}`, JournalPageSchema, 200);
      lines.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return lines;
  }

  /** The session's whole journal as the server gives it, oldest first. */
  async entries(id: string): Promise<Entry[]> {
    return this.#pages((cursor) => `/api/sessions/${encodeURIComponent(id)}/journal?limit=${JOURNAL_PAGE}${cursor}`, EntryPageSchema, (page) => page.entries);
  }

  /** Every session, newest first. */
  async sessions(): Promise<ListedSession[]> {
    return this.#pages((cursor) => `/api/sessions?limit=${JOURNAL_PAGE}${cursor}`, SessionPageSchema, (page) => page.sessions);
  }

  resetSession(id: string) {
    return this.#call("POST", `/api/sessions/${encodeURIComponent(id)}/reset`, z.unknown(), 200);
  }

  async #pages<S extends z.ZodType<{ nextCursor?: string | undefined }>, T>(path: (cursor: string) => string, schema: S, items: (page: z.infer<S>) => T[]): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#call("GET", path(cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`), schema, 200);
      out.push(...items(page));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  }

  async deleteSession(id: string): Promise<void> {
    await this.#call("DELETE", `/api/sessions/${encodeURIComponent(id)}`, undefined, 204);
  }

  async #call<S extends z.ZodType>(method: string, path: string, schema: S | undefined, expected: number, body?: unknown): Promise<z.infer<S>> {
    const what = `${method} ${this.#base}${path}`;
    let response: Response;
    try {
      response = await fetch(`${this.#base}${path}`, {
        method,
        headers: { ...this.#headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new ServerError(`cannot reach the Faultline server: ${what}: ${cause}`);
    }
    const text = await response.text();
    if (response.status !== expected) throw new ServerError(`${what} answered ${response.status}: ${errorText(text)}`);
    if (schema === undefined) return undefined as z.infer<S>;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ServerError(`${what} answered ${response.status} with a body that is not JSON: ${clip(text)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ServerError(`${what} answered in an unexpected shape (${parsed.error.issues[0]?.message ?? "invalid"}): is this a Faultline server?`);
    return parsed.data;
  }
}

/** The message of a Faultline API error, or the start of whatever else the body holds. */
function errorText(text: string): string {
  try {
    const parsed = ApiErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) return `${parsed.data.error.message} (${parsed.data.error.code})`;
  } catch {
    // not JSON: shown as text below
  }
  return clip(text) || "(empty body)";
}

function clip(text: string, max = 300): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}… (${trimmed.length - max} more characters)` : trimmed;
}
