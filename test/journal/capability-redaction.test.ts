import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { MODERN, modernMeta, startServer, type TestServer } from "../helpers/server.ts";
import { setTimeout as sleep } from "node:timers/promises";
import type { JournalEntry } from "../../src/journal/entry.ts";

// Issue 27, finding 6: with capability URLs on (FAULTLINE_ADMIN_TOKEN), a 401's WWW-Authenticate names the session's
// protected-resource metadata at its capability URL. The client must get it; the journal, its JSONL and HAR exports
// and its live stream must not hold the secret.

const ADMIN = "admin-token-0123456789";
const auth = { authorization: `Bearer ${ADMIN}` };
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_ADMIN_TOKEN: ADMIN });
});
after(() => server?.close());

test("an auth session's 401 names its capability URL to the client, and its journal entry, JSONL, HAR and live stream hide the secret", async () => {
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ scenario: "auth.unauthorized" }) });
  assert.equal(created.status, 201, await created.clone().text());
  const { id, mcpUrl } = (await created.json()) as { id: string; mcpUrl: string };
  const secret = new URL(mcpUrl).pathname.match(/^\/s\/[^.]+\.([^/]+)\/mcp$/)?.[1];
  assert.ok(secret, mcpUrl);

  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } }),
  });
  assert.equal(res.status, 401);
  const challenge = res.headers.get("www-authenticate") ?? "";
  assert.ok(challenge.includes(`/s/${id}.${secret}/mcp`), `the client is told the capability URL: ${challenge}`);
  await res.text();

  const entry = await firstEntry(id);
  assert.equal(entry!.response.status, 401);
  assert.ok(entry!.response.headers["www-authenticate"]!.includes(`/s/${id}.[redacted]/mcp`), entry!.response.headers["www-authenticate"]);
  const exports: Record<string, string> = {
    journal: JSON.stringify(entry),
    jsonl: await (await fetch(`${server.url}/api/sessions/${id}/journal?format=jsonl`, { headers: auth })).text(),
    har: await (await fetch(`${server.url}/api/sessions/${id}/journal?format=har`, { headers: auth })).text(),
    live: await liveFirstEntry(id),
  };
  for (const [name, text] of Object.entries(exports)) {
    assert.ok(text.includes(`${id}.[redacted]`), `${name} holds the redacted URL: ${text.slice(0, 300)}`);
    assert.ok(!text.includes(secret), `${name} holds no capability secret: ${text.slice(Math.max(0, text.indexOf(secret) - 200), text.indexOf(secret) + 50)}`);
  }
});

/** The session's first journal entry, once it is stored. */
async function firstEntry(id: string): Promise<JournalEntry | undefined> {
  for (let tries = 0; tries < 100; tries++) {
    const res = await fetch(`${server.url}/api/sessions/${id}/journal`, { headers: auth });
    assert.equal(res.status, 200);
    const { entries } = (await res.json()) as { entries: JournalEntry[] };
    if (entries.length > 0) return entries[0];
    await sleep(50);
  }
  throw new Error("nothing was journalled");
}

/** The live stream's text up to its first entry. */
async function liveFirstEntry(id: string): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/sessions/${id}/journal/stream`, { headers: { ...auth, accept: "text/event-stream" }, signal: controller.signal });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("event: entry")) text += decoder.decode((await reader.read()).value);
  while (!/event: entry\ndata: .*\n\n/.test(text)) text += decoder.decode((await reader.read()).value);
  controller.abort();
  return text;
}
