import { isRecord } from "../classify/index.ts";
import { BASE_TOOLS } from "../mcp/base-tools.ts";
import type { ToolAnnotations } from "../mcp/tool.ts";
import { findScenario } from "../../scenarios/index.ts";
import { type Exchange, resultOf } from "./exchange.ts";

/**
 * What MCP says of a tool that declares no annotations, or leaves a hint out (the schema's ToolAnnotations, 2025-06-18
 * to 2026-07-28): readOnlyHint "Default: false", destructiveHint "Default: true", idempotentHint "Default: false",
 * openWorldHint "Default: true". So a tool without annotations may modify state, destructively, and is not safe to call twice.
 */
export const MCP_DEFAULT_ANNOTATIONS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

/** The hints a client must assume: the declared ones, MCP's defaults for the rest. */
export function resolvedAnnotations(a: ToolAnnotations | undefined): Required<Omit<ToolAnnotations, "title">> {
  return {
    readOnlyHint: a?.readOnlyHint ?? MCP_DEFAULT_ANNOTATIONS.readOnlyHint,
    destructiveHint: a?.destructiveHint ?? MCP_DEFAULT_ANNOTATIONS.destructiveHint,
    idempotentHint: a?.idempotentHint ?? MCP_DEFAULT_ANNOTATIONS.idempotentHint,
    openWorldHint: a?.openWorldHint ?? MCP_DEFAULT_ANNOTATIONS.openWorldHint,
  };
}

/** The tools the built-in server declares for the journal's scenarios: the base tools and each scenario's own (default params). */
function builtinTools(all: readonly Exchange[]): Map<string, ToolAnnotations | undefined> {
  const annotations = new Map<string, ToolAnnotations | undefined>(BASE_TOOLS.map((t) => [t.name, t.annotations]));
  for (const id of new Set(all.map((x) => x.entry.scenario))) {
    const scenario = findScenario(id);
    const params = scenario?.params.safeParse({});
    if (!scenario?.tools || !params?.success) continue;
    for (const tool of scenario.tools(params.data)) annotations.set(tool.name, tool.annotations);
  }
  return annotations;
}

/**
 * What the client was told about each tool (undefined: no annotations, so MCP's defaults). In proxy mode, only the
 * upstream's declarations count (Faultline's own tools are not the upstream's); otherwise the built-in server's.
 * Either is overridden by any tools/list answer in the journal. A tool missing from the map declared nothing.
 */
export function toolAnnotations(all: readonly Exchange[]): Map<string, ToolAnnotations | undefined> {
  const proxied = all.some((x) => x.entry.proxied !== undefined);
  const annotations = proxied ? new Map<string, ToolAnnotations | undefined>() : builtinTools(all);
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

/** Safe to send again: the tool says it is read-only or idempotent (neither is MCP's default). */
export const isRepeatable = (a: ToolAnnotations | undefined): boolean => {
  const hints = resolvedAnnotations(a);
  return hints.readOnlyHint || hints.idempotentHint;
};
