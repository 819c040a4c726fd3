import { z } from "zod";
import { defineAlias, type ScenarioAlias } from "../src/scenario-kit/alias.ts";

// MCP Test Kitchen's ids that name a Faultline scenario under another name, with Test Kitchen's params and defaults
// (its ScenarioIds.cs and scenario options, pinned commit cf2f689). Its other ids are Faultline scenarios of the same
// id (baseline, errors.*, elicitation.*, compat.sdk_v2, catalog.*), which accept its param names themselves.

const onInvocation = z.number().int().min(1).default(1).describe("Which matching request gets the fault (1 = the first)");

/** Test Kitchen's request targets -> the JSON-RPC method a script rule matches (none: every request). */
const TARGET_METHOD = { tool_call: "tools/call", initialize: "initialize", http_request: undefined } as const;

/** Test Kitchen's malformed kinds -> Faultline's fault. duplicate_response has none: Faultline sends one answer per request. */
const MALFORMED_FAULT = {
  invalid_json: { kind: "malformed", variant: "invalid_json" },
  wrong_id: { kind: "envelope", variant: "wrong_id" },
  missing_jsonrpc: { kind: "envelope", variant: "no_jsonrpc" },
} as const;

const status2xxOr4xx = z
  .number()
  .int()
  .refine((s) => (s >= 200 && s <= 299) || (s >= 400 && s <= 599), "must be 2xx (answered normally) or 400-599 (answered with that status)");

export const TEST_KITCHEN_ALIASES: readonly ScenarioAlias[] = [
  defineAlias({
    id: "timeout.uncooperative_hang",
    answeredBy: "timeouts.stall_before_headers",
    summary: "The hangOnInvocation-th tools/call gets nothing for hangDurationMs, whatever the client cancels, then its normal answer; other calls answer at once.",
    params: z.object({
      hangOnInvocation: onInvocation,
      hangDurationMs: z.number().int().min(0).max(600_000).default(60_000).describe("How long the call hangs"),
    }),
    map: (p) => ({ methods: ["tools/call"], nth: p.hangOnInvocation, ms: p.hangDurationMs }),
  }),
  defineAlias({
    id: "timeout.cooperative_deadline",
    answeredBy: "timeouts.stall_before_headers",
    summary:
      "Every tools/call waits delayMs before its answer. Over HTTP a client cancels by closing its request, which ends the wait either way; a notifications/cancelled does not end it, so honorCancellation changes nothing here.",
    params: z.object({
      delayMs: z.number().int().min(0).max(600_000).default(1_000).describe("How long each call waits"),
      honorCancellation: z.boolean().default(true).describe("Test Kitchen: wait on the request's cancellation token"),
    }),
    map: (p) => ({ methods: ["tools/call"], ms: p.delayMs }),
  }),
  defineAlias({
    id: "timeout.late_response",
    answeredBy: "timeouts.stall_before_headers",
    summary: "Every tools/call waits delayMs, ignoring cancellation, then gets its normal answer.",
    params: z.object({ delayMs: z.number().int().min(0).max(600_000).default(5_000).describe("How long each call waits") }),
    map: (p) => ({ methods: ["tools/call"], ms: p.delayMs }),
  }),
  defineAlias({
    id: "timeout.init_hang",
    answeredBy: "timeouts.stall_before_headers",
    summary: "Every initialize (the legacy eras' handshake; 2026-07-28 has none) waits initDelayMs before its answer.",
    params: z.object({
      initDelayMs: z.number().int().min(0).max(600_000).default(2_000).describe("How long each initialize waits"),
      honorCancellation: z.boolean().default(true).describe("Test Kitchen: wait on the request's cancellation token; over HTTP closing the request ends the wait either way"),
    }),
    map: (p) => ({ methods: ["initialize"], ms: p.initDelayMs }),
  }),
  defineAlias({
    id: "errors.connection_close",
    answeredBy: "streams.cut_before_response",
    summary:
      "The onInvocation-th tools/call (closeOn tool_call) or initialize (closeOn initialize) gets a stream that ends before its answer. Test Kitchen aborts the connection; Workers cannot, so the body ends cleanly with no response.",
    params: z.object({
      closeOn: z.enum(["tool_call", "initialize"]).default("tool_call").describe("Which requests are counted"),
      onInvocation,
    }),
    map: (p) => ({ methods: [p.closeOn === "initialize" ? "initialize" : "tools/call"], nth: p.onInvocation }),
  }),
  defineAlias({
    id: "errors.malformed_payload",
    answeredBy: "script",
    summary:
      "The onInvocation-th matching request (target: tool_call, initialize, or every request) gets HTTP 200 with a body that is not JSON (invalid_json), a response with another id (wrong_id) or one without \"jsonrpc\" (missing_jsonrpc).",
    params: z.object({
      kind: z
        .enum(["invalid_json", "wrong_id", "missing_jsonrpc", "duplicate_response"])
        .default("invalid_json")
        .refine((k) => k !== "duplicate_response", "duplicate_response is not supported: Faultline sends one answer per request"),
      target: z.enum(["tool_call", "initialize", "http_request"]).default("tool_call").describe("Which requests are counted"),
      onInvocation,
    }),
    map: (p) => {
      const method = TARGET_METHOD[p.target];
      const fault = MALFORMED_FAULT[p.kind as keyof typeof MALFORMED_FAULT];
      return { rules: [{ match: { ...(method ? { method } : {}), nth: p.onInvocation }, fault }] };
    },
  }),
  defineAlias({
    id: "errors.http_status_per_method",
    answeredBy: "errors.status_per_method",
    summary: "A request whose JSON-RPC method is a key of rules gets that HTTP status with an empty body; a 2xx rule, and any other method, is answered normally.",
    params: z.object({
      rules: z.record(z.string().min(1), status2xxOr4xx).default({ "tools/call": 401, initialize: 200 }).describe("JSON-RPC method -> HTTP status"),
    }),
    map: (p) => ({ statuses: Object.fromEntries(Object.entries(p.rules).filter(([, status]) => status >= 400)), body: "empty" }),
  }),
  defineAlias({
    id: "errors.non_compliant_envelope",
    answeredBy: "script",
    summary:
      "The onInvocation-th POST gets HTTP httpStatus carrying a JSON-RPC response with its id. Test Kitchen splices resultPayload in as the result; Faultline's answer is a JSON-RPC error (-32603) at that status, and resultPayload is not sent.",
    params: z.object({
      httpStatus: z.number().int().min(200).max(599).default(400).describe("HTTP status of the envelope"),
      resultPayload: z.string().default(JSON.stringify({ content: [{ type: "text", text: "ok" }], isError: false })).describe("Test Kitchen: raw JSON spliced in as the result"),
      onInvocation,
    }),
    map: (p) => ({ rules: [{ match: { nth: p.onInvocation }, fault: { kind: "jsonrpc_error", code: -32603, httpStatus: p.httpStatus } }] }),
  }),
  defineAlias({
    id: "auth.token_lifecycle",
    answeredBy: "errors.http_status_sequence",
    summary: "POST n gets a bare HTTP 401 (no WWW-Authenticate) while n <= rejectUntilInvocation, or always with rejectForever; later POSTs are answered normally.",
    params: z.object({
      rejectUntilInvocation: z.number().int().min(0).max(99).default(1).describe("POSTs 1..N get 401"),
      rejectForever: z.boolean().default(false).describe("Every POST gets 401"),
    }),
    map: (p) => ({ statusCodes: p.rejectForever ? [401] : [...Array<number>(p.rejectUntilInvocation).fill(401), 200], body: "empty" }),
  }),
];
