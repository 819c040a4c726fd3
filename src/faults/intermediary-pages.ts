import { textResponse } from "../wire/response.ts";

/**
 * The error pages an intermediary in front of a server sends when it gives up on it: each looks like what that kind
 * of proxy sends (status, an HTML page, a text/html content type, no JSON-RPC), in Faultline's own words.
 */
export type IntermediaryPage = "cloudflare" | "nginx" | "alb";

const REASONS: Readonly<Record<number, string>> = { 502: "Bad Gateway", 504: "Gateway Time-out", 524: "A timeout occurred" };

const reasonOf = (status: number): string => REASONS[status] ?? "Gateway error";

/** A CDN edge's page: the error number, its name, and who is at fault (the origin, not the browser or the edge). */
function edgePage(status: number): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${status}: ${reasonOf(status)}</title></head>`,
    '<body><div id="error-details">',
    `<h1>Error ${status}</h1><h2>${reasonOf(status)}</h2>`,
    "<p>The edge reached the origin server, but the origin sent no HTTP response before the edge stopped waiting.</p>",
    "<ul><li>You: working</li><li>Edge: working</li><li>Origin server: no answer in time</li></ul>",
    "<p>Faultline intermediary (an edge-style page, injected on purpose)</p>",
    "</div></body></html>",
    "",
  ].join("\n");
}

/** A reverse proxy's or load balancer's terse page: the status line as the title and heading, the proxy's name below. */
function tersePage(status: number, signature: string): string {
  return [
    `<html><head><title>${status} ${reasonOf(status)}</title></head>`,
    `<body><h1>${status} ${reasonOf(status)}</h1>`,
    "<p>The server behind this proxy did not answer in time.</p>",
    `<hr><p>${signature}</p></body></html>`,
    "",
  ].join("\n");
}

/** The response an intermediary sends in place of the server's answer after it gave up waiting. */
export function intermediaryPageResponse(page: IntermediaryPage, status: number): Response {
  const body = page === "cloudflare" ? edgePage(status) : tersePage(status, page === "nginx" ? "faultline intermediary (reverse proxy)" : "faultline intermediary (load balancer)");
  return textResponse(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
