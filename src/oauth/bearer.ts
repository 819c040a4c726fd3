import { bearerToken } from "../scenario-kit/auth.ts";
import type { BearerFacts } from "../mcp/bearer-facts.ts";
import type { OAuthStore } from "./store.ts";

/** The facts of the request's bearer token, or undefined when it carries none. */
export function bearerFacts(headers: Record<string, string>, store: OAuthStore, resource: string, now: number): BearerFacts | undefined {
  const token = bearerToken(headers);
  if (!token) return undefined;
  const key = store.keyOf(token);
  const row = store.tokenByKey(key);
  const valid = row !== undefined && row.kind === "access" && !row.revoked && row.expiresAt > now && row.resource === resource;
  return { key, valid, scopes: valid ? row.scope.split(" ") : [] };
}
