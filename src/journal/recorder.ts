import { classify } from "../classify/index.ts";
import { parseJson } from "../classify/json.ts";
import { parseSse } from "../classify/sse.ts";
import type { Handled } from "../mcp/runtime.ts";
import { META } from "../mcp/versions.ts";
import { capture, cut, drain } from "./capture.ts";
import type { JournalEntry, NewJournalEntry } from "./entry.ts";
import { headerRecord, redactHeaders } from "./redact.ts";

export interface RecorderOptions {
  started: number;
  scenario: string;
  bodyCap: number;
  keepClientIp: boolean;
  clientInfoFor: (mcpSessionId: string) => Record<string, unknown> | undefined;
  record: (entry: NewJournalEntry) => JournalEntry;
  waitUntil: (promise: Promise<unknown>) => void;
}

function rpcOf(body: unknown): JournalEntry["rpc"] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { kind: "invalid" };
  const message = body as Record<string, unknown>;
  const id = message.id as string | number | null | undefined;
  const method = typeof message.method === "string" ? message.method : undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const kind = method ? ("id" in message ? "request" : "notification") : "result" in message || "error" in message ? "response" : "invalid";
  return {
    ...(id !== undefined ? { id } : {}),
    ...(method ? { method } : {}),
    kind,
    ...(method === "tools/call" && typeof params.name === "string" ? { toolName: params.name } : {}),
  };
}

function clientInfoOf(body: unknown): Record<string, unknown> | undefined {
  const params = ((body as Record<string, unknown> | undefined)?.params ?? {}) as Record<string, unknown>;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const info = meta[META.clientInfo] ?? params.clientInfo;
  return info && typeof info === "object" ? (info as Record<string, unknown>) : undefined;
}

/**
 * Returns the response to send, and journals the exchange once the response body has been sent in full:
 * the body is teed, so the client sees every byte exactly when it would have without the journal.
 */
export function journalled(request: Request, handled: Handled, options: RecorderOptions): Response {
  const response = handled.response;
  let clientBranch: ReadableStream<Uint8Array> | null = null;
  let journalBranch: ReadableStream<Uint8Array> | null = null;
  if (response.body) [clientBranch, journalBranch] = response.body.tee();

  const requestHeaders = headerRecord(request.headers, options.keepClientIp);
  const responseHeaders = headerRecord(response.headers);
  const requestText = handled.requestBody ?? "";

  options.waitUntil(
    (async () => {
      const body = await drain(journalBranch);
      const finished = Date.now();
      const parsed = parseJson(requestText);
      const requestBody = parsed.ok ? parsed.value : undefined;
      const rpc = rpcOf(requestBody);
      const isSse = (responseHeaders["content-type"] ?? "").includes("text/event-stream");
      const facts = handled.facts;
      const mcpSessionId = facts?.mcpSessionId ?? response.headers.get("mcp-session-id") ?? requestHeaders["mcp-session-id"];
      const clientInfo = clientInfoOf(requestBody) ?? (mcpSessionId ? options.clientInfoFor(mcpSessionId) : undefined);
      const verdict =
        request.method === "POST"
          ? classify(
              {
                request: { headers: requestHeaders, body: requestText },
                response: { status: response.status, headers: responseHeaders, body: body.text },
              },
              { now: finished },
            )
          : undefined;
      options.record({
        time: new Date(options.started).toISOString(),
        durationMs: Math.max(0, finished - options.started),
        request: {
          method: request.method,
          url: new URL(request.url).pathname,
          headers: redactHeaders(requestHeaders),
          body: capture(requestText, new TextEncoder().encode(requestText).byteLength, options.bodyCap),
        },
        response: {
          status: response.status,
          headers: redactHeaders(responseHeaders),
          body: capture(body.text, body.bytes, options.bodyCap),
          ...(isSse
            ? {
                sseEvents: parseSse(body.text).events.map((e) => ({
                  ...(e.id !== undefined ? { id: e.id } : {}),
                  event: e.type,
                  data: cut(e.data, options.bodyCap),
                  ...(e.retry !== undefined ? { retry: e.retry } : {}),
                })),
              }
            : {}),
        },
        rpc,
        ...(facts ? { era: facts.era, protocolVersion: facts.protocolVersion } : {}),
        ...(mcpSessionId ? { mcpSessionId } : {}),
        ...(clientInfo ? { clientInfo } : {}),
        ...(handled.decision
          ? { fault: { kind: handled.decision.fault.kind, rule: handled.decision.rule, detail: { ...handled.decision.fault } } }
          : {}),
        scenario: options.scenario,
        ...(verdict ? { verdict } : {}),
      });
    })().catch((error) => console.error("journal failed", error)),
  );

  return new Response(clientBranch, { status: response.status, statusText: response.statusText, headers: response.headers });
}
