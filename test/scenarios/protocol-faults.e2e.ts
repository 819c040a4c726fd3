import { test } from "node:test";
import assert from "node:assert/strict";
import { classify, parseSse, type Outcome } from "../../src/classify/index.ts";
import { createSession, legacySession, MODERN, postModern, useServer } from "../helpers/server.ts";

const server = useServer();

const LEGACY = "2025-11-25";
const ECHO = { name: "echo", arguments: { text: "hello" } };

interface Answer {
  res: Response;
  text: string;
  /** The request as the classifier sees it. */
  request: { headers: Record<string, string>; body: Record<string, unknown> };
}

/** Creates a session with the scenario and sends one tools/call (id 7) in the given era. */
async function callOnce(era: "modern" | "legacy", scenario: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const { mcpUrl } = await createSession(server, scenario, params);
  const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: ECHO };
  const version = era === "modern" ? MODERN : LEGACY;
  const res = era === "modern" ? await postModern(mcpUrl, 7, "tools/call", ECHO) : await (await legacySession(mcpUrl, LEGACY)).post(body);
  return { res, text: await res.text(), request: { headers: { "mcp-protocol-version": version }, body } };
}

/** The project's classifier on the answer, exactly as it came over the wire. */
function outcomeOf({ res, text, request }: Answer): { outcome: Outcome; codes: string[] } {
  const verdict = classify({ request, response: { status: res.status, headers: Object.fromEntries(res.headers), body: text } });
  return { outcome: verdict.outcome, codes: verdict.findings.map((f) => f.code) };
}

/** Parses a JSON body; fails the test when it is not JSON. */
function json(answer: Answer): Record<string, unknown> {
  return JSON.parse(answer.text) as Record<string, unknown>;
}

for (const era of ["modern", "legacy"] as const) {
  test(`malformed.invalid_json answers a ${era} tools/call with 200 application/json that does not parse`, async () => {
    const answer = await callOnce(era, "malformed.invalid_json");
    assert.equal(answer.res.status, 200);
    assert.equal(answer.res.headers.get("content-type"), "application/json");
    assert.throws(() => JSON.parse(answer.text), SyntaxError);
    assert.equal(outcomeOf(answer).outcome, "MALFORMED_JSON");
  });

  test(`malformed.truncated_json answers a ${era} tools/call with the first half of the real response`, async () => {
    const answer = await callOnce(era, "malformed.truncated_json");
    assert.equal(answer.res.status, 200);
    assert.ok(answer.text.startsWith('{"jsonrpc":"2.0","id":7,"result":'), answer.text);
    assert.throws(() => JSON.parse(answer.text), SyntaxError);
    assert.equal(outcomeOf(answer).outcome, "MALFORMED_JSON");
  });

  test(`malformed.wrong_content_type sends a correct ${era} response labelled text/plain`, async () => {
    const answer = await callOnce(era, "malformed.wrong_content_type");
    assert.equal(answer.res.status, 200);
    assert.match(answer.res.headers.get("content-type") ?? "", /^text\/plain/);
    assert.deepEqual((json(answer).result as { content: unknown }).content, [{ type: "text", text: "hello" }]);
    // Clients reject the body unread, so the classifier does not call it a success, and says why.
    const { outcome, codes } = outcomeOf(answer);
    assert.equal(outcome, "INVALID_ENVELOPE");
    assert.ok(codes.includes("CONTENT_TYPE_INVALID"), codes.join(", "));
  });

  test(`malformed.html_error_page answers a ${era} tools/call with a 200 HTML page`, async () => {
    const answer = await callOnce(era, "malformed.html_error_page");
    assert.equal(answer.res.status, 200);
    assert.match(answer.res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(answer.text, /^<!doctype html>/i);
    assert.equal(outcomeOf(answer).outcome, "MALFORMED_JSON");
  });

  test(`envelope.wrong_id answers a ${era} tools/call with another request's id`, async () => {
    const answer = await callOnce(era, "envelope.wrong_id");
    assert.equal(json(answer).id, 1007);
    assert.equal(outcomeOf(answer).outcome, "INVALID_ENVELOPE");
  });

  test(`envelope.result_and_error answers a ${era} tools/call with both result and error`, async () => {
    const answer = await callOnce(era, "envelope.result_and_error");
    const message = json(answer);
    assert.ok(message.result && message.error, answer.text);
    assert.equal(outcomeOf(answer).outcome, "INVALID_ENVELOPE");
  });

  test(`envelope.missing_jsonrpc answers a ${era} tools/call without the jsonrpc member`, async () => {
    const answer = await callOnce(era, "envelope.missing_jsonrpc");
    const message = json(answer);
    assert.equal("jsonrpc" in message, false);
    assert.equal(message.id, 7);
    assert.equal(outcomeOf(answer).outcome, "INVALID_ENVELOPE");
  });

  test(`envelope.null_id answers a ${era} tools/call with a result whose id is null`, async () => {
    const answer = await callOnce(era, "envelope.null_id");
    const message = json(answer);
    assert.equal(message.id, null);
    assert.ok(message.result);
    assert.equal(outcomeOf(answer).outcome, "INVALID_ENVELOPE");
  });

  test(`results.content_not_array answers a ${era} tools/call with content as an object`, async () => {
    const answer = await callOnce(era, "results.content_not_array");
    const result = json(answer).result as { content: unknown };
    assert.equal(Array.isArray(result.content), false);
    assert.equal(typeof result.content, "object");
    assert.equal(outcomeOf(answer).outcome, "INVALID_TOOL_RESULT");
  });
}

test("malformed.invalid_json puts the bad JSON in an SSE event's data when the session answers with responseMode sse", async () => {
  const answer = await callOnce("modern", "malformed.invalid_json", { responseMode: "sse" });
  assert.equal(answer.res.headers.get("content-type"), "text/event-stream");
  const [event] = parseSse(answer.text).events;
  assert.equal(event?.type, "message");
  assert.throws(() => JSON.parse(event?.data ?? ""), SyntaxError);
  assert.equal(outcomeOf(answer).outcome, "MALFORMED_JSON");
});

test("results.unknown_result_type answers a 2026-07-28 tools/call with resultType partial", async () => {
  const answer = await callOnce("modern", "results.unknown_result_type");
  assert.equal((json(answer).result as { resultType: string }).resultType, "partial");
  assert.equal(outcomeOf(answer).outcome, "INVALID_TOOL_RESULT");
});

test("results.unknown_result_type adds resultType partial to a legacy result, where it is an unknown extra member", async () => {
  const answer = await callOnce("legacy", "results.unknown_result_type");
  const result = json(answer).result as { resultType: string; content: unknown };
  assert.equal(result.resultType, "partial");
  assert.deepEqual(result.content, [{ type: "text", text: "hello" }]);
});

test("results.missing_result_type answers a 2026-07-28 tools/call with a result that has no resultType", async () => {
  const answer = await callOnce("modern", "results.missing_result_type");
  const result = json(answer).result as Record<string, unknown>;
  assert.equal("resultType" in result, false);
  assert.ok(Array.isArray(result.content));
  const { outcome, codes } = outcomeOf(answer);
  // 2026-07-28: the result MUST carry resultType, but clients read an absent one as "complete".
  assert.equal(outcome, "TOOL_SUCCESS");
  assert.ok(codes.includes("RESULT_TYPE_MISSING"), codes.join(", "));
});

test("results.missing_result_type injects nothing in a legacy era, where results never have resultType", async () => {
  const answer = await callOnce("legacy", "results.missing_result_type");
  const result = json(answer).result as Record<string, unknown>;
  assert.equal("resultType" in result, false);
  const { outcome, codes } = outcomeOf(answer);
  assert.equal(outcome, "TOOL_SUCCESS");
  assert.equal(codes.includes("RESULT_TYPE_MISSING"), false);
});

test("results.content_not_array leaves an error response alone", async () => {
  const { mcpUrl } = await createSession(server, "results.content_not_array");
  const res = await postModern(mcpUrl, 1, "tools/call", { name: "no_such_tool", arguments: {} });
  const message = (await res.json()) as Record<string, unknown>;
  assert.ok(message.error);
  assert.equal("result" in message, false);
});

test("version.unsupported rejects a 2026-07-28 request with 400 and -32022 naming the supported versions, and a legacy initialize still works", async () => {
  const { mcpUrl } = await createSession(server, "version.unsupported");
  const res = await postModern(mcpUrl, 1, "tools/list");
  const text = await res.text();
  assert.equal(res.status, 400);
  const message = JSON.parse(text) as { error: { code: number; data: { supported: string[]; requested: string } } };
  assert.equal(message.error.code, -32022);
  assert.deepEqual(message.error.data, { supported: ["2025-11-25", "2025-06-18"], requested: MODERN });
  const verdict = classify({
    request: { headers: { "mcp-protocol-version": MODERN }, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
    response: { status: res.status, headers: Object.fromEntries(res.headers), body: text },
  });
  assert.equal(verdict.outcome, "HTTP_ERROR");
  assert.equal(verdict.code, -32022);
  assert.equal(verdict.retry.decision, "renegotiate");
  assert.deepEqual(verdict.retry.supportedVersions, ["2025-11-25", "2025-06-18"]);

  // The client falls back to a version from `supported`, through initialize.
  const { post } = await legacySession(mcpUrl, LEGACY);
  const list = await post({ id: 2, method: "tools/list" });
  assert.equal(list.status, 200);
  assert.ok(((await list.json()) as { result?: unknown }).result);
});

test("version.unsupported judges a legacy initialize by the version it asked for, not the one negotiation would pick", async () => {
  const { mcpUrl } = await createSession(server, "version.unsupported");
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "old", version: "1" } } }),
  });
  const message = (await res.json()) as { error: { code: number; data: { supported: string[]; requested: string } } };
  assert.equal(message.error.code, -32602);
  assert.equal(message.error.data.requested, "2024-11-05");
  assert.deepEqual(message.error.data.supported, ["2025-11-25", "2025-06-18"]);
});

test("version.unsupported answers a legacy initialize for an unlisted version with -32602 and data, and no session", async () => {
  const { mcpUrl } = await createSession(server, "version.unsupported", { supported: [MODERN, "2025-06-18"] });
  const body = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "faultline-test", version: "0.0.0" } },
  };
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("mcp-session-id"), null);
  const message = JSON.parse(text) as { error: { code: number; message: string; data: unknown } };
  assert.equal(message.error.code, -32602);
  assert.equal(message.error.message, "Unsupported protocol version");
  assert.deepEqual(message.error.data, { supported: [MODERN, "2025-06-18"], requested: LEGACY });
  const verdict = classify({ request: { headers: {}, body }, response: { status: res.status, headers: Object.fromEntries(res.headers), body: text } });
  assert.equal(verdict.outcome, "JSONRPC_ERROR");
  assert.equal(verdict.code, -32602);

  // A listed version is accepted.
  const { sessionId } = await legacySession(mcpUrl, "2025-06-18");
  assert.ok(sessionId);
});
