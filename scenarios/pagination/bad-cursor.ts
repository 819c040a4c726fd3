import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { toolsListResult } from "../../src/mcp/dispatch.ts";
import { ErrorCode, RpcError } from "../../src/wire/jsonrpc.ts";

const CursorSchema = z.object({ o: z.number().int().min(0), x: z.literal(1).optional() });
type Cursor = z.infer<typeof CursorSchema>;

/** A checksum, not a MAC: it catches an edited cursor, which is all a test server needs. */
async function checksum(payload: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`faultline-cursor:${payload}`)));
  return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function issueCursor(cursor: Cursor): Promise<string> {
  const payload = btoa(JSON.stringify(cursor)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `${payload}.${await checksum(payload)}`;
}

// Spec (all versions): an invalid or expired cursor SHOULD get -32602 Invalid params.
const invalid = (reason: string) => new RpcError(ErrorCode.InvalidParams, `Invalid params: ${reason}`);

/** The offset a cursor points at, or -32602 for one this server did not issue, an edited one or an expired one. */
async function readCursor(value: unknown, total: number): Promise<number> {
  if (typeof value !== "string") throw invalid("cursor must be a string");
  const [payload = "", sum] = value.split(".");
  let cursor: Cursor;
  try {
    cursor = CursorSchema.parse(JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))));
  } catch {
    throw invalid("cursor is not one this server issued");
  }
  if (sum !== (await checksum(payload))) throw invalid("cursor has been tampered with (checksum mismatch)");
  if (cursor.x) throw invalid("cursor has expired");
  if (cursor.o >= total) throw invalid("cursor points past the end of the list");
  return cursor.o;
}

export default defineScenario({
  id: "pagination.bad_cursor",
  title: "Pagination: bad cursor",
  summary:
    "tools/list returns pageSize tools per page with an opaque nextCursor (base64 JSON plus a checksum). A cursor that is not a string, was not issued here, was edited or points past the end gets the JSON-RPC error -32602 (HTTP 200). With expiredCursor=N the nextCursor issued with page N is already expired, so following it gets -32602 \"cursor has expired\".",
  layer: "protocol",
  params: z.object({
    pageSize: z.number().int().min(1).max(100).default(2).describe("Tools per tools/list page"),
    expiredCursor: z.number().int().min(1).optional().describe("The nextCursor issued with page N fails as expired"),
  }),
  judging: { checks: ["cursor-not-looped"], exercisedBy: "answers" },
  example: { pageSize: 1, expiredCursor: 2 },
  handlers: (params) => ({
    "tools/list": async (request, ctx) => {
      const offset = request.cursor === undefined ? 0 : await readCursor(request.cursor, ctx.tools.length);
      const end = offset + params.pageSize;
      const page = Math.floor(offset / params.pageSize) + 1;
      const next = end < ctx.tools.length ? await issueCursor({ o: end, ...(page === params.expiredCursor ? { x: 1 as const } : {}) }) : undefined;
      return toolsListResult(ctx.tools.slice(offset, end), ctx.era, next);
    },
  }),
});
