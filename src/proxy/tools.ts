import { Deadline } from "../wire/deadline.ts";
import type { MessageFacts } from "../mcp/facts.ts";
import { isRecord } from "../wire/jsonrpc.ts";
import type { SessionRuntime } from "../mcp/runtime.ts";
import { upstreamAnswer } from "./answer.ts";
import type { UpstreamConfig } from "./config.ts";
import { callUpstream } from "./forward.ts";
import { UpstreamTrace } from "./journal.ts";

/** Tools kept per session: enough for any real catalogue, bounded so a hostile upstream cannot grow the cache. */
export const MAX_CATALOGUE_TOOLS = 1000;

type Annotations = Record<string, unknown> | undefined;
type Catalogue = Map<string, Annotations>;

/** One catalogue per session object, read once (the first tools/call) and kept in memory until it restarts. */
const CATALOGUES = new WeakMap<SessionRuntime, Promise<Catalogue | undefined>>();

/**
 * The annotations the upstream declares for `tool`, from its own tools/list, so the checks that depend on them (a
 * non-idempotent call sent again) judge the upstream's real tools even when the client never listed them. The
 * tools/list goes with the client's headers (its version, MCP session and, when forwarded, its Authorization) and,
 * in 2026-07-28, the client's _meta envelope. Only the first page is read. Undefined when the upstream has no such
 * tool or could not be read.
 */
export async function upstreamToolAnnotations(session: SessionRuntime, upstream: UpstreamConfig, clientHeaders: Headers, message: MessageFacts, deadline: Deadline, tool: string): Promise<{ known: boolean; annotations: Annotations }> {
  let catalogue = CATALOGUES.get(session);
  if (!catalogue) {
    catalogue = readCatalogue(upstream, clientHeaders, message, deadline).catch(() => undefined);
    CATALOGUES.set(session, catalogue);
  }
  const tools = await catalogue;
  // An upstream that could not be read is asked again at the next call, not written off for the session.
  if (!tools) CATALOGUES.delete(session);
  return { known: tools?.has(tool) ?? false, annotations: tools?.get(tool) };
}

async function readCatalogue(upstream: UpstreamConfig, clientHeaders: Headers, message: MessageFacts, callDeadline: Deadline): Promise<Catalogue | undefined> {
  // Bounded by the call's deadline, but a read cut by it must not mark the call itself as cut.
  const deadline = new Deadline(Date.now(), callDeadline.remainingMs() / 1000);
  const headers = new Headers(clientHeaders);
  headers.set("mcp-method", "tools/list");
  headers.delete("mcp-name");
  const meta = message.request.era === "modern" && isRecord(message.params._meta) ? { _meta: message.params._meta } : {};
  const body = JSON.stringify({ jsonrpc: "2.0", id: "faultline-tools-list", method: "tools/list", params: meta });
  const outcome = await callUpstream("POST", headers, body, upstream, deadline);
  if (!outcome.ok) return undefined;
  const answer = await upstreamAnswer(outcome.response, "faultline-tools-list", new UpstreamTrace(upstream.url, "forward"), deadline);
  if (answer === "timeout") return undefined;
  // Not one JSON-RPC message: its body is not read, so it is released rather than left open.
  if ("response" in answer) return void (await answer.response.body?.cancel().catch(() => undefined));
  const result = (await answer.answer(undefined))?.result;
  const tools = isRecord(result) && Array.isArray(result.tools) ? result.tools.slice(0, MAX_CATALOGUE_TOOLS) : [];
  const catalogue: Catalogue = new Map();
  for (const t of tools) if (isRecord(t) && typeof t.name === "string") catalogue.set(t.name, isRecord(t.annotations) ? t.annotations : undefined);
  return catalogue;
}
