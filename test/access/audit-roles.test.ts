import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";

// The audit log with the admin and viewer tokens set: lines name the admin; only the admin reads them.

const ADMIN = "admin-token-audit-0123456789";
const VIEWER = "viewer-token-audit-0123456789";
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_ADMIN_TOKEN: ADMIN, FAULTLINE_VIEWER_TOKEN: VIEWER });
});
after(() => server?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

test("a change made with the admin token is logged as the admin's, and the admin reads the log", async () => {
  const created = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { ...bearer(ADMIN), "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", id: "by-admin" }) });
  assert.equal(created.status, 201);
  const res = await fetch(`${server.url}/api/audit`, { headers: bearer(ADMIN) });
  assert.equal(res.status, 200);
  const { lines } = (await res.json()) as { lines: Array<{ who: string; action: string; session: string }> };
  assert.deepEqual(lines.map(({ who, action, session }) => ({ who, action, session })), [{ who: "admin", action: "create", session: "by-admin" }]);
});

test("the viewer token gets 403 on GET /api/audit, and no token gets 401", async () => {
  const viewer = await fetch(`${server.url}/api/audit`, { headers: bearer(VIEWER) });
  assert.equal(viewer.status, 403);
  assert.equal(((await viewer.json()) as { error: { code: string } }).error.code, "admin_only");
  const stranger = await fetch(`${server.url}/api/audit`);
  assert.equal(stranger.status, 401);
  await stranger.arrayBuffer();
});
