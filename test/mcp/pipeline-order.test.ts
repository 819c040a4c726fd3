import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import type { Fault } from "../../src/faults/schema.ts";
import { Deadline } from "../../src/wire/deadline.ts";
import { handleMcp } from "../../src/mcp/pipeline.ts";
import type { ActiveScenario, ListChange, McpSessionRow, SessionRuntime } from "../../src/mcp/runtime.ts";
import type { LogLevel, ToolDefinition } from "../../src/mcp/tool.ts";
import { defineScenario } from "../../src/mcp/scenario.ts";
import { modernMeta, MODERN } from "../helpers/server.ts";

// The pipeline in process, with a session kept in memory: the order of a fault against protocol validation, and
// that a fault which replaces the response never runs the handler.

class MemorySession implements SessionRuntime {
  counters = new Map<string, number>();
  writes = 0;
  stateKeyAsked = 0;
  countRequest(facts: { method?: string; tool?: string; mcpSessionId?: string }) {
    this.writes++;
    const bump = (key: string) => (this.counters.set(key, (this.counters.get(key) ?? 0) + 1), this.counters.get(key) ?? 0);
    return {
      posts: bump("posts"),
      method: facts.method ? bump(`method:${facts.method}`) : 0,
      tool: facts.tool ? bump(`tool-calls:${facts.tool}`) : 0,
      mcpSession: facts.mcpSessionId ? bump(`mcp-session:${facts.mcpSessionId}`) : 0,
    };
  }
  count(key: string) {
    this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
    return this.counters.get(key) ?? 0;
  }
  counted(key: string) {
    return this.counters.get(key) ?? 0;
  }
  createMcpSession() {}
  getMcpSession(): McpSessionRow | undefined {
    return undefined;
  }
  endMcpSession() {
    return false;
  }
  stateKey() {
    this.stateKeyAsked++;
    return crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  }
  waitForClient() {
    return Promise.resolve(undefined);
  }
  deliverToServer() {
    return false;
  }
  keepForResume() {}
  takeResumed() {
    return undefined;
  }
  logLevel(): LogLevel | undefined {
    return undefined;
  }
  setLogLevel() {}
  subscribe(_listener: (change: ListChange) => void) {
    return () => undefined;
  }
  publish() {}
  waitUntil() {}
  now() {
    return Date.now();
  }
}

let ran = 0;
const needsElicitation: ToolDefinition = {
  name: "approve_me",
  description: "Needs elicitation",
  args: z.object({}),
  annotations: {},
  needs: ["elicitation"],
  run: async () => (ran++, { content: [{ type: "text", text: "ran" }] }),
};

/** A scenario with one tool that needs elicitation and a fixed decision. */
function active(fault: Fault | undefined): ActiveScenario {
  const scenario = defineScenario({
    id: "test.fixed",
    title: "Fixed",
    summary: "Always the same fault",
    layer: "transport",
    params: z.object({}),
    example: {},
    judging: { checks: ["http-retry-bounded"] },
    tools: () => [needsElicitation],
    decide: () => (fault ? { fault, reason: "always" } : undefined),
  });
  return { scenario, params: {} };
}

function call(name: string, capabilities: Record<string, unknown> = {}): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: {}, _meta: modernMeta(capabilities) } }),
  });
}

const deadline = () => new Deadline(Date.now(), 600);
const status503: Fault = { kind: "http_status", status: 503, body: "empty" };

test("a transport fault wins over a missing client capability: 503, not -32021", async () => {
  const { response } = await handleMcp(call("approve_me"), new MemorySession(), active(status503), deadline());
  assert.equal(response.status, 503);
});

test("without a fault the missing client capability is the answer: 400 with -32021", async () => {
  const { response } = await handleMcp(call("approve_me"), new MemorySession(), active(undefined), deadline());
  assert.equal(response.status, 400);
  assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32021);
});

test("a fault that shapes the answer does not hide the protocol error's status: envelope.wrong_id keeps 400", async () => {
  const { response } = await handleMcp(call("approve_me"), new MemorySession(), active({ kind: "envelope", variant: "wrong_id" }), deadline());
  assert.equal(response.status, 400);
  const body = (await response.json()) as { id: unknown; error: { code: number } };
  assert.equal(body.error.code, -32021);
  assert.notEqual(body.id, 7);
});

test("a fault that replaces the response never runs the handler nor asks for the state key", async () => {
  const session = new MemorySession();
  const before = ran;
  const { response } = await handleMcp(call("approve_me", { elicitation: {} }), session, active(status503), deadline());
  assert.equal(response.status, 503);
  assert.equal(ran, before);
  assert.equal(session.stateKeyAsked, 0);
  // The same call without the fault does run it, so the assertions above can fail.
  const answered = await handleMcp(call("approve_me", { elicitation: {} }), session, active(undefined), deadline());
  assert.equal(answered.response.status, 200);
  assert.equal(ran, before + 1);
  assert.equal(session.stateKeyAsked, 1);
});

test("the request is counted in one write, and a rejected call is not counted as a call of its tool", async () => {
  const session = new MemorySession();
  await handleMcp(call("approve_me"), session, active(undefined), deadline());
  assert.equal(session.writes, 1);
  assert.equal(session.counters.get("posts"), 1);
  assert.equal(session.counters.get("method:tools/call"), 1);
  assert.equal(session.counters.get("tool-calls:approve_me"), undefined);
});

test("the facts travel with the response: parsed body, method and era, for the recorder", async () => {
  const handled = await handleMcp(call("echo"), new MemorySession(), active(undefined), deadline());
  assert.equal(handled.response.status, 200);
  assert.deepEqual(handled.facts?.rpc, { id: 7, method: "tools/call", kind: "request", toolName: "echo" });
  assert.equal(handled.facts?.era, "modern");
  assert.equal((handled.facts?.body as { id: number }).id, 7);
});
