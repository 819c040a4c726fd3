import type { ToolAnnotations } from "../mcp/tool.ts";
import { isRepeatable, toolAnnotations } from "./annotations.ts";
import { type Check, type Observation, observe, summarize, withRetry } from "./check.ts";
import { type Exchange, gapMs, label, nextByKey, resultOf, retrySeen, sameCall, sameTarget, showArgs, targetOf } from "./exchange.ts";

type Find = (x: Exchange) => Exchange | undefined;

/**
 * A tools/call answered with a tool execution error (isError: true), injected or the tool's own: from the reply, or,
 * when the journal cut a long body, from the classifier's verdict (it read the whole body).
 */
const isToolError = (x: Exchange): boolean =>
  x.isRequest && x.method === "tools/call" && (resultOf(x)?.isError === true || x.entry.verdict?.outcome === "TOOL_ERROR");

/** The key every request shares: nextByKey with it finds the next request of any method. */
const anyRequest = (x: Exchange): string | undefined => (x.isRequest ? "request" : undefined);

function ranNote(x: Exchange): string {
  if (x.entry.effects === "ran") return "the tool ran before it reported the error";
  if (x.entry.effects === "none") return "the tool did not run";
  return "the tool may have run before it reported the error";
}

/**
 * An identical repeat is judged by what the tool declares: a read-only or idempotent tool can take it (a warning: the
 * same call will most likely fail the same way), any other tool may act twice (a failure).
 */
function identical(x: Exchange, again: Exchange, annotations: ReadonlyMap<string, ToolAnnotations | undefined>): Observation {
  const tool = targetOf(x) ?? "";
  const repeated = `After the isError result to ${label(x)} (seq ${x.seq}), the client repeated the identical call ${showArgs(again)} (seq ${again.seq}) ${gapMs(x, again)} ms later`;
  const judged = isRepeatable(annotations.get(tool))
    ? observe("warning", `${repeated}: ${tool} is declared read-only or idempotent, so it is harmless, but the unchanged call will most likely fail the same way.`, x.seq, again.seq)
    : observe("fail", `${repeated}: ${tool} is not idempotent and ${ranNote(x)}, so the repeat may act twice.`, x.seq, again.seq);
  return withRetry(judged, retrySeen(x, again));
}

function judge(x: Exchange, sameOf: Find, anyOf: Find, annotations: ReadonlyMap<string, ToolAnnotations | undefined>): Observation {
  const after = `After the isError result to ${label(x)} (seq ${x.seq})`;
  const again = sameOf(x);
  if (again) {
    if (x.params === undefined || again.params === undefined) {
      return observe("warning", `${after}, the client called ${targetOf(x) ?? "the tool"} again (seq ${again.seq}), but the journal cut a request body, so the arguments cannot be compared.`, x.seq, again.seq);
    }
    if (sameCall(x, again)) return identical(x, again, annotations);
    return observe("pass", `${after}, the client changed the arguments: ${showArgs(x)} then ${showArgs(again)} (seq ${again.seq}).`, x.seq, again.seq);
  }
  const other = anyOf(x);
  if (other) return observe("pass", `${after}, the client did not call ${targetOf(x) ?? "the tool"} again and moved on to ${label(other)} (seq ${other.seq}).`, x.seq, other.seq);
  return observe("pass", `${after}, the client sent no further request: it gave up on the call rather than repeat it.`, x.seq);
}

/**
 * tool-error-next-step: what the client did after a tool execution error (isError: true). Changing the arguments,
 * using another tool or stopping pass; an identical repeat warns for a read-only or idempotent tool and fails for any
 * other. The next call of the same tool decides, whatever came between; every "next" is found in one pass.
 */
export function toolErrorChecks(all: readonly Exchange[]): Check[] {
  const errors = all.filter(isToolError);
  if (errors.length === 0) return [];
  const annotations = toolAnnotations(all);
  const sameOf = nextByKey(all, sameTarget);
  const anyOf = nextByKey(all, anyRequest);
  return summarize("tool-error-next-step", errors.map((x) => judge(x, sameOf, anyOf, annotations)));
}
