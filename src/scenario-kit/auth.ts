import { challengeScope } from "../base/header-safe.ts";

/**
 * The token of an `Authorization: Bearer <token>` header. The scheme is case-insensitive (RFC 9110 §11.1); any
 * non-blank token is taken, even outside RFC 6750's b64token characters, since no token is validated.
 */
export function bearerToken(headers: Record<string, string>): string | undefined {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? "");
  return match?.[1];
}

/** An optional `scope` for the challenge (the spec: servers SHOULD name the scope they need). */
export const ChallengeScopeSchema = challengeScope().optional().describe("scope=\"…\" in the WWW-Authenticate challenge");
