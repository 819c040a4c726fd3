import { z } from "zod";
import { TestKitchenMutationShape } from "../../src/scenario-kit/test-kitchen-params.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { toolsListResult } from "../../src/mcp/dispatch.ts";
import { ErrorCode, RpcError } from "../../src/wire/jsonrpc.ts";
import { text, type ToolContext, type ToolDefinition } from "../../src/mcp/tool.ts";

const CHANGED = "catalog-changed";
const RETIRING = "retiring_tool";
const ADDED = "added_tool";

/** Marks the catalogue changed (once) and says so on the response stream, in the eras that allow it. */
function change(ctx: ToolContext): boolean {
  if (ctx.counted(CHANGED) > 0) return false;
  ctx.count(CHANGED);
  // Legacy eras: on this response's stream. 2026-07-28: only on subscriptions/listen streams that asked for it.
  if (ctx.era === "legacy") ctx.notify("notifications/tools/list_changed", {});
  else ctx.listChanged("tools");
  return true;
}

/** A tool listed only before (or only after) the change; a call outside its time is an unknown tool. */
function phasedTool(name: string, title: string, listedWhenChanged: boolean): ToolDefinition {
  return {
    name,
    title,
    description: listedWhenChanged ? "Appears in tools/list once the catalogue has changed." : "Disappears from tools/list when the catalogue changes.",
    args: z.object({}),
    annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (_args, ctx) => {
      if ((ctx.counted(CHANGED) > 0) !== listedWhenChanged) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return text(`${name} ran.`);
    },
  };
}

const triggerToolChange: ToolDefinition = {
  name: "trigger_tool_change",
  title: "Trigger tool change",
  description: `Changes the tool catalogue once: ${RETIRING} disappears and ${ADDED} appears. Legacy eras: the answer is an SSE stream carrying notifications/tools/list_changed before the result.`,
  args: z.object({}),
  annotations: { title: "Trigger tool change", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async (_args, ctx) => text(change(ctx) ? `The catalogue changed: ${RETIRING} is gone and ${ADDED} is new.` : "The catalogue had already changed."),
};

export default defineScenario({
  id: "catalog.mutation",
  title: "Catalog: tools change",
  summary: `The tool catalogue changes once: ${RETIRING} disappears (calling it then gives -32602 Unknown tool) and ${ADDED} appears, after a trigger_tool_change call or on tools/list call afterListCalls+1. Legacy eras: that call's response is an SSE stream carrying notifications/tools/list_changed before its result. 2026-07-28: the list changes the same way, and notifications/tools/list_changed goes to the session's open subscriptions/listen streams that asked for toolsListChanged.`,
  layer: "protocol",
  params: z.object({
    afterListCalls: z.number().int().min(1).max(10_000).optional().describe("Change the catalogue on tools/list call N+1 (default: only trigger_tool_change does)"),
    ...TestKitchenMutationShape,
  }),
  judging: { checks: ["tools-relisted-after-change"], exercisedBy: "answers" },
  example: { afterListCalls: 1 },
  tools: () => [phasedTool(RETIRING, "Retiring tool", false), phasedTool(ADDED, "Added tool", true), triggerToolChange],
  handlers: (params) => ({
    "tools/list": async (_request, ctx) => {
      const lists = ctx.count("catalog-lists");
      if (params.afterListCalls !== undefined && lists === params.afterListCalls + 1) change(ctx);
      const hidden = ctx.counted(CHANGED) > 0 ? RETIRING : ADDED;
      return toolsListResult(ctx.tools.filter((t) => t.name !== hidden), ctx.era);
    },
  }),
  // Legacy eras: the call that may change the catalogue answers on an SSE stream, so the notification can ride on it.
  decide: ({ params, request, counters }) => {
    if (request.era !== "legacy") return undefined;
    const listChange = request.method === "tools/list" && params.afterListCalls !== undefined && counters.method === params.afterListCalls + 1;
    if (!listChange && request.toolName !== "trigger_tool_change") return undefined;
    return { fault: { kind: "respond_sse" }, reason: listChange ? `tools/list call ${counters.method} changes the catalogue` : "trigger_tool_change answers on SSE" };
  },
});
