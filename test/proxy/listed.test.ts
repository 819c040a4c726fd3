import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { useServer } from "../helpers/server.ts";
import { startUpstream, type Upstream } from "../helpers/upstream.ts";
import { createProxied } from "./helpers.ts";

// The session list says which sessions are proxied (the dashboard's sessions table marks them), from the index alone:
// the list stays one request whatever the page holds.

const server = useServer();
let upstream: Upstream;
before(async () => {
  upstream = await startUpstream({ responseMode: "json" });
});
after(() => upstream.close());

async function listed(id: string): Promise<Record<string, unknown> | undefined> {
  const page = (await (await fetch(`${server.url}/api/sessions?limit=100`)).json()) as { sessions: Record<string, unknown>[] };
  return page.sessions.find((s) => s.id === id);
}

test("a proxied session is listed with proxied: true, still after a scenario change, and a plain session without it", async () => {
  const { status, json } = await createProxied(server.url, { scenario: "baseline", upstream: upstream.url });
  assert.equal(status, 201, JSON.stringify(json));
  assert.equal((await listed(json.id))?.proxied, true);
  const changed = await fetch(`${server.url}/api/sessions/${json.id}/scenario`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "errors.tool_error" }) });
  assert.equal(changed.status, 200, await changed.clone().text());
  assert.equal((await listed(json.id))?.proxied, true, "the upstream is fixed for the session's life");

  const plain = (await (await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline" }) })).json()) as { id: string };
  const row = await listed(plain.id);
  assert.ok(row);
  assert.equal("proxied" in row, false);
});
