import type { Deadline } from "../wire/deadline.ts";
import { shownUpstreamUrl, type UpstreamConfig } from "./config.ts";

/**
 * One HTTP exchange with the upstream. Headers pass end to end except the hop-by-hop ones (RFC 9110 §7.6.1, plus any
 * the Connection header names), Host and Content-Length (set by fetch), Faultline's own (its login cookie, the
 * `cf-*` headers the platform adds, such as the client's IP, and the client's Authorization unless the session
 * forwards it) and Accept-Encoding (asked as identity, so the bytes the
 * client gets are the bytes the journal reads). Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name and
 * Last-Event-ID pass as they are. Redirects are not followed: a 3xx goes back to the client as it came.
 */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"];
const NOT_FORWARDED = new Set([...HOP_BY_HOP, "host", "content-length", "cookie", "accept-encoding", "authorization"]);
/**
 * Response headers the proxy sets itself (the body is re-framed), that are hop-by-hop, or that would act on
 * Faultline's origin: an upstream's Set-Cookie would set a cookie for every page Faultline serves.
 */
const NOT_RETURNED = new Set([...HOP_BY_HOP, "content-length", "content-encoding", "set-cookie"]);

function filtered(headers: Headers, drop: Set<string>): Record<string, string> {
  const named = (headers.get("connection") ?? "").split(",").map((s) => s.trim().toLowerCase());
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    const name = key.toLowerCase();
    if (!drop.has(name) && !named.includes(name) && !name.startsWith("cf-")) out[name] = value;
  });
  return out;
}

export function upstreamRequestHeaders(client: Headers, upstream: UpstreamConfig): Record<string, string> {
  const headers = filtered(client, NOT_FORWARDED);
  const authorization = client.get("authorization");
  if (upstream.forwardAuthorization && authorization !== null) headers.authorization = authorization;
  headers["accept-encoding"] = "identity";
  return headers;
}

export function clientResponseHeaders(upstream: Headers): Record<string, string> {
  return filtered(upstream, NOT_RETURNED);
}

export type UpstreamOutcome =
  | { ok: true; response: Response; requestHeaders: Record<string, string> }
  | { ok: false; status: 502 | 504; reason: string; requestHeaders: Record<string, string> };

/**
 * Sends the request upstream. The deadline bounds the wait for the upstream's headers here, and its body wherever
 * the body is read (src/proxy/answer.ts): an upstream that has not answered by then gets a 504, one that cannot be
 * reached a 502.
 */
export async function callUpstream(method: string, clientHeaders: Headers, body: string | undefined, upstream: UpstreamConfig, deadline: Deadline): Promise<UpstreamOutcome> {
  const requestHeaders = upstreamRequestHeaders(clientHeaders, upstream);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), deadline.remainingMs());
  try {
    const response = await fetch(upstream.url, { method, headers: requestHeaders, ...(body !== undefined ? { body } : {}), redirect: "manual", signal: abort.signal });
    return { ok: true, response, requestHeaders };
  } catch (error) {
    if (abort.signal.aborted) {
      deadline.cut = true;
      return { ok: false, status: 504, reason: `Upstream ${shownUpstreamUrl(upstream.url)} did not answer within the ${deadline.seconds} s response deadline (FAULTLINE_MAX_RESPONSE_SECONDS)`, requestHeaders };
    }
    return { ok: false, status: 502, reason: `Upstream ${shownUpstreamUrl(upstream.url)} could not be reached: ${error instanceof Error ? error.message : String(error)}`, requestHeaders };
  } finally {
    clearTimeout(timer);
  }
}
