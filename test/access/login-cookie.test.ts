import { test } from "node:test";
import assert from "node:assert/strict";
import { checkLoginCookie, issueLoginCookie, LOGIN_MAX_AGE_SECONDS, REVOKED_MAX, revokeLoginCookie, revokedCount } from "../../src/access/login-cookie.ts";

// The login cookie's lifetime and its bounded revocation list (finding 9 of issue 27), on the module itself.

const vars = { FAULTLINE_ADMIN_TOKEN: "admin-token-cookie-0123456789" };
const HOUR = 3600_000;

test("a cookie is valid for LOGIN_MAX_AGE_SECONDS (a day) after sign-in, and refused after", async () => {
  assert.equal(LOGIN_MAX_AGE_SECONDS, 24 * 3600);
  const now = Date.now();
  const fresh = await issueLoginCookie(vars, "admin", now - 23 * HOUR);
  assert.equal((await checkLoginCookie(vars, fresh, now))?.role, "admin");
  const stale = await issueLoginCookie(vars, "admin", now - 25 * HOUR);
  assert.equal(await checkLoginCookie(vars, stale, now), undefined);
});

test("a cookie made under another token, or for a role with no token, is refused", async () => {
  const cookie = await issueLoginCookie(vars, "admin");
  assert.equal(await checkLoginCookie({ FAULTLINE_ADMIN_TOKEN: "another-admin-token-0123456789" }, cookie), undefined);
  const withViewer = { ...vars, FAULTLINE_VIEWER_TOKEN: "viewer-token-cookie-0123456789" };
  const viewer = await issueLoginCookie(withViewer, "viewer");
  assert.equal((await checkLoginCookie(withViewer, viewer))?.role, "viewer");
  assert.equal(await checkLoginCookie(vars, viewer), undefined, "once the viewer token is unset, no viewer cookie is valid");
});

test("the revocation list stays within REVOKED_MAX entries, and an overflow never brings a revoked cookie back", async () => {
  const now = Date.now();
  const first = await issueLoginCookie(vars, "admin", now - 2 * HOUR);
  assert.equal(await revokeLoginCookie(vars, first, now), true);
  assert.equal(await checkLoginCookie(vars, first, now), undefined);
  const kept = await issueLoginCookie(vars, "admin", now - HOUR);
  for (let i = 0; i < REVOKED_MAX; i++) await revokeLoginCookie(vars, await issueLoginCookie(vars, "admin", now - HOUR + 1000), now);
  assert.equal(revokedCount(), REVOKED_MAX);
  assert.equal(await checkLoginCookie(vars, first, now), undefined, "dropped from the list, it is older than the watermark");
  assert.equal((await checkLoginCookie(vars, kept, now))?.role, "admin", "a cookie issued after the dropped one stays signed in");
  const after = await issueLoginCookie(vars, "admin", now);
  assert.equal((await checkLoginCookie(vars, after, now))?.role, "admin", "a sign-in after the overflow works");
});
