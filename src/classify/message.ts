import { validateEnvelope } from "./envelope.ts";
import { adviseError, errorCodeName } from "./error-codes.ts";
import { show } from "./json.ts";
import type { JsonRpcError } from "./envelope.ts";
import type { ErrorAdvice } from "./error-codes.ts";
import { SpecRef } from "./findings.ts";
import { classifyResult, type ResultOutcome } from "./result.ts";
import { pollEvery, type TaskFacts } from "./task-result.ts";
import { missingDiscover } from "./transport.ts";
import { advice, fromErrorAdvice } from "./retry.ts";
import { responseId, usableId, verdict } from "./run.ts";
import type { Run } from "./run.ts";
import type { ProtocolVersion, Verdict } from "./verdict.ts";

/** The outcome of one JSON-RPC response message: envelope, then error code or result layers. */
export function fromMessage(run: Run, message: unknown): Verdict {
  const { findings, request, version } = run;
  const envelope = validateEnvelope(message, request.expectedId, version, findings);
  if (envelope.kind === "invalid") {
    findings.error(envelope.code, envelope.message, envelope.specRef);
    return verdict(
      run,
      "INVALID_ENVELOPE",
      advice("investigate", "The response is not a valid JSON-RPC response to this request; the call may have run, so do not replay it blindly."),
      { id: usableId(envelope.id) },
    );
  }
  if (envelope.kind === "error") {
    const { error } = envelope;
    findings.info("JSONRPC_ERROR_RESPONSE", `The server answered with JSON-RPC error ${error.code} (${errorCodeName(error.code)}): ${show(error.message, 160)}`);
    missingDiscover(run, error.code);
    const errorAdvice = unknownToolAsMethodNotFound(run, error) ?? adviseError(error, version, run.status, findings);
    const extra: Record<string, unknown> = { code: error.code, jsonrpcError: error };
    if (errorAdvice.details !== undefined) Object.assign(extra, errorAdvice.details);
    extra.id = responseId(message);
    return verdict(run, "JSONRPC_ERROR", fromErrorAdvice(errorAdvice), extra);
  }
  const result = classifyResult(envelope.result, { version, versionSource: run.source, request, findings });
  const extra = result.details;
  extra.id = envelope.id;
  switch (result.outcome) {
    case "TOOL_SUCCESS":
      return verdict(run, "TOOL_SUCCESS", advice("none", "The request succeeded."), extra);
    case "TOOL_ERROR":
      if (request.method === "tools/call" && typeof extra.toolErrorText === "string" && UNKNOWN_TOOL.test(extra.toolErrorText)) {
        findings.warning(
          "UNKNOWN_TOOL_AS_TOOL_ERROR",
          "The server reports an unknown tool as a tool execution error (isError: true); the spec makes an unknown tool a protocol error (-32602). Treat it as an unknown-tool error anyway: fix the tool name (re-read tools/list), do not retry the same call.",
          toolsRef(version),
        );
      }
      return verdict(
        run,
        "TOOL_ERROR",
        advice("tool-semantics", "The tool ran and reported an error (isError: true): show the content to the model so it can adjust; do not replay the call blindly."),
        extra,
      );
    case "INPUT_REQUIRED": {
      const keys = result.inputKeys;
      const what = keys.length > 0 ? `adding params.inputResponses for ${keys.join(", ")}` : "with no inputResponses (the server asked only for a retry)";
      const state = result.requestState ? " and echoing params.requestState exactly" : "";
      return verdict(
        run,
        "INPUT_REQUIRED",
        advice("follow-up", `Send the same method and params again as a new request with a new JSON-RPC id, ${what}${state}.`, { inputKeys: keys }),
        extra,
      );
    }
    case "INVALID_TOOL_RESULT":
      return verdict(run, "INVALID_TOOL_RESULT", advice("investigate", `The result is not valid for ${request.method}: ${result.problem}`), extra);
    case "TASK_CREATED": {
      const { task } = result;
      const reason = `The server answered with task ${show(task.taskId, 80)} instead of the result: poll tasks/get with params.taskId and Mcp-Name set to it, ${pollEvery(task)}, until it is completed, failed or cancelled; answer an input_required task with tasks/update. Do not send the call again: that would start another task.`;
      return verdict(run, "TASK_CREATED", advice("follow-up", reason, { ...waitFor(task), specRef: SpecRef.s26Tasks }), extra);
    }
    case "TASK_STATUS":
      return taskVerdict(run, result, extra);
  }
}

const waitFor = (task: TaskFacts) => (task.pollIntervalMs !== undefined ? { afterMs: task.pollIntervalMs } : {});

/** A tasks/get answer, by the task's status: poll on, answer its questions, or stop with the result or the error. */
function taskVerdict(run: Run, result: Extract<ResultOutcome, { outcome: "TASK_STATUS" }>, extra: Record<string, unknown>): Verdict {
  const { task, inputKeys, error } = result;
  const ref = { specRef: SpecRef.s26Tasks };
  switch (task.status) {
    case "working":
      return verdict(run, "TOOL_SUCCESS", advice("follow-up", `The task is still working: poll tasks/get again ${pollEvery(task)}.`, { ...waitFor(task), ...ref }), extra);
    case "input_required":
      return verdict(
        run,
        "INPUT_REQUIRED",
        advice("follow-up", `The task waits for input: answer inputRequests ${inputKeys.join(", ") || "(none listed)"} with tasks/update (params.taskId, params.inputResponses), each key once, then poll tasks/get again ${pollEvery(task)}.`, { inputKeys, ...waitFor(task), ...ref }),
        extra,
      );
    case "failed": {
      const e = error!;
      return verdict(run, "JSONRPC_ERROR", advice("do-not-retry", `The task failed with JSON-RPC error ${e.code} (${errorCodeName(e.code)}): ${show(e.message, 160)}. Stop polling: a failed task stays failed; calling the tool again starts a new task.`, ref), { ...extra, code: e.code });
    }
    case "cancelled":
      run.findings.info("TASK_CANCELLED", `The task was cancelled${typeof extra.statusMessage === "string" ? ` (${show(extra.statusMessage, 120)})` : ""}: it has no result.`, SpecRef.s26Tasks);
      return verdict(run, "TOOL_SUCCESS", advice("do-not-retry", "The task was cancelled, by the client's tasks/cancel or by the server: it has no result. Stop polling.", ref), extra);
    default:
      if (extra.isError === true) {
        return verdict(run, "TOOL_ERROR", advice("tool-semantics", "The task completed with a tool error (isError: true): show the content to the model so it can adjust. Stop polling.", ref), extra);
      }
      return verdict(run, "TOOL_SUCCESS", advice("none", "The task completed: its result is in result. Stop polling.", ref), extra);
  }
}

// What servers say when a tools/call names a tool they do not have ("Unknown tool: x", "Tool x not found").
const UNKNOWN_TOOL = /\bunknown tool\b|\btool\b.*\bnot found\b/i;

function toolsRef(version: ProtocolVersion): string {
  return version === "2026-07-28" ? SpecRef.s26ToolResult : SpecRef.s1125ToolResult;
}

/** -32601 to a tools/call that names an unknown tool: the server used the wrong code, and the call, not the method, is at fault. */
function unknownToolAsMethodNotFound(run: Run, error: JsonRpcError): ErrorAdvice | undefined {
  if (error.code !== -32601 || run.request.method !== "tools/call" || !UNKNOWN_TOOL.test(error.message)) return undefined;
  run.findings.warning(
    "UNKNOWN_TOOL_AS_METHOD_NOT_FOUND",
    "The server answers an unknown tool with -32601 (method not found); the spec's code for an unknown tool is -32602 (invalid params). Treat it as an unknown-tool error anyway: fix the tool name (re-read tools/list), do not retry the same call.",
    toolsRef(run.version),
  );
  return { decision: "fix-input", reason: "The tool named in the call does not exist: fix the name (re-read tools/list) before calling again.", specific: true };
}
