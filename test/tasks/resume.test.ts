import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type RawClientDispatch, type SerializedTaskReference } from "@modelcontextprotocol/ext-tasks/client";
import type { Check } from "../../src/checks/index.ts";
import { createSession, MODERN, useServer } from "../helpers/server.ts";
import { journalOf } from "../helpers/journal.ts";

// The ext-tasks client (0.2.2) resuming a task after a restart, as SEP-2663 asks ("Clients SHOULD persist task IDs
// to durable storage so that polling can resume after a crash or restart"): a first client starts slow_compute and
// hands off a serialized reference; a second client, connected afresh (its own server/discover), resumes the task
// from it and settles on the result. task-resumed-after-restart judges the journal.

type Json = Record<string, any>;
const server = useServer();
const info = { name: "ext-tasks-resume-test", version: "0.0.0" };

/** A v2 SDK client and a task session of the package on it, posting what the package builds (as ext-tasks-client.test.ts). */
async function taskClient(mcpUrl: string, endpointId: string, posts: { n: number }) {
  let id = posts.n * 1000;
  const dispatch: RawClientDispatch = async (request, options) => {
    const message = request as Json;
    const name: Record<string, string> = message.method === "tools/call" ? { "mcp-name": String(message.params?.name) } : {};
    posts.n++;
    const res = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": String(message.method), ...name, ...options?.context?.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, ...message }),
    });
    const body = (await res.json()) as Json;
    return body.error ? { kind: "error", error: body.error } : { kind: "result", result: body.result };
  };
  const client = new Client(info, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  posts.n++; // its server/discover
  const tasks = createTaskSessionFromClient(client, { endpointId, rawDispatch: dispatch, v2RequestFraming: { protocolVersion: MODERN, clientInfo: info, clientCapabilities: {} } });
  return { client, tasks };
}

test("the ext-tasks client resumes a task from its serialized reference after a restart, and passes task-resumed-after-restart", async () => {
  const session = await createSession(server, "conformance");
  const posts = { n: 0 };
  const first = await taskClient(session.mcpUrl, session.id, posts);
  const execution = await first.tasks.callTool("slow_compute", { seconds: 2, label: "resumed" });
  assert.equal(execution.kind, "task");
  let reference: SerializedTaskReference | undefined;
  await execution.handoff((r) => {
    reference = r;
  });
  await first.client.close(); // the first process is gone; the reference is what it persisted
  assert.ok(reference, "handoff gave a reference to persist");
  const second = await taskClient(session.mcpUrl, session.id, posts);
  try {
    const resumed = await second.tasks.resumeTask(JSON.parse(JSON.stringify(reference)) as SerializedTaskReference);
    const { outcome } = await resumed.settle();
    assert.equal(outcome.status, "completed", JSON.stringify(outcome));
  } finally {
    await second.tasks.close();
    await second.client.close();
  }
  await journalOf(server.url, session.id, posts.n);
  const { checks } = (await (await fetch(`${server.url}/api/sessions/${session.id}/checks`)).json()) as { checks: Check[] };
  const c = checks.find((x) => x.id === "task-resumed-after-restart");
  assert.equal(c?.status, "pass", JSON.stringify(checks.filter((x) => x.id.startsWith("task-"))));
  assert.match(c!.message, /started over \(server\/discover at seq \d+\) while task .* of slow_compute .* resumed it: tasks\/get at seq \d+ names the same taskId/);
  assert.equal(checks.find((x) => x.id === "task-polled-to-terminal")?.status, "pass");
});
