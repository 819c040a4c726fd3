import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";
import { tokensFor } from "./flow.ts";

// With FAULTLINE_ADMIN_TOKEN set, the OAuth endpoints and their metadata stay public: an MCP client holds only its
// session's MCP URL (src/access/admin-auth.ts isProtected lists /api/ and the pages, nothing under /oauth or /.well-known).
const ADMIN = "admin-secret-for-oauth-tests";
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_ADMIN_TOKEN: ADMIN });
});
after(() => server.close());

test("with an admin token set, a client completes the OAuth flow without it", async () => {
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ scenario: "auth.unauthorized" }) });
  assert.equal(created.status, 201);
  const { mcpUrl } = (await created.json()) as { mcpUrl: string };
  assert.equal((await fetch(`${server.url}/.well-known/oauth-protected-resource${new URL(mcpUrl).pathname}`)).status, 200);
  const t = await tokensFor(mcpUrl);
  assert.ok(t.access_token);
});
