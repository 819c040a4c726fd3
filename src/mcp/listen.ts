import { isRecord } from "../classify/json.ts";
import { resultMessage, type RequestId } from "./jsonrpc.ts";
import type { SessionRuntime } from "./runtime.ts";
import { SSE_HEADERS, sseEvent } from "./sse.ts";
import { META, SERVER_INFO } from "./versions.ts";

/** Tags every notification on a subscriptions/listen stream, and its closing result (2026-07-28). */
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export type ListChange = { list: "tools" | "prompts" };
type Subscriber = (change: ListChange) => void;

/**
 * Open listen streams per session. A session is one Durable Object, so every request of a session runs in the
 * same isolate; the channel is the MCP path (/s/{id}/mcp), which names the session.
 */
const SUBSCRIBERS = new Map<string, Set<Subscriber>>();
const LISTEN_KEEPALIVE_MS = 15_000;
const LISTEN_MAX_MS = 10 * 60_000;

export function channelOf(request: Request): string {
  return new URL(request.url).pathname;
}

export function publish(channel: string, change: ListChange): void {
  for (const subscriber of SUBSCRIBERS.get(channel) ?? []) subscriber(change);
}

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
 * tagged with the subscription id (the listen request's id); SSE comments keep it alive. After LISTEN_MAX_MS the
 * server ends it gracefully with a complete result (2026-07-28 subscriptions.mdx).
 */
export function listenResponse(id: RequestId, params: Record<string, unknown>, channel: string, runtime: SessionRuntime): Response {
  const filter = honoredFilter(params);
  const tag = { [SUBSCRIPTION_ID]: id };
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const write = (chunk: string) => {
    if (!open) return;
    writer.write(encoder.encode(chunk)).catch(() => {
      open = false;
      finish();
    });
  };
  const subscriber: Subscriber = (change) => {
    const notification = notificationFor(change, filter);
    if (notification) write(sseEvent({ jsonrpc: "2.0", method: notification.method, params: { ...notification.params, _meta: tag } }));
  };
  write(sseEvent({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: filter, _meta: tag } }));
  const subscribers = SUBSCRIBERS.get(channel) ?? new Set<Subscriber>();
  SUBSCRIBERS.set(channel, subscribers);
  subscribers.add(subscriber);
  const keepAlive = setInterval(() => write(": keep-alive\n\n"), LISTEN_KEEPALIVE_MS);
  const lifetime = setTimeout(() => {
    write(sseEvent(resultMessage(id, { resultType: "complete", _meta: { ...tag, [META.serverInfo]: SERVER_INFO } })));
    finish();
  }, LISTEN_MAX_MS);
  runtime.waitUntil(
    ended.then(async () => {
      clearInterval(keepAlive);
      clearTimeout(lifetime);
      subscribers.delete(subscriber);
      if (subscribers.size === 0) SUBSCRIBERS.delete(channel);
      open = false;
      await writer.close().catch(() => undefined);
    }),
  );
  return new Response(readable, { status: 200, headers: SSE_HEADERS });
}
