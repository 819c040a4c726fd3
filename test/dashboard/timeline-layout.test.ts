import { test } from "node:test";
import assert from "node:assert/strict";
import { importClient } from "./served-modules.ts";

interface Gap {
  from: number;
  to: number;
  ms: number;
  label: string;
  tooSoon: boolean;
  followUp: boolean;
  /** The journal's reading of where the retry came from. */
  origin?: string;
}
interface Layout {
  width: number;
  lanes: { key: string; top: number; height: number; y: number; labelY: number }[];
  marks: { seq: number; x: number; xEnd: number; y: number }[];
  gaps: Gap[];
  breaks: { x: number; ms: number; label: string; level: number }[];
  ticks: { x: number; label: string }[];
}
const { layoutTimeline, laneKey } = await importClient<{
  layoutTimeline: (entries: unknown[], options?: { width?: number; labelWidth?: number; labelsAbove?: boolean }) => Layout;
  laneKey: (entry: unknown) => string;
}>("timeline-layout.client.js");

const t0 = Date.parse("2026-11-30T10:00:00.000Z");
function entry(seq: number, atMs: number, outcome: string, extra: Record<string, unknown> = {}) {
  return {
    seq,
    time: new Date(t0 + atMs).toISOString(),
    durationMs: 5,
    request: { method: "POST" },
    response: { status: outcome === "HTTP_ERROR" ? 503 : 200 },
    rpc: { method: "tools/call", toolName: "echo" },
    verdict: { outcome, retry: { decision: "conditional" } },
    ...extra,
  };
}

test("one lane per method and tool, in order of first appearance", () => {
  const layout = layoutTimeline([entry(2, 10, "TOOL_SUCCESS"), { ...entry(1, 0, "TOOL_SUCCESS"), rpc: { method: "tools/list" } }]);
  assert.deepEqual(layout.lanes.map((l) => l.key), ["tools/list", "tools/call echo"]);
  assert.ok((layout.marks[0]?.x ?? 0) < (layout.marks[1]?.x ?? 0));
});

test("the wait before a retry is measured from the end of the failure, and flagged when under 100 ms", () => {
  const layout = layoutTimeline([entry(1, 0, "HTTP_ERROR"), entry(2, 25, "HTTP_ERROR"), entry(3, 1030, "TOOL_SUCCESS")]);
  assert.deepEqual(
    layout.gaps.map((g) => [g.from, g.to, g.ms, g.label, g.tooSoon]),
    [
      [1, 2, 20, "+20 ms", true],
      [2, 3, 1000, "+1.0 s", false],
    ],
  );
});

test("a retry sooner than the Retry-After the server asked for is flagged", () => {
  const failed = entry(1, 0, "HTTP_ERROR", { verdict: { outcome: "HTTP_ERROR", retry: { decision: "conditional", afterMs: 2000 } } });
  const layout = layoutTimeline([failed, entry(2, 1005, "TOOL_SUCCESS")]);
  assert.equal(layout.gaps[0]?.tooSoon, true);
});

test("a call after a success is not a retry, and a follow-up after input_required is not flagged", () => {
  const layout = layoutTimeline([entry(1, 0, "TOOL_SUCCESS"), entry(2, 10, "INPUT_REQUIRED"), entry(3, 20, "TOOL_SUCCESS")]);
  assert.equal(layout.gaps.length, 1);
  assert.equal(layout.gaps[0]?.followUp, true);
  assert.equal(layout.gaps[0]?.tooSoon, false);
});

test("a long idle stretch becomes a break instead of empty space", () => {
  const layout = layoutTimeline([entry(1, 0, "TOOL_SUCCESS"), entry(2, 120_000, "TOOL_SUCCESS")], { width: 600 });
  assert.deepEqual(layout.breaks.map((b) => b.ms), [120_000]);
});

test("exchanges without a JSON-RPC method get a lane named by the HTTP method", () => {
  assert.equal(laneKey({ request: { method: "GET" }, rpc: {} }), "GET");
  assert.equal(laneKey({ request: { method: "POST" }, rpc: { kind: "response" } }), "(response)");
});

test("a short run's time axis is labelled across the whole width, not only under the exchanges", () => {
  const layout = layoutTimeline([entry(1, 0, "TOOL_SUCCESS"), entry(2, 12, "TOOL_SUCCESS")], { width: 1200 });
  const lastMark = Math.max(...layout.marks.map((m) => m.xEnd));
  assert.ok(lastMark < layout.width / 3, `the run is short: it ends at ${lastMark}px of ${layout.width}px`);
  const lastTick = Math.max(...layout.ticks.map((t) => t.x));
  assert.ok(lastTick > layout.width * 0.85, `the last tick is at ${lastTick}px of ${layout.width}px`);
  assert.ok(lastTick <= layout.width - 20, "and its label still fits inside the picture");
});

test("on a narrow screen each lane's label sits above it and the marks start near the left edge", () => {
  const entries = [entry(1, 0, "TOOL_SUCCESS"), { ...entry(2, 10, "TOOL_SUCCESS"), rpc: { method: "notifications/initialized" } }];
  const beside = layoutTimeline(entries, { width: 340, labelWidth: 160 });
  const above = layoutTimeline(entries, { width: 340, labelWidth: 160, labelsAbove: true });
  assert.ok((above.marks[0]?.x ?? 0) < 40, `the first mark is at ${above.marks[0]?.x}px`);
  assert.ok((beside.marks[0]?.x ?? 0) > 160);
  for (const lane of above.lanes) {
    assert.ok(lane.labelY < lane.y - 10 && lane.labelY > lane.top, `${lane.key}: label between the lane's top and its marks`);
  }
  assert.ok(above.width <= 340, "nothing is pushed past the width");
});

test("a retry gap names a same-id retry as a possible transport resend and a new-id retry as a possible application request", () => {
  const layout = layoutTimeline([
    entry(1, 0, "HTTP_ERROR"),
    entry(2, 300, "HTTP_ERROR", { retryOf: 1, retryOrigin: "transport" }),
    entry(3, 900, "TOOL_SUCCESS", { retryOf: 2, retryOrigin: "application" }),
  ]);
  assert.deepEqual(layout.gaps.map((g) => [g.from, g.to]), [[1, 2], [2, 3]]);
  assert.match(layout.gaps[0]?.origin ?? "", /^same JSON-RPC id: .*transport\?$/);
  assert.match(layout.gaps[1]?.origin ?? "", /^new JSON-RPC id: .*application\?$/);
});

test("a gap has no origin note when the journal linked the retry to another attempt, or to none (older entries)", () => {
  const layout = layoutTimeline([
    entry(1, 0, "HTTP_ERROR"),
    entry(2, 300, "HTTP_ERROR", { retryOf: 7, retryOrigin: "transport" }),
    entry(3, 900, "TOOL_SUCCESS"),
  ]);
  assert.deepEqual(layout.gaps.map((g) => g.origin), [undefined, undefined]);
});

test("after an idle break the tick labels are all different, with as many decimals as the step needs", () => {
  const layout = layoutTimeline([entry(1, 0, "HTTP_ERROR"), entry(2, 10, "TOOL_SUCCESS"), entry(3, 38_000, "TOOL_SUCCESS"), entry(4, 38_015, "TOOL_SUCCESS")], { width: 1200 });
  const labels = layout.ticks.map((t) => t.label);
  assert.ok(labels.some((l) => l.startsWith("38.")), labels.join(", "));
  assert.equal(new Set(labels).size, labels.length, labels.join(", "));
});

test("no tick label sits on a break's label", () => {
  const layout = layoutTimeline([entry(1, 0, "TOOL_SUCCESS"), entry(2, 150, "TOOL_SUCCESS"), entry(3, 38_000, "TOOL_SUCCESS"), entry(4, 38_150, "TOOL_SUCCESS")], { width: 500 });
  const breakX = layout.breaks[0]?.x ?? 0;
  assert.ok(layout.breaks.length === 1);
  for (const tick of layout.ticks) assert.ok(Math.abs(tick.x - breakX) > 40, `tick "${tick.label}" at ${tick.x}px, the break's label at ${breakX}px`);
});

test("a connector joins a failure only to the next attempt at the same call, not to a different call of the same tool", () => {
  const layout = layoutTimeline([
    entry(1, 0, "HTTP_ERROR", { callDigest: "a" }),
    entry(2, 20, "TOOL_SUCCESS", { callDigest: "a" }),
    entry(3, 500, "HTTP_ERROR", { callDigest: "b" }),
    entry(4, 38_500, "TOOL_SUCCESS", { callDigest: "c" }),
    entry(5, 39_000, "TOOL_SUCCESS", { callDigest: "b" }),
  ]);
  assert.deepEqual(layout.gaps.map((g) => [g.from, g.to]), [[1, 2], [3, 5]]);
});

test("a task's creating call and every tasks/* request about it share one lane, named by the task", () => {
  const created = { ...entry(1, 0, "TOOL_SUCCESS"), response: { status: 200, body: { text: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { resultType: "task", taskId: "t-1", status: "working", pollIntervalMs: 500 } }) } } };
  const byHeader = { ...entry(2, 600, "TOOL_SUCCESS"), rpc: { method: "tasks/get" }, request: { method: "POST", headers: { "mcp-name": "t-1" } } };
  const byParams = { ...entry(3, 1200, "TOOL_SUCCESS"), rpc: { method: "tasks/cancel" }, request: { method: "POST", headers: {}, body: { text: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tasks/cancel", params: { taskId: "t-1" } }) } } };
  const other = { ...entry(4, 1300, "TOOL_SUCCESS"), rpc: { method: "tasks/get" }, request: { method: "POST", headers: { "mcp-name": "t-2" } } };
  const plain = entry(5, 1400, "TOOL_SUCCESS");
  const layout = layoutTimeline([created, byHeader, byParams, other, plain]);
  assert.deepEqual(layout.lanes.map((l) => l.key), ["task t-1", "task t-2", "tools/call echo"]);
  const y = (seq: number) => layout.marks.find((m) => m.seq === seq)?.y;
  assert.equal(y(2), y(1));
  assert.equal(y(3), y(1));
  assert.notEqual(y(4), y(1));
});

test("a task created on an SSE stream (2025-11-25's nested task) is found in the stream's events", () => {
  const created = { ...entry(1, 0, "TOOL_SUCCESS"), response: { status: 200, sseEvents: [{ data: "{not json" }, { data: JSON.stringify({ jsonrpc: "2.0", id: 1, result: { task: { taskId: "t-9", status: "working" } } }) }] } };
  assert.equal(laneKey(created), "task t-9");
});

test("a tasks/get whose body the journal cut and that carries no Mcp-Name stays in its method's lane", () => {
  const cut = { ...entry(1, 0, "TOOL_SUCCESS"), rpc: { method: "tasks/get" }, request: { method: "POST", headers: {}, body: { text: '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t-', truncated: true } } };
  assert.equal(laneKey(cut), "tasks/get");
});
