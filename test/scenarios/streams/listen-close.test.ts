import { test } from "node:test";
import assert from "node:assert/strict";
import { paramsSchema, SCENARIOS } from "../../../scenarios/index.ts";
import { proxyRefusal } from "../../../src/proxy/support.ts";

// streams.listen_close's decideGet, in process: what each standalone GET of a session gets, variant by variant.

const scenario = SCENARIOS.find((s) => s.id === "streams.listen_close")!;

/** What the first `n` GETs get: the fault's kind with its shape, or "405" once the script is over. */
function gets(params: Record<string, unknown>, n: number): string[] {
  const parsed = paramsSchema(scenario).parse(params);
  let count = 0;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const decision = scenario.decideGet!({ params: parsed, headers: {}, count: () => ++count, now: 0 });
    const f = decision?.fault;
    if (!f) out.push("405");
    else if (f.kind === "http_status") out.push(String(f.status));
    else if (f.kind === "listen_stream") out.push(`${f.priming ? "primed " : ""}[${f.events.join(",")}]${f.retryMs !== undefined ? ` retry ${f.retryMs}` : ""} ${f.close}`);
    else out.push(f.kind);
  }
  return out;
}

test("graceful serves `streams` primed streams with retry: and one event, then 405", () => {
  assert.deepEqual(gets({ variant: "graceful", streams: 2, retryMs: 300 }, 3), ["primed [with_id] retry 300 graceful", "primed [with_id] retry 300 graceful", "405"]);
});

test("drop aborts each stream after its event; retryMs 0 sends no retry:", () => {
  assert.deepEqual(gets({ variant: "drop", streams: 1, retryMs: 0 }, 2), ["primed [with_id] drop", "405"]);
});

test("empty serves streams with no event at all", () => {
  assert.deepEqual(gets({ variant: "empty", streams: 2 }, 3), ["[] graceful", "[] graceful", "405"]);
});

test("conflict_409 and reconnect_5xx drop the first stream, refuse `refusals` reconnects, then serve one stream", () => {
  assert.deepEqual(gets({ variant: "conflict_409", refusals: 2 }, 5), ["primed [with_id] retry 500 drop", "409", "409", "[with_id] graceful", "405"]);
  assert.deepEqual(gets({ variant: "reconnect_5xx", refusals: 1 }, 4), ["primed [with_id] retry 500 drop", "503", "[with_id] graceful", "405"]);
});

test("the resume variants cut the resumed stream again, before or after an event with a new id", () => {
  assert.deepEqual(gets({ variant: "resume_cut_before_id" }, 4), ["primed [with_id] retry 500 drop", "[without_id] drop", "[with_id] graceful", "405"]);
  assert.deepEqual(gets({ variant: "resume_cut_after_id" }, 4), ["primed [with_id] retry 500 drop", "[with_id] drop", "[with_id] graceful", "405"]);
});

test("empty_id ends the first stream with an event whose id: is empty", () => {
  assert.deepEqual(gets({ variant: "empty_id" }, 3), ["primed [with_id,empty_id] retry 500 graceful", "[with_id] graceful", "405"]);
});

test("bad params are refused by the schema, naming the field", () => {
  const bad = paramsSchema(scenario).safeParse({ variant: "sideways" });
  assert.equal(bad.success, false);
  assert.deepEqual(bad.error!.issues.map((i) => i.path.join(".")), ["variant"]);
  assert.deepEqual(paramsSchema(scenario).safeParse({ refusals: 0 }).error!.issues.map((i) => i.path.join(".")), ["refusals"]);
});

test("it cannot run in front of an upstream: it serves the GET stream itself", () => {
  assert.match(proxyRefusal(scenario) ?? "", /serves the standalone GET stream itself/);
});
