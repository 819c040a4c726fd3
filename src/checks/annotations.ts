import { isRecord } from "../classify/index.ts";
import { BASE_TOOLS } from "../mcp/base-tools.ts";
import type { ToolAnnotations } from "../mcp/tool.ts";
import { type Exchange, resultOf } from "./exchange.ts";

/** What the client was told about each tool: Faultline's own annotations, overridden by any tools/list answer in the journal. */
export function toolAnnotations(all: readonly Exchange[]): Map<string, ToolAnnotations | undefined> {
  const annotations = new Map<string, ToolAnnotations | undefined>(BASE_TOOLS.map((t) => [t.name, t.annotations]));
  for (const x of all) {
    // Proxy mode: the upstream's own declaration of the called tool (src/proxy/tools.ts), for clients that never list.
    const declared = x.entry.proxied?.tool;
    if (declared) annotations.set(declared.name, declared.annotations as ToolAnnotations | undefined);
    if (x.method !== "tools/list") continue;
    const tools = resultOf(x)?.tools;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) {
      if (isRecord(tool) && typeof tool.name === "string") {
        annotations.set(tool.name, isRecord(tool.annotations) ? (tool.annotations as ToolAnnotations) : undefined);
      }
    }
  }
  return annotations;
}

/** Safe to send again: the tool says it is read-only or idempotent. */
export const isRepeatable = (a: ToolAnnotations | undefined): boolean => a?.readOnlyHint === true || a?.idempotentHint === true;
