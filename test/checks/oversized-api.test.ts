import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { proxyRefusal } from "../../src/proxy/support.ts";
import { findScenario } from "../../scenarios/index.ts";
import { createSession, legacySession, postModern, useServer } from "../helpers/server.ts";

// results.oversized on the real server: the official SDK clients take megabytes of text, thousands of blocks and a
// large image (v1 at 2025-11-25, v2 at 2026-07-28), and bad-answer-handled judges what a client did next, passing one
// that moves on and failing a blind resend of place_order, which ran.

const server = useServer();
const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };
const ECHO = { name: "echo", arguments: { text: "hi" } };
const MIB = 1024 * 1024;

async function checksOf(sessionId: string, calls: number): Promise<{ checks: Check[]; entries: JournalEntry[] }> {
  for (let tries = 0; tries < 200; tries++) {
    const { entries } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as { entries: JournalEntry[] };
    if (entries.filter((e) => e.rpc.method === "tools/call").length >= calls) {
      const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
      return { checks, entries };
    }
    await sleep(50);
  }
  throw new Error(`the journal never held ${calls} tools/call entries`);
}

function check(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(checks.map((c) => c.id))}`);
  return found;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string }[];

test("bad sizes are refused with a 400 naming the field, and the scenario may run in front of an upstream (it alters the answer)", async () => {
  const res = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "results.oversized", params: { bytes: 9 * MIB, blocks: 1 } }),
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { error: { issues: { path: string; rule: string }[] } };
  assert.deepEqual(body.error.issues.map((i) => `${i.path} ${i.rule}`).sort(), ["params.blocks too_small", "params.bytes too_big"]);
  assert.equal(proxyRefusal(findScenario("results.oversized")!), undefined);
});

test("the SDK v1 client takes a 2 MiB text block on echo at 2025-11-25 and moves on to place_order: bad-answer-handled passes", async (t) => {
  const { id, mcpUrl } = await createSession(server, "results.oversized", { variant: "text_mb", tool: "echo", bytes: 2 * MIB });
  const client = new ClientV1({ name: "oversized-v1", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(new TransportV1(new URL(mcpUrl)));
  const content = (await client.callTool(ECHO)).content as Content;
  assert.deepEqual(content[0], { type: "text", text: "hi" });
  assert.equal(content[1]?.text?.length, 2 * MIB);
  await client.callTool(ORDER);
  const { checks, entries } = await checksOf(id, 2);
  const echo = entries.find((e) => e.rpc.toolName === "echo")!;
  assert.equal(echo.verdict?.outcome, "TOOL_SUCCESS");
  assert.ok(echo.response.body.bytes > 2 * MIB, `the journal counts the whole body: ${echo.response.body.bytes}`);
  assert.equal(check(checks, "bad-answer-handled").status, "pass");
  assert.match(check(checks, "bad-answer-handled").message, /oversized answer to tools\/call echo \(seq \d+: text_mb, read as a tool result\), the client did not send it again and moved on to tools\/call place_order/);
});

test("the SDK v2 client takes 5,000 content blocks on place_order at 2026-07-28 and does not resend it", async (t) => {
  const { id, mcpUrl } = await createSession(server, "results.oversized", { variant: "many_blocks", tool: "place_order", blocks: 5_000 });
  const client = new ClientV2({ name: "oversized-v2", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  t.after(() => client.close());
  await client.connect(new TransportV2(new URL(mcpUrl)));
  const content = (await client.callTool(ORDER)).content as Content;
  assert.equal(content.length, 5_000);
  assert.equal(content[0]?.text, "Order #1 placed: 2 x tea");
  await client.callTool(ECHO);
  const { checks } = await checksOf(id, 2);
  assert.equal(check(checks, "bad-answer-handled").status, "pass");
});

test("a legacy fetch client that resends place_order unchanged after a large image fails bad-answer-handled: the order ran twice", async () => {
  const { id, mcpUrl } = await createSession(server, "results.oversized", { variant: "large_image", tool: "place_order", bytes: MIB });
  const { post } = await legacySession(mcpUrl);
  for (const n of [1, 2]) {
    const { result } = (await (await post({ id: n, method: "tools/call", params: ORDER })).json()) as { result: { content: Content } };
    assert.equal(result.content[0]?.text, `Order #${n} placed: 2 x tea`);
    assert.equal(result.content[1]?.mimeType, "image/png");
    assert.equal(result.content[1]?.data?.length, MIB);
    assert.deepEqual([...Buffer.from(result.content[1]!.data!, "base64").subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  }
  const { checks } = await checksOf(id, 2);
  assert.equal(check(checks, "bad-answer-handled").status, "fail");
  assert.match(check(checks, "bad-answer-handled").message, /a blind resend of place_order, which is not idempotent \(the first attempt ran the tool/);
});

test("the same unchanged resend of echo, which is read-only, passes bad-answer-handled at 2026-07-28", async () => {
  const { id, mcpUrl } = await createSession(server, "results.oversized", { variant: "text_mb", tool: "echo", bytes: 64 * 1024 });
  for (const n of [1, 2]) assert.equal((await postModern(mcpUrl, n, "tools/call", ECHO)).status, 200);
  const { checks } = await checksOf(id, 2);
  assert.equal(check(checks, "bad-answer-handled").status, "pass");
  assert.match(check(checks, "bad-answer-handled").message, /a safe resend, since echo is declared read-only or idempotent/);
});
