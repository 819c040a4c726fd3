import { test } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { Check } from "../../src/checks/index.ts";
import type { JournalEntry } from "../../src/journal/entry.ts";
import { findScenario } from "../../scenarios/index.ts";
import { journalOf } from "../helpers/journal.ts";
import { createSession, legacySession, useServer } from "../helpers/server.ts";

// The official SDK clients against the malformed.*, envelope.*, results.*, session.missing_id and version.unsupported
// scenarios, judged by GET /api/sessions/{id}/checks: bad-answer-handled, session-id-refusal-handled and
// version-renegotiated, each read against the journal it cites.

const server = useServer();

type Json = Record<string, any>;
type Sdk = "v1" | "v2" | "v2 auto";
const ECHO = { name: "echo", arguments: { text: "hello" } };
const ORDER = { name: "place_order", arguments: { item: "book", quantity: 1 } };

async function checksOf(sessionId: string): Promise<Check[]> {
  return ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] }).checks;
}

async function checkOf(sessionId: string, id: string): Promise<Check> {
  const found = (await checksOf(sessionId)).find((c) => c.id === id);
  assert.ok(found, `no ${id} check in ${JSON.stringify(await checksOf(sessionId))}`);
  return found;
}

/**
 * Runs an SDK client as the test clients of `faultline run` do: connect, then each call in turn, a failed call
 * reported and passed over. Returns how each step ended ("ok" or the error), and closes the client.
 */
async function runClient(sdk: Sdk, mcpUrl: string, calls: Json[]): Promise<string[]> {
  const client = sdk === "v1"
    ? new ClientV1({ name: "faultline-fault-checks", version: "0.0.0" })
    : new ClientV2({ name: "faultline-fault-checks", version: "0.0.0" }, sdk === "v2 auto" ? { versionNegotiation: { mode: "auto" } } : {});
  const steps: string[] = [];
  try {
    await client.connect(sdk === "v1" ? new TransportV1(new URL(mcpUrl)) : new TransportV2(new URL(mcpUrl)));
    steps.push("connected");
    for (const params of calls) {
      await client.callTool(params as { name: string; arguments: Record<string, unknown> }).then(
        () => steps.push(`${params.name} ok`),
        (error: unknown) => steps.push(`${params.name} failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  } catch (error) {
    steps.push(`connect failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.close();
  }
  return steps;
}

const calls = (entries: JournalEntry[]) => entries.filter((e) => e.rpc.method === "tools/call");

// ---- bad-answer-handled ----

const BAD_ANSWERS: { scenario: string; sdk: Sdk }[] = [
  { scenario: "malformed.invalid_json", sdk: "v1" },
  { scenario: "malformed.html_error_page", sdk: "v2" },
  { scenario: "envelope.null_id", sdk: "v1" },
  { scenario: "envelope.result_and_error", sdk: "v2" },
  { scenario: "results.content_not_array", sdk: "v2" },
];

for (const { scenario, sdk } of BAD_ANSWERS) {
  test(`${scenario}: an SDK ${sdk} client whose echo got the bad answer and that moved on to place_order passes bad-answer-handled`, async () => {
    const session = await createSession(server, scenario, { nth: 1 });
    const steps = await runClient(sdk, session.mcpUrl, [ECHO, ORDER]);
    assert.match(steps[1] ?? "", /^echo failed/, steps.join("; "));
    const [echo, order] = calls(await journalOf(server.url, session.id, 5));
    assert.equal(echo?.fault?.kind, scenario.split(".")[0] === "results" ? "bad_result" : scenario.split(".")[0]);
    assert.equal(order?.rpc.toolName, "place_order");
    const check = await checkOf(session.id, "bad-answer-handled");
    assert.equal(check.status, "pass", check.message);
    assert.deepEqual(check.evidence, [echo?.seq, order?.seq]);
    assert.match(check.message, /did not send it again and moved on to tools\/call place_order/);
  });
}

test("envelope.null_id: an application that calls place_order again after the bad answer fails bad-answer-handled, as the tool had run", async () => {
  const session = await createSession(server, "envelope.null_id", { nth: 1 });
  const steps = await runClient("v1", session.mcpUrl, [ORDER, ORDER]);
  assert.deepEqual(steps.slice(1).map((s) => s.split(":")[0]), ["place_order failed", "place_order ok"]);
  const [first, again] = calls(await journalOf(server.url, session.id, 5));
  assert.equal(first?.effects, "ran");
  const check = await checkOf(session.id, "bad-answer-handled");
  assert.equal(check.status, "fail", check.message);
  assert.deepEqual(check.evidence, [first?.seq, again?.seq]);
  assert.match(check.message, /a blind resend of place_order, which is not idempotent \(the first attempt ran the tool/);
});

test("malformed.invalid_json with its example params: the fault lands on the SDK v1 client's first call, so what it did next is judged", async () => {
  const session = await createSession(server, "malformed.invalid_json", findScenario("malformed.invalid_json")?.example ?? {});
  const steps = await runClient("v1", session.mcpUrl, [ECHO, ORDER]);
  assert.match(steps[1] ?? "", /^echo failed/, steps.join("; "));
  const [echo, order] = calls(await journalOf(server.url, session.id, 5));
  assert.equal(echo?.fault?.kind, "malformed");
  const check = await checkOf(session.id, "bad-answer-handled");
  assert.equal(check.status, "pass", check.message);
  assert.deepEqual(check.evidence, [echo?.seq, order?.seq]);
});

// ---- session-id-refusal-handled ----

for (const sdk of ["v1", "v2"] as const) {
  test(`session.missing_id: the SDK ${sdk} client goes on with the same Mcp-Session-Id after the refusal, and passes session-id-refusal-handled`, async () => {
    const session = await createSession(server, "session.missing_id", { nth: 1 });
    const steps = await runClient(sdk, session.mcpUrl, [ECHO, ORDER]);
    assert.match(steps[1] ?? "", /^echo failed: .*Mcp-Session-Id header is required/);
    const [refused, next] = calls(await journalOf(server.url, session.id, 5));
    assert.equal(refused?.response.status, 400);
    assert.equal(refused?.request.headers["mcp-session-id"], next?.request.headers["mcp-session-id"]);
    const check = await checkOf(session.id, "session-id-refusal-handled");
    assert.equal(check.status, "pass", check.message);
    assert.deepEqual(check.evidence, [refused?.seq, next?.seq]);
    assert.match(check.message, /went on with the same session id: tools\/call place_order \(seq \d+\) got a tool result\./);
  });
}

test("session.missing_id at 2025-06-18: a client that resends with its id passes, one that drops the id fails session-id-refusal-handled", async () => {
  for (const [dropId, status] of [[false, "pass"], [true, "fail"]] as const) {
    const session = await createSession(server, "session.missing_id", { nth: 1 });
    const { post } = await legacySession(session.mcpUrl, "2025-06-18");
    const body = { id: 1, method: "tools/call", params: ECHO };
    assert.equal((await post(body)).status, 400);
    const noId = () =>
      fetch(session.mcpUrl, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", ...body, id: 2 }),
      });
    await (await (dropId ? noId() : post({ ...body, id: 2 }))).text();
    const [refused] = calls(await journalOf(server.url, session.id, 4));
    assert.equal(refused?.protocolVersion, "2025-06-18");
    const check = await checkOf(session.id, "session-id-refusal-handled");
    assert.equal(check.status, status, check.message);
  }
});

// ---- version-renegotiated with version.unsupported's example params ----

for (const sdk of ["v1", "v2"] as const) {
  test(`version.unsupported with its example params: the SDK ${sdk} client's initialize is refused, it sends nothing more, and version-renegotiated says it gave up (info)`, async () => {
    const session = await createSession(server, "version.unsupported", findScenario("version.unsupported")?.example ?? {});
    const steps = await runClient(sdk, session.mcpUrl, [ECHO]);
    assert.match(steps.join("; "), /^connect failed: .*Unsupported protocol version/);
    const [init, ...rest] = await journalOf(server.url, session.id, 1);
    assert.equal(rest.length, 0, "the client sent nothing after the refusal");
    assert.equal(JSON.parse(init!.request.body.text).params.protocolVersion, "2025-11-25");
    assert.equal(init?.fault?.kind, "unsupported_version");
    const check = await checkOf(session.id, "version-renegotiated");
    assert.equal(check.status, "info", check.message);
    assert.equal(
      check.message,
      `After the -32602 refusal of 2025-11-25 to initialize (seq ${init?.seq}), the client then sent nothing more: it gave up without trying a version from data.supported ["2025-06-18"] (the 2025 lifecycle names no retry after an initialize error, and a client that supports none of the server's versions SHOULD disconnect).`,
    );
  });
}

test("version.unsupported with its example params: the SDK v2 client in auto mode falls back to a 2025-11-25 initialize after -32022 listed only 2025-06-18, and fails version-renegotiated", async () => {
  const session = await createSession(server, "version.unsupported", findScenario("version.unsupported")?.example ?? {});
  const steps = await runClient("v2 auto", session.mcpUrl, [ECHO]);
  assert.match(steps.join("; "), /^connect failed/);
  const [probe, init] = await journalOf(server.url, session.id, 2);
  assert.deepEqual([probe?.rpc.method, probe?.response.status], ["server/discover", 400]);
  assert.deepEqual(JSON.parse(probe!.response.body.text).error.data.supported, ["2025-06-18"]);
  assert.equal(init?.rpc.method, "initialize");
  assert.equal(JSON.parse(init!.request.body.text).params.protocolVersion, "2025-11-25");
  const check = await checkOf(session.id, "version-renegotiated");
  assert.equal(check.status, "fail", check.message);
  assert.deepEqual(check.evidence, [probe?.seq, init?.seq]);
  assert.match(check.message, /fell back to initialize with "2025-11-25", which is not in data.supported \["2025-06-18"\]/);
});
