import { test } from "node:test";
import assert from "node:assert/strict";
import { runChecks } from "../../src/checks/index.ts";
import { NO_BACKOFF_MS } from "../../src/checks/retries.ts";
import { GENERATED_MODULES } from "../../src/dashboard/outcome-assets.ts";
import { TIMING } from "../../src/wire/facts.ts";
import { call } from "../checks/entries.ts";
import { importClient } from "./served-modules.ts";

const { TIMING: served } = await importClient<{ TIMING: unknown }>("wire-facts.client.js");
const { layoutTimeline, MIN_BACKOFF_MS } = await importClient<{
  layoutTimeline: (entries: unknown[]) => { gaps: { tooSoon: boolean }[] };
  MIN_BACKOFF_MS: number;
}>("timeline-layout.client.js");

test("the browser gets the wire facts' timing table as /assets/wire-facts.client.js", () => {
  assert.ok(Object.hasOwn(GENERATED_MODULES, "wire-facts.client.js"));
  assert.deepEqual(served, TIMING);
});

test("the timeline's no-backoff threshold is the one the checks warn at", () => {
  assert.equal(MIN_BACKOFF_MS, TIMING.noBackoffMs);
  assert.equal(NO_BACKOFF_MS, TIMING.noBackoffMs);
});

// One journal, judged by the checks and drawn by the timeline: a retry of a 503 (no Retry-After) `gap` ms after the
// failure ended (each call takes 5 ms in these journals).
function retriedAfter(gap: number) {
  return [call(1, 0, "echo", { text: "hi" }, { status: 503 }), call(2, 5 + gap, "echo", { text: "hi" })];
}

for (const [gap, noBackoff] of [[TIMING.noBackoffMs - 1, true], [TIMING.noBackoffMs, false]] as const) {
  test(`a retry ${gap} ms after a 503 is ${noBackoff ? "" : "not "}"no backoff" for the checks and the timeline alike`, async () => {
    const entries = retriedAfter(gap);
    const check = (await runChecks(entries)).find((c) => c.id === "http-retry-backoff");
    assert.equal(check?.status, noBackoff ? "warning" : "pass", check?.message);
    assert.equal(check?.status === "warning" && /no backoff/.test(check.message), noBackoff, check?.message);
    const gaps = layoutTimeline(entries).gaps;
    assert.equal(gaps.length, 1);
    assert.equal(gaps[0]?.tooSoon, noBackoff);
  });
}
