import { z } from "zod";
import { isAllowedOrigin, isLoopback, type AccessVars } from "../base/allowlist.ts";
import { readCapped } from "../base/read-body.ts";
import type { ClientRow } from "./records.ts";
import { firstIssue } from "./wire.ts";

/** A Client ID Metadata Document is read whole up to this size, and not at all past it. */
export const MAX_CLIENT_DOCUMENT = 64 * 1024;
/** The fetch of a document is abandoned after this long. */
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;

/** A redirect URI: an absolute URL without a fragment (RFC 6749 §3.1.2). */
export const RedirectUriSchema = z
  .string()
  .max(2000)
  .refine((v) => URL.canParse(v) && !v.includes("#"), "must be an absolute URL without a fragment (RFC 6749 §3.1.2)");

/** The fields of a Client ID Metadata Document this server reads (the draft's client metadata, RFC 7591 §2 names). */
const ClientDocumentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(RedirectUriSchema).min(1).max(20),
  token_endpoint_auth_method: z.literal("none", { error: "only public clients (none) are supported here" }).optional(),
});

/** A client_id that is a URL names a metadata document; any other is one this server registered (RFC 7591). */
export function isUrlClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Why a URL client_id is not acceptable, or undefined. It must be an https URL with a path (and no fragment or
 * credentials). The one exception: `http://127.0.0.1…` (or another loopback name) while the server itself runs on
 * loopback, so a client under test on the same machine needs no certificate; a server reached by another name never
 * accepts a loopback client_id, which would make it fetch from its own machine. The document's origin must also be
 * one the allowlist admits (loopback, the server's own, ALLOWED_ORIGINS): the fetch is a request to somewhere else.
 */
export function clientIdProblem(clientId: string, server: URL, vars: AccessVars): string | undefined {
  const url = URL.parse(clientId);
  if (!url) return "client_id is not a URL";
  if (url.hash || url.username || url.password) return "client_id must not carry a fragment or credentials";
  if (url.pathname === "/" || url.pathname === "") return "client_id must be a URL with a path";
  const loopback = isLoopback(url.hostname);
  if (loopback && !isLoopback(server.hostname)) return "a loopback client_id is accepted only while this server runs on loopback";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return "client_id must be an https URL (http only for loopback, while this server runs on loopback)";
  if (!isAllowedOrigin(url.origin, server, vars)) return `the origin ${url.origin} is not allowed: add it to ALLOWED_ORIGINS to accept its client metadata documents`;
  return undefined;
}

/**
 * Fetches and checks a Client ID Metadata Document: no redirects, 5 s, 64 KB, JSON whose client_id is the URL
 * itself. Returns the client, or why it was refused (a sentence for error_description).
 */
export async function fetchClientDocument(clientId: string, fetcher: typeof fetch = fetch): Promise<ClientRow | { problem: string }> {
  let response: Response;
  try {
    response = await fetcher(clientId, { redirect: "manual", signal: AbortSignal.timeout(CLIENT_DOCUMENT_TIMEOUT_MS), headers: { accept: "application/json" } });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return { problem: timedOut ? `the client metadata document did not arrive within ${CLIENT_DOCUMENT_TIMEOUT_MS / 1000} s` : "the client metadata document could not be fetched" };
  }
  // A fetch that followed a redirect anyway is refused as one where it says so. The local runtime's outbound fetch
  // (wrangler's test harness) follows it silently; the client_id check below still refuses the document it reaches.
  const moved = response.redirected || (response.url !== "" && response.url !== clientId);
  if (moved || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel();
    return { problem: `the client metadata document answered a redirect${moved ? "" : ` (${response.status})`}; redirects are not followed` };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { problem: `the client metadata document answered HTTP ${response.status}` };
  }
  const text = await readCapped(response, MAX_CLIENT_DOCUMENT).catch(() => undefined);
  if (text === undefined) return { problem: `the client metadata document is larger than ${MAX_CLIENT_DOCUMENT / 1024} KB, or its body failed` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: "the client metadata document is not JSON" };
  }
  const doc = ClientDocumentSchema.safeParse(json);
  if (!doc.success) return { problem: `the client metadata document is invalid: ${firstIssue(doc.error)}` };
  if (doc.data.client_id !== clientId) return { problem: "the client metadata document's client_id is not the URL it was fetched from" };
  return { clientId, redirectUris: doc.data.redirect_uris, via: "cimd", ...(doc.data.client_name ? { clientName: doc.data.client_name } : {}) };
}
