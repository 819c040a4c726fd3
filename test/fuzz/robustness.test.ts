import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createSession, MODERN, startServer, type TestServer } from "../helpers/server.ts";

// Bad input gets a 4xx with a JSON error, never a 500 the scenario did not intend: arbitrary bodies and headers
// thrown at every endpoint that reads a body.

let server: TestServer;
/** Scenarios with the most request handling: the plain server, every conformance fixture, and MRTR. */
const FUZZED = ["baseline", "conformance", "elicitation.approval", "pagination.bad_cursor"] as const;
const mcpUrls: string[] = [];
before(async () => {
  server = await startServer();
  for (const scenario of FUZZED) mcpUrls.push((await createSession(server, scenario)).mcpUrl);
});
after(() => server.close());

const METHODS = ["initialize", "tools/call", "tools/list", "server/discover", "ping", "notifications/initialized", "resources/read", "prompts/get", "subscriptions/listen", "x/unknown"];

/** A JSON-RPC-shaped value with arbitrary holes and wrong types, so the server's parsing is reached, not just JSON.parse. */
const nearRpc = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.string(), fc.integer()),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double()),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string()),
    params: fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom("echo", "place_order", "nope"), fc.string(), fc.integer()),
          arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
          protocolVersion: fc.oneof(fc.constantFrom("2025-11-25", "2025-06-18", MODERN), fc.string()),
          requestState: fc.oneof(fc.string(), fc.jsonValue()),
          inputResponses: fc.jsonValue(),
          _meta: fc.oneof(
            fc.record(
              {
                "io.modelcontextprotocol/protocolVersion": fc.oneof(fc.constant(MODERN), fc.string()),
                "io.modelcontextprotocol/clientCapabilities": fc.jsonValue(),
              },
              { requiredKeys: [] },
            ),
            fc.jsonValue(),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  { weight: 3, arbitrary: nearRpc.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string() },
);

const headerValue = fc.oneof(fc.constantFrom(MODERN, "2025-11-25", "tools/call", "echo", "=?base64?ZWNobw==?=", "=?base64?!!?="), fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)));
const headers = fc.record(
  { "mcp-protocol-version": headerValue, "mcp-method": headerValue, "mcp-name": headerValue, "mcp-session-id": headerValue },
  { requiredKeys: [] },
);

async function assertNo5xx(res: Response, what: string) {
  const text = await res.text();
  assert.ok(res.status < 500, `${what} gave ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

test("the MCP endpoint answers arbitrary bodies and headers without a 5xx, under several scenarios", async () => {
  await fc.assert(
    fc.asyncProperty(body, headers, fc.nat(FUZZED.length - 1), async (text, extra, which) => {
      const res = await fetch(mcpUrls[which] as string, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra },
        body: text,
        signal: AbortSignal.timeout(20_000),
      });
      // subscriptions/listen may open a long-lived stream: its status is what matters here.
      if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
        assert.ok(res.status < 500);
        await res.body?.cancel();
        return;
      }
      await assertNo5xx(res, `POST ${FUZZED[which]} ${text.slice(0, 200)}`);
    }),
    { numRuns: 300 },
  );
});

test("POST /api/sessions answers arbitrary JSON with 201 or a 4xx JSON error naming a path", async () => {
  const sessionBody = fc.oneof(
    fc.record({ scenario: fc.oneof(fc.constantFrom("baseline", "script", "errors.http_status_sequence", "nope"), fc.string()), params: fc.jsonValue(), id: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }),
    fc.jsonValue(),
  );
  await fc.assert(
    fc.asyncProperty(sessionBody, async (value) => {
      const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(value) });
      const text = await assertNo5xx(res, `POST /api/sessions ${JSON.stringify(value).slice(0, 200)}`);
      if (res.status === 201) return;
      const error = (JSON.parse(text) as { error: { code: string; message: string; issues?: { path: string; rule: string }[] } }).error;
      assert.equal(typeof error.message, "string");
      if (res.status === 400) assert.ok(error.issues && error.issues.length > 0 && error.issues.every((i) => i.path && i.rule), text);
    }),
    { numRuns: 150 },
  );
});

test("POST /classify answers arbitrary JSON and raw text without a 5xx", async () => {
  const input = fc.oneof(
    fc.jsonValue().map((v) => ({ type: "application/json", text: JSON.stringify(v) })),
    fc.record({ status: fc.integer({ min: 100, max: 599 }), body: fc.oneof(fc.string(), fc.jsonValue()), headers: fc.dictionary(fc.string(), fc.string()) }, { requiredKeys: [] }).map((v) => ({ type: "application/json", text: JSON.stringify(v) })),
    fc.string().map((s) => ({ type: "message/http", text: s })),
    fc.string().map((s) => ({ type: "message/http", text: `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n${s}` })),
  );
  await fc.assert(
    fc.asyncProperty(input, async ({ type, text }) => {
      const res = await fetch(`${server.url}/classify`, { method: "POST", headers: { "content-type": type }, body: text });
      await assertNo5xx(res, `POST /classify (${type}) ${text.slice(0, 200)}`);
    }),
    { numRuns: 150 },
  );
});
