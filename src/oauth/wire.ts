import { z } from "zod";
import { jsonResponse } from "../wire/response.ts";

/** The error codes of RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2 and RFC 8707 §2 that this server answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

/** A refusal as OAuth endpoints answer it (RFC 6749 §5.2): `{error, error_description}`, never cached. */
export function oauthError(status: number, error: OAuthErrorCode, description: string): Response {
  return jsonResponse(status, { error, error_description: description }, NO_STORE);
}

/** RFC 6749 §5.1: token responses MUST NOT be cached. */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/** The first issue of a zod failure as `field: message`, for an error_description that names the field and the rule. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid request";
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Bytes a form or JSON body of an OAuth endpoint may have. */
export const MAX_OAUTH_BODY = 64 * 1024;

/** The form-encoded (application/x-www-form-urlencoded) fields of a body, as OAuth requests send them; last one wins. */
export function formFields(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

/** S256 (RFC 7636 §4.2): BASE64URL(SHA256(ASCII(code_verifier))). */
export async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
