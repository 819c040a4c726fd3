import { validateEnvelope } from "./envelope.ts";
import { adviseError, errorCodeName } from "./error-codes.ts";
import { show } from "./json.ts";
import type { JsonRpcError } from "./envelope.ts";
import type { ErrorAdvice } from "./error-codes.ts";
import { SpecRef } from "./findings.ts";
import { classifyResult } from "./result.ts";
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
