import { z } from "zod";
import { indexStub } from "./index-stub.ts";
import { mcpUrl } from "../base/capability-url.ts";

/** Where a page of the session list ends: the last entry's creation time and id, base64url JSON, opaque to callers. */
const CursorSchema = z.tuple([z.string(), z.string()]);

export function encodeCursor(entry: { createdAt: string; id: string }): string {
  return btoa(JSON.stringify([entry.createdAt, entry.id])).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } | undefined {
  try {
    const [createdAt, id] = CursorSchema.parse(JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/"))));
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

export interface ListedSession {
  id: string;
  scenario: string;
  createdAt: string;
  mcpUrl: string;
  /** Present (true) when the session is in proxy mode. */
  proxied?: boolean;
}

/** One page of the session list, newest first, each with its MCP URL; `nextCursor` when another page follows. */
export async function listSessions(env: Env, origin: string, limit: number, after?: { createdAt: string; id: string }): Promise<{ sessions: ListedSession[]; nextCursor?: string }> {
  const { entries, more } = await indexStub(env).page(limit, after);
  const last = entries.at(-1);
  const sessions = await Promise.all(entries.map(async (s) => ({ ...s, mcpUrl: await mcpUrl(env, origin, s.id) })));
  return more && last ? { sessions, nextCursor: encodeCursor(last) } : { sessions };
}
