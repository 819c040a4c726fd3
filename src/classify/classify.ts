import { decodeBody } from "./body.ts";
import type { DecodedBody } from "./body.ts";
import { ExchangeSchema, surelyExchange } from "./exchange.ts";
import type { ClassifyOptions, Exchange } from "./exchange.ts";
import { Findings, SpecRef, finding } from "./findings.ts";
import { headerMap, isJsonMediaType, mediaType } from "./headers.ts";
import { isRecord, show } from "./json.ts";
import { fromMessage } from "./message.ts";
import { readRequest } from "./request.ts";
import { advice } from "./retry.ts";
import { assemble, verdict } from "./run.ts";
import type { Run } from "./run.ts";
import { isResumedAnswer, sessionEnded, standbyStream } from "./standby.ts";
import { fromStream } from "./stream-outcome.ts";
import { analyzeStream, streamFindings } from "./stream.ts";
import type { StreamAnalysis } from "./stream.ts";
import { accepted, httpError } from "./transport.ts";
import type { Verdict } from "./verdict.ts";
import { isModern, resolveVersion } from "./version.ts";

/**
 * Classifies one MCP HTTP exchange into an outcome, its layer, retry advice and findings.
 * Pure and total: it never throws, whatever it is given.
 */
export function classify(exchange: Exchange, options?: ClassifyOptions): Verdict {
  try {
    return classifyUnchecked(exchange as unknown, options as unknown);
  } catch (error) {
    return internalError(error);
  }
}

function internalError(error: unknown): Verdict {
  let text = "unknown error";
  try {
    text = error instanceof Error ? error.message : String(error);
  } catch {
    // keep the generic text
  }
  return assemble(
    "INVALID_ENVELOPE",
    undefined,
    undefined,
    advice("investigate", "The classifier could not read this exchange."),
    [finding("error", "CLASSIFIER_INTERNAL_ERROR", `The classifier failed on this input: ${text}`)],
  );
}

function invalidExchange(message: string): Verdict {
  return assemble(
    "INVALID_ENVELOPE",
    undefined,
    undefined,
    advice("investigate", "The exchange has no usable response to classify."),
    [finding("error", "INVALID_EXCHANGE", message)],
  );
}

function readNow(options: unknown, findings: Findings): number | undefined {
  if (!isRecord(options) || options.now === undefined) return undefined;
  if (typeof options.now === "number" && Number.isFinite(options.now)) return options.now;
  findings.warning("OPTION_NOW_INVALID", `options.now ${show(options.now)} is not a finite number of milliseconds; ignored.`);
  return undefined;
}

function primaryMessage(decoded: DecodedBody, stream: StreamAnalysis | undefined): unknown {
  if (decoded.transport === "json" || decoded.transport === "other") return decoded.kind === "message" ? decoded.message : undefined;
  if (stream !== undefined) return stream.matched[0] ?? stream.idless[0];
  return undefined;
}

function classifyUnchecked(exchange: unknown, options: unknown): Verdict {
  if (!isRecord(exchange) || !isRecord(exchange.response)) return invalidExchange("The exchange has no response object.");
  const response = exchange.response;
  const status = response.status;
  if (typeof status !== "number" || !Number.isSafeInteger(status)) {
    return invalidExchange(`response.status ${show(status)} is not an integer HTTP status.`);
  }
  const findings = new Findings();
  const checked = surelyExchange(exchange) ? undefined : ExchangeSchema.safeParse(exchange);
  if (checked?.success === false) {
    const issue = checked.error.issues[0];
    findings.warning("EXCHANGE_SHAPE", `The exchange does not match ExchangeSchema at ${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}; classified on a best-effort basis.`);
  }

  const now = readNow(options, findings);
  const requestHeaders = headerMap(isRecord(exchange.request) ? exchange.request.headers : undefined);
  const headers = headerMap(response.headers);
  const request = readRequest(exchange, requestHeaders, findings);
  const ok = status >= 200 && status < 300;
  const decoded = decodeBody(response.body, headers, ok && request.kind === "request", findings);
  const stream = decoded.transport === "sse" ? analyzeStream(decoded.sse, request) : undefined;
  const primary = primaryMessage(decoded, stream);
  const { version, source } = resolveVersion(exchange.protocolVersion, request, primary, findings);
  if (stream !== undefined) streamFindings(stream, version, request, findings);
  if (isModern(version) && headers.has("mcp-session-id")) {
    findings.warning("SESSION_ID_MINTED_2026", "The response sets Mcp-Session-Id; 2026-07-28 servers do not mint or echo session ids.", SpecRef.s26Statelessness);
  }

  const run: Run = {
    findings,
    status,
    version,
    source,
    request,
    headers,
    now,
    decoded,
    stream,
  };

  if (ok) acceptIgnored(run, requestHeaders.get("accept"));
  if (!ok) return httpError(run, primary);
  if (request.httpMethod === "DELETE") return sessionEnded(run);
  if (request.httpMethod === "GET" && !isResumedAnswer(run, requestHeaders.get("last-event-id"))) return standbyStream(run);
  if (request.kind !== "request") return accepted(run, primary);
  return answered(run);
}

/** A 2xx answer to a request: the body must hold the JSON-RPC response. */
function answered(run: Run): Verdict {
  const { findings, decoded, status, request } = run;
  if (request.expectedId === undefined) {
    findings.info("EXPECTED_ID_UNKNOWN", "No expected id is known (no exchange.expectedId and no request body id); any valid response id is accepted.");
  }
  if (decoded.transport === "empty") {
    const noResponse = advice("investigate", "The server did not send a JSON-RPC response; find out whether the call ran before sending it again.");
    if (status === 202) {
      findings.error(
        "ACCEPTED_WITHOUT_RESPONSE",
        "The server answered a request with 202 and no body; a request MUST be answered with application/json or text/event-stream. The call may have run, so do not replay it blindly.",
        isModern(run.version) ? SpecRef.s26Sending : SpecRef.s1125Sending,
      );
      return verdict(run, "INVALID_ENVELOPE", noResponse);
    }
    findings.error("RESPONSE_MISSING", `The ${status} response to a request has an empty body; it MUST carry the JSON-RPC response.`, SpecRef.s26Sending);
    // An empty body declared as JSON fails JSON.parse, so clients see malformed JSON (the seed's verdict).
    return verdict(run, isJsonMediaType(mediaType(run.headers.get("content-type"))) ? "MALFORMED_JSON" : "INVALID_ENVELOPE", noResponse);
  }
  if (decoded.transport === "sse") return fromStream(run);
  if (decoded.kind === "malformed") {
    findings.error("MALFORMED_JSON", `The body is not valid JSON (${decoded.error}).`, SpecRef.s26Sending);
    return verdict(run, "MALFORMED_JSON", advice("investigate", "The server sent a body that is not JSON; the call may have run, so do not replay it blindly."));
  }
  if (decoded.transport === "other") {
    // CONTENT_TYPE_INVALID is already reported; spec-following clients (the MCP SDKs among them) reject the body unread.
    return verdict(run, "INVALID_ENVELOPE", advice("investigate", "The JSON-RPC message came with a content type other than application/json or text/event-stream, so clients reject it; the call may have run, so do not replay it blindly."));
  }
  if (status !== 200) findings.info("UNUSUAL_SUCCESS_STATUS", `A JSON response to a request normally comes with 200, not ${status}.`);
  return fromMessage(run, decoded.message);
}


// 2025-11-25 and 2026-07-28 transports: a POST MUST list both application/json and text/event-stream in Accept (a GET
// text/event-stream). A server that serves an Accept naming neither hides the client's bug until it meets a strict one.
function acceptIgnored(run: Run, accept: string | undefined): void {
  if (accept === undefined) return;
  const types = accept.split(",").map((part) => mediaType(part));
  if (types.some((t) => t === "*/*" || t === "application/*" || t === "text/*" || t === "application/json" || t === "text/event-stream")) return;
  run.findings.warning(
    "ACCEPT_NOT_HONOURED",
    `The request's Accept (${show(accept, 80)}) names neither application/json nor text/event-stream, and the server answered ${run.status} anyway (strict servers answer 406). Fix the client: send Accept: application/json, text/event-stream.`,
    isModern(run.version) ? SpecRef.s26Sending : SpecRef.s1125Sending,
  );
}
