import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import { useServer } from "../helpers/server.ts";
import { startUpstream, UPSTREAM_TOOLS, type Upstream } from "../helpers/upstream.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";

// The checks on a proxied session judge the upstream's real tools: the proxy reads the upstream's own tools/list, so a
// client that never lists tools is still judged by what the upstream declares.

const server = useServer();
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream({ responseMode: "sse" });
});
after(() => upstream.close());

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

/** A cut call of `tool`, then a different call, with no tools/list from the client. */
async function cutThenMoveOn(tool: "lookup" | "charge", args: Record<string, unknown>) {
  const { status, json } = await createProxied(server.url, { scenario: "streams.cut_before_response", params: { nth: 1 }, upstream: upstream.url });
  assert.equal(status, 201, JSON.stringify(json));
  await (await call(json.mcpUrl, 1, tool, args)).text();
  await (await call(json.mcpUrl, 2, "report", { steps: 0 })).text();
  const entries = await journalWhen(server.url, json.id, (all) => all.length === 2);
  return { id: json.id as string, entries };
}

test("a proxied tools/call is journalled with the called tool's annotations from the upstream's own tools/list", async () => {
  const { entries } = await cutThenMoveOn("lookup", { key: "a" });
  const first = entries.find((e) => e.rpc.toolName === "lookup")!;
  assert.deepEqual(first.proxied?.tool, { name: "lookup", annotations: UPSTREAM_TOOLS.lookup });
});

test("a cut call of the upstream's read-only tool that the client did not re-send is flagged, since the upstream says it is safe to repeat", async () => {
  const { id } = await cutThenMoveOn("lookup", { key: "b" });
  const resent = (await checksOf(id)).find((c) => c.id === "cut-call-resent");
  assert.equal(resent?.status, "warning", JSON.stringify(resent));
});

test("a cut call of the upstream's destructive, non-idempotent tool is not expected to be re-sent", async () => {
  const { id } = await cutThenMoveOn("charge", { cents: 1 });
  const resent = (await checksOf(id)).find((c) => c.id === "cut-call-resent");
  assert.equal(resent, undefined, JSON.stringify(resent));
});
