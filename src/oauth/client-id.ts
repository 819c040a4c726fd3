import { z } from "zod";
import { isAllowedOrigin, isLoopback, type AccessVars } from "../base/allowlist.ts";
import { readCapped } from "../base/read-body.ts";
import { sleep } from "../base/sleep.ts";
import type { ClientRow } from "./records.ts";
import { RedirectUriSchema } from "./redirect-uri.ts";
import { firstIssue } from "./wire.ts";

/** A Client ID Metadata Document is read whole up to this size, and not at all past it. */
export const MAX_CLIENT_DOCUMENT = 64 * 1024;
/** The fetch of a document is abandoned after this long. */
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;

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

/** Where this server runs, as its configuration says: its public origin, and whether that is loopback only. */
export interface ServerFacts {
  origin: string;
  loopback: boolean;
}

/**
 * Where the server runs, never from the request's Host alone (any client sets it). FAULTLINE_PUBLIC_URL, when set,
 * names the origin and decides. Unset, the origin is the request's, and the server counts as loopback only when that
 * is a loopback name and FAULTLINE_ADMIN_TOKEN is unset: `npm start` and `npm run serve` refuse to listen beyond
 * loopback without a token, so a server without one is reached on loopback, whatever Host a client claims; with a
 * token it may be shared, and a client claiming `Host: 127.0.0.1` proves nothing.
 */
export function serverFacts(origin: string, vars: { FAULTLINE_PUBLIC_URL?: string; FAULTLINE_ADMIN_TOKEN?: string }): ServerFacts {
  // The origin came from FAULTLINE_PUBLIC_URL (src/base/public-origin.ts uses it only when it is a valid http(s) URL).
  const configured = URL.parse(vars.FAULTLINE_PUBLIC_URL?.trim() ?? "")?.origin === origin;
  const host = new URL(origin).hostname;
  return { origin, loopback: isLoopback(host) && (configured || !vars.FAULTLINE_ADMIN_TOKEN) };
}

/**
 * Why a URL client_id is not acceptable, or undefined. It must be an https URL with a path (and no fragment or
 * credentials). The one exception: `http://127.0.0.1…` (or another loopback name) while the server itself runs on
 * loopback (serverFacts), so a client under test on the same machine needs no certificate; a server published
 * beyond loopback never accepts a loopback client_id, which would make it fetch from its own machine. The document's
 * origin must also be one the allowlist admits (loopback, the server's own, ALLOWED_ORIGINS): the fetch is a request
 * to somewhere else.
 */
export function clientIdProblem(clientId: string, server: ServerFacts, vars: AccessVars): string | undefined {
  const url = URL.parse(clientId);
  if (!url) return "client_id is not a URL";
  if (url.hash || url.username || url.password) return "client_id must not carry a fragment or credentials";
  if (url.pathname === "/" || url.pathname === "") return "client_id must be a URL with a path";
  const loopback = isLoopback(url.hostname);
  if (loopback && !server.loopback) return "a loopback client_id is accepted only while this server runs on loopback";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return "client_id must be an https URL (http only for loopback, while this server runs on loopback)";
  if (!isAllowedOrigin(url.origin, new URL(server.origin), vars)) return `the origin ${url.origin} is not allowed: add it to ALLOWED_ORIGINS to accept its client metadata documents`;
  return undefined;
}

/**
 * The one answer to every failure to get a document: refused, reset, timed out, redirected, not 200, too large, not
 * JSON, or JSON that does not name this URL as its client_id. Telling them apart would let anyone who can reach
 * /authorize probe which ports listen on the addresses the server may fetch from (loopback, while it runs there).
 */
export const UNREADABLE_DOCUMENT = `no client metadata document could be read at this URL: it must answer HTTP 200, without a redirect, within ${CLIENT_DOCUMENT_TIMEOUT_MS / 1000} s, with at most ${MAX_CLIENT_DOCUMENT / 1024} KB of JSON whose client_id is this URL (which of these failed is not said, so that the answer reveals nothing about what listens there)`;

export interface FetchOptions {
  fetcher?: typeof fetch;
  /** The clock and the wait, stood in for by tests. */
  now?: () => number;
  wait?: (ms: number) => Promise<void>;
}

/**
 * Fetches and checks a Client ID Metadata Document: no redirects, 5 s, 64 KB, JSON whose client_id is the URL
 * itself. Returns the client, or why it was refused (a sentence for error_description). A document that names itself
 * gets the precise rule it breaks; every other failure gets UNREADABLE_DOCUMENT, and only once the 5 s are over, so
 * neither the words nor the time tell a closed port from an open one.
 */
export async function fetchClientDocument(clientId: string, options: FetchOptions = {}): Promise<ClientRow | { problem: string }> {
  const { fetcher = fetch, now = Date.now, wait = sleep } = options;
  const started = now();
  const read = await readDocument(clientId, fetcher);
  if (read === undefined) {
    await wait(Math.max(0, started + CLIENT_DOCUMENT_TIMEOUT_MS - now()));
    return { problem: UNREADABLE_DOCUMENT };
  }
  const doc = ClientDocumentSchema.safeParse(read);
  if (!doc.success) return { problem: `the client metadata document is invalid: ${firstIssue(doc.error)}` };
  return { clientId, redirectUris: doc.data.redirect_uris, via: "cimd", ...(doc.data.client_name ? { clientName: doc.data.client_name } : {}) };
}

/** The document at `clientId` when it is a JSON object whose client_id is that URL; undefined for any other outcome. */
async function readDocument(clientId: string, fetcher: typeof fetch): Promise<Record<string, unknown> | undefined> {
  let response: Response;
  try {
    response = await fetcher(clientId, { redirect: "manual", signal: AbortSignal.timeout(CLIENT_DOCUMENT_TIMEOUT_MS), headers: { accept: "application/json" } });
  } catch {
    return undefined;
  }
  // A fetch that followed a redirect anyway is refused as one. The local runtime's outbound fetch (wrangler's test
  // harness) follows it silently; the document it reaches names another client_id, which refuses it all the same.
  const moved = response.redirected || (response.url !== "" && response.url !== clientId);
  if (moved || response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const text = await readCapped(response, MAX_CLIENT_DOCUMENT).catch(() => undefined);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const named = typeof json === "object" && json !== null && !Array.isArray(json) && (json as { client_id?: unknown }).client_id === clientId;
  return named ? (json as Record<string, unknown>) : undefined;
}
