import { z } from "zod";
import { elicitRequest } from "../../src/mcp/inputs.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { defineTaskTool } from "../../src/mcp/tasks/define.ts";
import { text, type ElicitResult } from "../../src/mcp/tool.ts";
import { ask } from "../conformance/mrtr-tools.ts";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true } as const;

const keyOf = (round: number) => `question_${round}`;

function said(answer: unknown): string {
  const a = answer as ElicitResult | undefined;
  return a?.action === "accept" ? String(a.content?.answer ?? "") : `(${a?.action ?? "no answer"})`;
}

/**
 * SEP-2663 Task Update Requests: a task asks through `inputRequests` on tasks/get and the client answers with
 * tasks/update; "the acknowledgement is eventually consistent: the server MAY accept the responses and return the
 * ack before the task's observable status reflects them", so a tasks/get after the ack may still list a key just
 * answered. "Clients SHOULD track inputRequests keys to avoid responding to requests more than once." The session
 * serves one task tool, `survey`, that asks `rounds` questions one round after another (keys `question_1`, …), and
 * whose next `staleReads` tasks/get after each tasks/update still show the keys just answered, the same requests
 * under the same keys: a client that answers what it sees, without tracking its keys, answers one twice.
 */
export default defineScenario({
  id: "tasks.input_rounds",
  title: "Task input keys shown again after they were answered",
  summary:
    "Serves the task tool `survey` (SEP-2663, 2026-07-28, task required): it asks `rounds` questions one round after another through `inputRequests` on tasks/get (keys `question_1`, `question_2`, …), and the next `staleReads` tasks/get after each tasks/update still list the keys just answered, as an eventually consistent ack allows. A client should answer each key once (SEP-2663: clients SHOULD track inputRequests keys to avoid responding more than once).",
  layer: "application",
  params: z.object({
    rounds: z.number().int().min(1).max(10).default(2).describe("Questions asked one after another, one key each"),
    staleReads: z.number().int().min(0).max(10).default(1).describe("tasks/get after each tasks/update that still show the keys just answered"),
    roundMs: z.number().int().min(0).max(60_000).default(200).describe("How long the task works before each round, in ms"),
  }),
  judging: {
    checks: ["task-input-key-answered-once", "task-poll-interval-honoured", "task-polled-to-terminal", "task-mcp-name-sent"],
    exercisedBy: "answers",
  },
  example: { rounds: 2, staleReads: 1 },
  tools: (params) => [
    defineTaskTool({
      name: "survey",
      description: `Task required: asks ${params.rounds} question(s) one after another (inputRequests question_1, …, elicitation/create with a string field \`answer\`), then reports every answer.`,
      args: z.object({ topic: z.string().default("the weather") }),
      annotations: READ_ONLY,
      asksForInput: true,
      task: {
        support: "required",
        start: async (args) => {
          const keys = Array.from({ length: params.rounds }, (_, i) => keyOf(i + 1));
          const asks = Object.fromEntries(keys.map((key, i) => [key, elicitRequest(ask(`Question ${i + 1} of ${params.rounds} about ${String(args.topic)}?`, "answer"))]));
          return { workMs: params.roundMs, asks, rounds: keys.map((key) => [key]), roundMs: params.roundMs, staleReads: params.staleReads };
        },
        finish: (_args, answers) => {
          const keys = Array.from({ length: params.rounds }, (_, i) => keyOf(i + 1));
          return { result: text(keys.map((key) => `${key}: ${said(answers[key])}`).join("; ")) };
        },
      },
    }),
  ],
});
