import { z } from "zod";
import { elicitRequest } from "../../src/mcp/inputs.ts";
import { defineTaskTool } from "../../src/mcp/tasks/define.ts";
import type { TaskToolDefinition } from "../../src/mcp/tasks/tool.ts";
import { text, type ElicitResult, type ToolDefinition } from "../../src/mcp/tool.ts";
import { READ_ONLY } from "./content-tools.ts";
import { ask } from "./mrtr-tools.ts";

function said(answer: unknown, field: string): string {
  const a = answer as ElicitResult | undefined;
  return a?.action === "accept" ? String(a.content?.[field] ?? "") : `(${a?.action ?? "no answer"})`;
}

const greet: ToolDefinition = {
  name: "greet",
  description: "Sync only: returns Hello, {name}!",
  args: z.object({ name: z.string().default("World") }),
  annotations: READ_ONLY,
  run: async (args) => text(`Hello, ${String(args.name)}!`),
};

/**
 * The SEP-2663 fixtures of conformance 0.2.0-alpha.12 (its tasks-* scenarios name them). Each works for a fixed
 * time from the call and asks its questions after that; the state is a deadline in the session's storage, so it
 * is the same after a restart.
 */
export const TASK_TOOLS: readonly (ToolDefinition | TaskToolDefinition)[] = [
  greet,
  defineTaskTool({
    name: "slow_compute",
    description: "Task-supporting: works `seconds` seconds (0: at once), then returns a result naming `label`. Cancellable while it works.",
    args: z.object({ seconds: z.number().min(0).max(3600).default(1), label: z.string().default("compute") }),
    annotations: READ_ONLY,
    task: {
      support: "optional",
      start: async (args) => ({ workMs: Number(args.seconds) * 1000 }),
      finish: (args) => ({ result: text(`Computed ${String(args.label)} after ${String(args.seconds)} s`) }),
    },
  }),
  defineTaskTool({
    name: "failing_job",
    description: "Task required: after about 1 s the tool reports an execution error (completed, isError: true).",
    args: z.object({}),
    annotations: READ_ONLY,
    task: {
      support: "required",
      start: async () => ({ workMs: 1000 }),
      finish: () => ({ result: { content: [{ type: "text", text: "failing_job failed on purpose" }], isError: true } }),
    },
  }),
  defineTaskTool({
    name: "protocol_error_job",
    description: "Task-supporting: after about 1 s the work fails with a JSON-RPC error (-32603), so the task is failed.",
    args: z.object({}),
    annotations: READ_ONLY,
    task: {
      support: "optional",
      start: async () => ({ workMs: 1000 }),
      finish: () => ({ error: { code: -32603, message: "Internal error: protocol_error_job crashed on purpose" } }),
    },
  }),
  defineTaskTool({
    name: "confirm_delete",
    description: "Task-supporting: asks for a confirmation (inputRequests.confirm, elicitation/create), then reports the deletion.",
    args: z.object({ filename: z.string().default("file.txt") }),
    annotations: READ_ONLY,
    asksForInput: true,
    task: {
      support: "optional",
      start: async (args) => ({ workMs: 200, asks: { confirm: elicitRequest(ask(`Delete ${String(args.filename)}?`, "confirm", "boolean")) } }),
      finish: (args, answers) => ({ result: text(`Deletion of ${String(args.filename)}: ${said(answers.confirm, "confirm")}`) }),
    },
  }),
  defineTaskTool({
    name: "multi_input",
    description: "Task-supporting: asks two questions at once (inputRequests.name and inputRequests.confirm), then reports both answers.",
    args: z.object({}),
    annotations: READ_ONLY,
    asksForInput: true,
    task: {
      support: "optional",
      start: async () => ({ workMs: 200, asks: { name: elicitRequest(ask("Your name?", "name")), confirm: elicitRequest(ask("Proceed?", "confirm", "boolean")) } }),
      finish: (_args, answers) => ({ result: text(`name: ${said(answers.name, "name")}; confirm: ${said(answers.confirm, "confirm")}`) }),
    },
  }),
  defineTaskTool({
    name: "test_tool_with_task",
    description: "Task required: asks for user_name over MRTR (input_required), then answers the retry with a task whose result greets the user.",
    args: z.object({}),
    annotations: READ_ONLY,
    asksForInput: true,
    task: {
      support: "required",
      start: async (_args, ctx) => ({ workMs: 500, carried: said(await ctx.elicit("user_name", ask("What is your name?", "name")), "name") }),
      finish: (_args, _answers, carried) => ({ result: text(`Hello, ${String(carried)}! (finished as a task)`) }),
    },
  }),
];
