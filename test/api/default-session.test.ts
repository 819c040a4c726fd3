import { test } from "node:test";
import assert from "node:assert/strict";
import { useServer } from "../helpers/server.ts";

// The docs say /mcp is the `default` session: it is there to look at and to set up before the first MCP request.
const server = useServer();

test("the default session answers on the API, its checks and its page before any MCP request, and its scenario can be set first", async () => {
  const view = await fetch(`${server.url}/api/sessions/default`);
  assert.equal(view.status, 200, await view.clone().text());
  assert.equal(((await view.json()) as { scenario: string }).scenario, "baseline");
  const checks = await fetch(`${server.url}/api/sessions/default/checks`);
  assert.equal(checks.status, 200);
  assert.deepEqual(((await checks.json()) as { checks: unknown[] }).checks, []);
  const page = await fetch(`${server.url}/sessions/default`);
  assert.equal(page.status, 200);
  await page.text();
  const set = await fetch(`${server.url}/api/sessions/default/scenario`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario: "errors.tool_error" }),
  });
  assert.equal(set.status, 200, await set.clone().text());
  const listed = (await (await fetch(`${server.url}/api/sessions`)).json()) as { sessions: { id: string; scenario: string }[] };
  assert.equal(listed.sessions.find((s) => s.id === "default")?.scenario, "errors.tool_error");
});

test("any other unknown id still gets 404, and no session is made for it", async () => {
  const res = await fetch(`${server.url}/api/sessions/not-a-session`);
  assert.equal(res.status, 404);
  await res.text();
  const listed = (await (await fetch(`${server.url}/api/sessions`)).json()) as { sessions: { id: string }[] };
  assert.ok(!listed.sessions.some((s) => s.id === "not-a-session"));
});
