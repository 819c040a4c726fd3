import { test } from "node:test";
import assert from "node:assert/strict";
import { BadResultVariantSchema, FaultSchema, SessionExpiredVariantSchema, type Fault, type FaultInput } from "../../src/faults/schema.ts";
import { perform } from "../../src/faults/perform.ts";
import { Deadline } from "../../src/wire/deadline.ts";

// What each fault kind does to an answer source, as docs/proxy.md's table states it: `alter` faults ask the source for
// its answer (in proxy mode the upstream is called), `replace` faults never do (the upstream is not called). Nothing
// declares the mode beside the fault any more: it is what perform's branch reads, which is what this test checks.

const SESSION_EXPIRED_VARIANTS = SessionExpiredVariantSchema.options;
const REPLACE = new Set(["http_status", "rate_limited", "unauthorized", "insufficient_scope", ...SESSION_EXPIRED_VARIANTS.map((v) => `session_expired (${v})`), "unsupported_version", "jsonrpc_error", "tool_error", "hang", "malformed (invalid_json)", "malformed (html_page)"]);

/** One fault per kind, and per variant where the variant changes what the fault needs. */
const SAMPLES: FaultInput[] = [
  { kind: "http_status", status: 503 },
  { kind: "jsonrpc_error", code: -32603 },
  { kind: "tool_error" },
  { kind: "respond_sse" },
  { kind: "delay", ms: 0 },
  { kind: "stall_stream", ms: 0 },
  { kind: "progress", ms: 0, intervalMs: 10 },
  { kind: "idle_cut", ms: 50, workMs: 0 },
  { kind: "idle_cut", ms: 0, workMs: 50 },
  { kind: "buffered", hold: "headers", ms: 0 },
  { kind: "buffered", hold: "events", ms: 0, intervalMs: 100 },
  { kind: "drip", chunkBytes: 4096, intervalMs: 1 },
  { kind: "hang", ms: 0, keepAliveMs: 10 },
  { kind: "cut_stream" },
  { kind: "cut_stream", priming: true },
  ...(["invalid_json", "truncated_json", "wrong_content_type", "html_page"] as const).map((variant) => ({ kind: "malformed" as const, variant })),
  ...(["wrong_id", "result_and_error", "no_jsonrpc", "null_id"] as const).map((variant) => ({ kind: "envelope" as const, variant })),
  ...BadResultVariantSchema.options.map((variant) => ({ kind: "bad_result" as const, variant })),
  ...(["text_mb", "many_blocks", "large_image"] as const).map((variant) => ({ kind: "oversized" as const, variant, bytes: 1024, blocks: 2 })),
  { kind: "unauthorized" },
  { kind: "insufficient_scope" },
  { kind: "rate_limited" },
  ...SESSION_EXPIRED_VARIANTS.map((variant) => ({ kind: "session_expired" as const, variant })),
  { kind: "unsupported_version" },
];

/** Performs the fault on a tools/call in `era` and reads the whole response; true when the answer was asked for. */
async function readsAnswer(fault: Fault, era: "modern" | "legacy", stream: boolean): Promise<boolean> {
  let asked = 0;
  const pending: Promise<unknown>[] = [];
  const response = await perform(fault, {
    era,
    requestId: 7,
    stream,
    reply: async () => {
      asked++;
      return { answer: async () => ({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "real answer" }] } }) };
    },
    origin: "http://127.0.0.1:1",
    waitUntil: (promise) => void pending.push(promise),
    deadline: new Deadline(Date.now(), 60),
    keepForResume: () => undefined,
  });
  await response.text();
  await Promise.all(pending);
  return asked > 0;
}

test("every fault kind has a sample here, so a new kind cannot go without a proxy mode test", () => {
  const kinds = new Set(FaultSchema.options.map((option) => option.shape.kind.value));
  const sampled = new Set(SAMPLES.map((s) => s.kind));
  assert.deepEqual([...kinds].filter((k) => !sampled.has(k)), []);
});

for (const sample of SAMPLES) {
  const fault = FaultSchema.parse(sample);
  const label = "variant" in fault
    ? `${fault.kind} (${fault.variant})`
    : "priming" in fault && fault.priming
    ? `${fault.kind} (priming)`
    : fault.kind === "buffered"
    ? `${fault.kind} (${fault.hold})`
    : fault.kind === "idle_cut"
    ? `${fault.kind} (${fault.workMs > fault.ms ? "cut" : "answered in the window"})`
    : fault.kind;
  const mode = REPLACE.has(label) ? "replace" : "alter";
  test(`${label} is ${mode}: perform ${mode === "alter" ? "asks the source for" : "never asks for"} the answer in both eras, on JSON and on SSE`, async () => {
    for (const era of ["modern", "legacy"] as const) {
      for (const stream of [false, true]) {
        assert.equal(await readsAnswer(fault, era, stream), mode === "alter", `${era}, ${stream ? "SSE" : "JSON"}`);
      }
    }
  });
}
