import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Check } from "../../src/checks/index.ts";
import { SessionExpiredVariantSchema, type SessionExpiredVariant } from "../../src/faults/schema.ts";
import { createSession, useServer } from "../helpers/server.ts";

// session.expire_after's variants against the official v1 and v2 (legacy mode) clients over loopback: a client that
// re-initializes after the expiry passes session-reinitialized, one that keeps the dead id fails it, for every variant
// that soundly says "session gone"; a 409 is not judged. The non-idempotent call the expiry refused ran nowhere, so
// sending it again in the new session passes non-idempotent-not-replayed.

const server = useServer();
type Json = Record<string, any>;

interface Sdk {
  label: string;
  connect(mcpUrl: string): Promise<{ callTool(call: Json): Promise<unknown>; close(): Promise<void> }>;
}

const SDKS: Sdk[] = [
  {
    label: "v1",
    connect: async (mcpUrl) => {
      const client = new ClientV1({ name: "expiry-v1", version: "0.0.0" });
      await client.connect(new TransportV1(new URL(mcpUrl)));
      return client;
    },
  },
  {
    label: "v2 legacy",
    connect: async (mcpUrl) => {
      const client = new ClientV2({ name: "expiry-v2", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" } });
      await client.connect(new TransportV2(new URL(mcpUrl)));
      return client;
    },
  },
];

const ORDER = { name: "place_order", arguments: { item: "tea", quantity: 2 } };
/** What the classifier advises for each answer, and whether session-reinitialized reads it as a session gone. */
const EXPECTED: Record<SessionExpiredVariant, { status: number; decision: string; judged: boolean }> = {
  not_found: { status: 404, decision: "reinitialize", judged: true },
  not_found_32001: { status: 404, decision: "reinitialize", judged: true },
  bad_request_no_valid_session: { status: 400, decision: "reinitialize", judged: true },
  unauthorized_session_not_found: { status: 401, decision: "reinitialize", judged: true },
  gone: { status: 410, decision: "reinitialize", judged: true },
  conflict: { status: 409, decision: "do-not-retry", judged: false },
  html_page: { status: 404, decision: "reinitialize", judged: true },
  empty_body: { status: 404, decision: "reinitialize", judged: true },
};

/** The journal once it holds `count` POSTs (each is journalled after its body ends), and the checks over it. */
async function journalled(sessionId: string, count: number): Promise<{ posts: Json[]; checks: Check[] }> {
  for (let tries = 0; ; tries++) {
    const entries = ((await (await fetch(`${server.url}/api/sessions/${sessionId}/journal?limit=1000`)).json()) as Json).entries as Json[];
    const posts = entries.filter((e) => e.request.method === "POST");
    if (posts.length >= count) {
      const checks = ((await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as Json).checks as Check[];
      return { posts, checks };
    }
    if (tries > 100) throw new Error(`the journal has ${posts.length} POSTs, not ${count}`);
    await sleep(50);
  }
}

const find = (checks: Check[], id: string) => checks.find((c) => c.id === id);

for (const sdk of SDKS) {
  for (const variant of SessionExpiredVariantSchema.options) {
    const expected = EXPECTED[variant];

    test(`${sdk.label}: the ${variant} expiry (${expected.status}) is advised ${expected.decision}, and a client that keeps the dead id ${expected.judged ? "fails session-reinitialized" : "is not judged by it"}`, async () => {
      const session = await createSession(server, "session.expire_after", { requests: 1, variant });
      const client = await sdk.connect(session.mcpUrl);
      try {
        await assert.rejects(client.callTool(ORDER));
        await assert.rejects(client.callTool({ name: "echo", arguments: { text: "again" } }));
      } finally {
        await client.close().catch(() => undefined);
      }
      // initialize, notifications/initialized, the expired call, the call on the dead id.
      const { posts, checks } = await journalled(session.id, 4);
      const expiredEntry = posts.find((e) => e.fault?.kind === "session_expired");
      assert.equal(expiredEntry?.response.status, expected.status);
      assert.equal(expiredEntry?.verdict.retry.decision, expected.decision, expiredEntry?.verdict.retry.reason);
      const check = find(checks, "session-reinitialized");
      if (expected.judged) {
        assert.equal(check?.status, "fail", check?.message);
        assert.match(check?.message ?? "", /kept sending the dead Mcp-Session-Id/);
      } else {
        assert.equal(check, undefined, "a 409 does not say the session ended");
      }
    });

    if (!expected.judged) continue;
    test(`${sdk.label}: after the ${variant} expiry, a client that connects again passes session-reinitialized, and its resend of the refused order passes non-idempotent-not-replayed`, async () => {
      // Two requests per MCP session: notifications/initialized and one call, so the new session's order goes through.
      const session = await createSession(server, "session.expire_after", { requests: 2, variant });
      const first = await sdk.connect(session.mcpUrl);
      await first.callTool({ name: "echo", arguments: { text: "first" } });
      await assert.rejects(first.callTool(ORDER));
      await first.close().catch(() => undefined);
      const second = await sdk.connect(session.mcpUrl);
      try {
        await second.callTool(ORDER);
      } finally {
        await second.close().catch(() => undefined);
      }
      // initialize, initialized, echo, the expired order; initialize, initialized, the order on the new session.
      const { checks } = await journalled(session.id, 7);
      const reinit = find(checks, "session-reinitialized");
      assert.equal(reinit?.status, "pass", reinit?.message);
      const replay = find(checks, "non-idempotent-not-replayed");
      assert.equal(replay?.status, "pass", replay?.message);
      assert.match(replay?.message ?? "", /the tool never ran the first time/);
    });
  }
}
