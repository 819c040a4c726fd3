import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Check } from "../../src/checks/index.ts";
import { journalOf } from "../helpers/journal.ts";
import { createSession, postModern, startServer, type TestServer } from "../helpers/server.ts";

// intermediary.proxy under the response deadline (FAULTLINE_MAX_RESPONSE_SECONDS=1): an idle window past it ends at
// the deadline like any other response, and a client that waited that long fails timeout-client-bounded; a window
// within it sends the page, which judges nothing of the client's timeout (info).

let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_MAX_RESPONSE_SECONDS: "1" });
});
after(() => server.close());

const ECHO = { name: "echo", arguments: { text: "hi" } };

async function boundedCheck(sessionId: string): Promise<Check> {
  await journalOf(server.url, sessionId, 1);
  const { checks } = (await (await fetch(`${server.url}/api/sessions/${sessionId}/checks`)).json()) as { checks: Check[] };
  const found = checks.find((c) => c.id === "timeout-client-bounded");
  assert.ok(found, JSON.stringify(checks));
  return found;
}

test("an idle window past the response deadline ends at the deadline, and a client that waited for it fails timeout-client-bounded", async () => {
  const { id, mcpUrl } = await createSession({ url: server.url }, "intermediary.proxy", { preset: "cloudflare_524", idleMs: 30_000, workMs: 60_000 });
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO);
  assert.equal(res.status, 200, "cut at the deadline: no page, an empty answer");
  assert.equal(await res.text(), "");
  const [entry] = await journalOf(server.url, id, 1);
  assert.equal(entry?.response.cutByDeadline, true);
  const bounded = await boundedCheck(id);
  assert.equal(bounded.status, "fail", bounded.message);
  assert.match(bounded.message, /proxy's idle window of 30000 ms.*response deadline cut it/);
});

test("an idle window within the deadline sends the page, which tells nothing of the client's own timeout: timeout-client-bounded is info", async () => {
  const { id, mcpUrl } = await createSession({ url: server.url }, "intermediary.proxy", { preset: "nginx_504", idleMs: 200, workMs: 60_000 });
  const res = await postModern(mcpUrl, 1, "tools/call", ECHO);
  assert.equal(res.status, 504);
  await res.text();
  const bounded = await boundedCheck(id);
  assert.equal(bounded.status, "info", bounded.message);
});

for (const preset of ["headers_withheld", "sse_buffered"] as const) {
  test(`${preset} held past the response deadline ends at the deadline, and a client that waited for it fails timeout-client-bounded`, async () => {
    const { id, mcpUrl } = await createSession({ url: server.url }, "intermediary.proxy", { preset, workMs: 30_000, intervalMs: 100 });
    const res = await postModern(mcpUrl, 1, "tools/call", ECHO, { meta: { progressToken: "p" } });
    assert.equal(res.status, 200);
    assert.doesNotMatch(await res.text(), /"result"/, "nothing of the answer: the deadline came first");
    const [entry] = await journalOf(server.url, id, 1);
    assert.equal(entry?.response.cutByDeadline, true);
    const bounded = await boundedCheck(id);
    assert.equal(bounded.status, "fail", bounded.message);
    assert.match(bounded.message, /proxy's buffering of 30000 ms.*response deadline cut it/);
  });
}
