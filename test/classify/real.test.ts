// Captures of real servers (captures/, recorded into test/fixtures/classify/real/), each classified and compared with
// the verdict the spec gives it: outcome, layer and retry decision. The expectations are written from the spec's
// rules, per kind of exchange, with the stacks that answer differently named; never copied from the classifier.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { classify } from "../../src/classify/index.ts";
import type { Exchange, Layer, Outcome, RetryDecision } from "../../src/classify/index.ts";

interface Capture {
  name: string;
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string } | null;
  cut: boolean;
}

type Expected = [Outcome, Layer, RetryDecision];
const SUCCESS: Expected = ["TOOL_SUCCESS", "application", "none"];
const ACCEPTED: Expected = ["NOTIFICATION_ACCEPTED", "transport", "none"];
const TOOL_ERROR: Expected = ["TOOL_ERROR", "application", "tool-semantics"];
// -32602 for an unknown tool (2025-11-25 and 2026-07-28 server/tools#error-handling): fix the call.
const UNKNOWN_TOOL: Expected = ["JSONRPC_ERROR", "protocol", "fix-input"];
const METHOD_NOT_FOUND: Expected = ["JSONRPC_ERROR", "protocol", "do-not-retry"];
const HTTP_PERMANENT: Expected = ["HTTP_ERROR", "transport", "do-not-retry"];

/** By kind of exchange; a stack-specific entry ("stack/name") wins. */
const EXPECTED: Record<string, Expected> = {
  "legacy-initialize": SUCCESS,
  "legacy-initialized-notification": ACCEPTED,
  "legacy-tools-list": SUCCESS,
  "legacy-call-ok": SUCCESS,
  "legacy-call-tool-error": TOOL_ERROR,
  "legacy-call-unknown-tool": UNKNOWN_TOOL,
  // The SDK v1 server sends an unknown tool as an isError result; as sent, that is a tool error.
  "sdk-v1-stateful-sse/legacy-call-unknown-tool": TOOL_ERROR,
  "sdk-v1-stateful-json/legacy-call-unknown-tool": TOOL_ERROR,
  "sdk-v1-stateless-sse/legacy-call-unknown-tool": TOOL_ERROR,
  "sdk-v1-stateless-json/legacy-call-unknown-tool": TOOL_ERROR,
  "legacy-unknown-method": METHOD_NOT_FOUND,
  "legacy-ping": SUCCESS,
  // 406 is SDK convention, not spec (digest §1.7): a client-side failure all the same.
  "legacy-accept-html": HTTP_PERMANENT,
  // 2025-11-25 transports, sending messages: the server's elicitation/create waits for the client's answer.
  "legacy-elicitation-cut": ["STREAM_INCOMPLETE", "transport", "answer-server-request"],
  // The v2 server has no confirm tool: an unknown tool.
  "sdk-v2/legacy-elicitation-cut": UNKNOWN_TOOL,
  // fastmcp could not learn the client's capabilities over HTTP, so it never sent the elicitation: the tool returned.
  "fastmcp/legacy-elicitation-cut": SUCCESS,
  // 2026-07-28 backward compatibility: a 400 without -32020/-32021/-32022 means fall back to initialize.
  "legacy-modern-request": ["HTTP_ERROR", "transport", "legacy-fallback"],
  "sdk-v2/legacy-modern-request": SUCCESS,
  // The SDK v1 example answers an unknown session 400 naming the session (the spec says 404): read as the 404 it should be.
  "legacy-unknown-session": ["HTTP_ERROR", "transport", "reinitialize"],
  // 2025-11-25 session management: a 404 to a request with Mcp-Session-Id means start a new session.
  "fastmcp/legacy-unknown-session": ["HTTP_ERROR", "transport", "reinitialize"],
  "legacy-after-delete": ["HTTP_ERROR", "transport", "reinitialize"],
  // 2025-11-25 transports, listening: a standby GET stream stays open; cut by the capture, it is healthy, not incomplete.
  "legacy-get-stream": ["STREAM_OPEN", "transport", "none"],
  // 2025-11-25 session management: a 2xx to DELETE ends the session.
  "legacy-delete": ["SESSION_ENDED", "transport", "none"],
  "modern-discover": SUCCESS,
  "modern-tools-list": SUCCESS,
  "modern-call-ok": SUCCESS,
  "modern-call-tool-error": TOOL_ERROR,
  "modern-call-unknown-tool": UNKNOWN_TOOL,
  // 2026-07-28: an unknown method is 404 with -32601.
  "modern-unknown-method": ["HTTP_ERROR", "transport", "do-not-retry"],
  // -32020 HeaderMismatch: rebuild the headers from the body.
  "modern-header-mismatch": ["HTTP_ERROR", "transport", "fix-input"],
  "modern-elicitation": UNKNOWN_TOOL,
  // A 2026-07-28-only server SHOULD answer GET and DELETE with 405.
  "modern-get": HTTP_PERMANENT,
  "modern-delete": HTTP_PERMANENT,
};


const dir = new URL("../fixtures/classify/real/", import.meta.url);
const stacks = readdirSync(dir).filter((f) => f.endsWith(".json"));

test("the corpus holds captures of at least three server stacks in both eras", () => {
  const labels = stacks.map((f) => (JSON.parse(readFileSync(new URL(f, dir), "utf8")) as { stack: string }).stack);
  assert.ok(labels.some((l) => l.startsWith("@modelcontextprotocol/server 2.")), "the SDK v2 server");
  assert.ok(labels.some((l) => l.startsWith("@modelcontextprotocol/sdk 1.")), "the SDK v1 server");
  assert.ok(labels.some((l) => l.startsWith("fastmcp")), "fastmcp");
  const names = stacks.flatMap((f) => (JSON.parse(readFileSync(new URL(f, dir), "utf8")) as { exchanges: Capture[] }).exchanges.map((e) => e.name));
  assert.ok(names.some((n) => n.startsWith("modern-")) && names.some((n) => n.startsWith("legacy-")), "both eras");
});

for (const file of stacks) {
  const stack = file.replace(/\.json$/, "");
  const { exchanges } = JSON.parse(readFileSync(new URL(file, dir), "utf8")) as { exchanges: Capture[] };
  for (const capture of exchanges) {
    // A JSON-mode server waiting for the client's answer never sent its response headers: nothing to classify.
    if (capture.response === null) continue;
    const expected = EXPECTED[`${stack}/${capture.name}`] ?? EXPECTED[capture.name];
    test(`${stack}: ${capture.name} is ${expected?.join(", ") ?? "(no expectation)"}`, () => {
      assert.ok(expected, `no expected verdict written for ${stack}/${capture.name}`);
      const exchange: Exchange = { request: { method: capture.request.method, headers: capture.request.headers, body: capture.request.body }, response: capture.response! };
      const verdict = classify(exchange);
      const codes = verdict.findings.map((f) => `${f.severity}:${f.code}`).join(", ");
      assert.deepEqual([verdict.outcome, verdict.layer, verdict.retry.decision], expected, `${verdict.retry.reason} (findings: ${codes})`);
    });
  }
}
