import { z } from "zod";
import { text, type ToolDefinition } from "./tool.ts";

export const EchoArgsSchema = z.object({ text: z.string().describe("The text to send back") });
export const PlaceOrderArgsSchema = z.object({
  item: z.string().min(1).describe("What to order"),
  quantity: z.number().int().min(1).max(1000).describe("How many"),
});

/** The three tools every scenario serves; scenarios may add more or replace one by name. */
export const BASE_TOOLS: readonly ToolDefinition[] = [
  {
    name: "echo",
    title: "Echo",
    description: "Returns the given text unchanged. Read-only and idempotent: safe to retry.",
    args: EchoArgsSchema,
    annotations: { title: "Echo", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args) => text(String(args.text)),
  },
  {
    name: "place_order",
    title: "Place order",
    description:
      "Places an order and returns its number. Not idempotent: every call places a new order, so a blind replay shows up as a second order.",
    args: PlaceOrderArgsSchema,
    annotations: { title: "Place order", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (args, ctx) => {
      const order = ctx.count("orders");
      return {
        content: [{ type: "text", text: `Order #${order} placed: ${String(args.quantity)} x ${String(args.item)}` }],
        structuredContent: { orderNumber: order, item: args.item, quantity: args.quantity },
      };
    },
  },
  {
    name: "run_configured_test_scenario",
    title: "Run configured test scenario",
    description:
      "Runs the session's configured scenario once (MCP Test Kitchen compatibility). Its faults, if any, come from the scenario.",
    args: z.object({}),
    annotations: { title: "Run configured test scenario", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (_args, ctx) => {
      const run = ctx.count("scenario-runs");
      return text(`Scenario ${ctx.scenarioId} ran successfully (run ${run}).`);
    },
  },
];
