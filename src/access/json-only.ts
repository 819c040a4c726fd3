import type { MiddlewareHandler } from "hono";
import { routedPath } from "./canonical-path.ts";
import { changesState } from "./paths.ts";
import { refusal } from "./refusal.ts";

/** True when the request carries no body bytes (no body, or Content-Length 0). */
function hasNoBody(request: Request): boolean {
  return request.body === null || request.headers.get("content-length") === "0";
}

/**
 * State-changing `/api` requests carry `application/json` or nothing. A browser sends `text/plain`, form and
 * multipart bodies cross-site without a CORS preflight; refusing them here closes that door for every API route,
 * whether or not the route reads its body.
 */
export const jsonOnly: MiddlewareHandler = async (c, next) => {
  const request = c.req.raw;
  if (!changesState(request.method)) return next();
  const type = request.headers.get("content-type");
  const mediaType = type?.split(";")[0]?.trim().toLowerCase();
  if (mediaType === "application/json" || (type === null && hasNoBody(request))) return next();
  const given = type === null ? "a body with no Content-Type" : `Content-Type '${type}'`;
  const path = routedPath(c);
  return refusal(path, 415, "unsupported_media_type", `${request.method} ${path} takes an application/json body or none, not ${given}`);
};
