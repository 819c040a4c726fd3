import { isRecord, resultMessage, type RequestId } from "../wire/jsonrpc.ts";
import type { Deadline } from "../wire/deadline.ts";
import type { ListChange, SessionRuntime } from "./runtime.ts";
import { openStream, sseComment, sseEvent, SSE_HEADERS } from "../wire/sse.ts";
import { META, SERVER_INFO, SUBSCRIPTION_ID } from "../wire/versions.ts";

export { SUBSCRIPTION_ID };

const LISTEN_KEEPALIVE_MS = 15_000;
const LISTEN_MAX_MS = 10 * 60_000;
/** Time kept before the response deadline to end a listen stream gracefully rather than have it cut. */
const LISTEN_GRACE_MS = 250;

/**
 * The part of a SubscriptionFilter this server honours: list changes of tools and prompts, and resource
 * subscriptions (accepted; no resource here ever changes, so no notifications/resources/updated follows).
 */
function honoredFilter(params: Record<string, unknown>): Record<string, unknown> {
  const wanted = isRecord(params.notifications) ? params.notifications : {};
  const uris = Array.isArray(wanted.resourceSubscriptions) ? wanted.resourceSubscriptions.filter((u) => typeof u === "string") : [];
  return {
    ...(wanted.toolsListChanged === true ? { toolsListChanged: true } : {}),
    ...(wanted.promptsListChanged === true ? { promptsListChanged: true } : {}),
    ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
  };
}

function notificationFor(change: ListChange, filter: Record<string, unknown>): { method: string; params: Record<string, unknown> } | undefined {
  const key = `${change.list}ListChanged`;
  return filter[key] === true ? { method: `notifications/${change.list}/list_changed`, params: {} } : undefined;
}

/**
 * A subscriptions/listen stream: the acknowledgement first, then the notifications the filter asked for, each
 * tagged with the subscription id (the listen request's id); SSE comments keep it alive. After LISTEN_MAX_MS, or
 * just before the response deadline, the server ends it gracefully with a complete result (2026-07-28 subscriptions.mdx).
 * The subscription belongs to the session, so a list change made through /mcp reaches a stream opened on /s/default/mcp.
 */
export function listenResponse(id: RequestId, params: Record<string, unknown>, session: SessionRuntime, deadline: Deadline): Response {
  const filter = honoredFilter(params);
  const tag = { [SUBSCRIPTION_ID]: id };
  const lifetimeMs = Math.min(LISTEN_MAX_MS, Math.max(0, deadline.remainingMs() - LISTEN_GRACE_MS));
  const readable = openStream({ waitUntil: (p) => session.waitUntil(p), deadline, sse: true }, async (out) => {
    out.send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: filter, _meta: tag } });
    const unsubscribe = session.subscribe((change) => {
      const notification = notificationFor(change, filter);
      if (notification) out.send({ jsonrpc: "2.0", method: notification.method, params: { ...notification.params, _meta: tag } });
    });
    const keepAlive = setInterval(() => void out.write(sseComment("keep-alive")), LISTEN_KEEPALIVE_MS);
    const lifetime = setTimeout(() => {
      void out.write(sseEvent(resultMessage(id, { resultType: "complete", _meta: { ...tag, [META.serverInfo]: SERVER_INFO } }))).then(() => out.close());
    }, lifetimeMs);
    try {
      await out.ended;
    } finally {
      clearInterval(keepAlive);
      clearTimeout(lifetime);
      unsubscribe();
    }
  });
  return new Response(readable, { status: 200, headers: SSE_HEADERS });
}
