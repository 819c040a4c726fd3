import { test } from "node:test";
import assert from "node:assert/strict";
import { alarmDecision, DEFAULT_SESSION_TTL_HOURS, sessionTtlMs, stampGapMs } from "../../src/session/idle-ttl.ts";

const HOUR = 3_600_000;

test("FAULTLINE_SESSION_TTL_HOURS takes fractions and falls back to 168 hours on a missing, zero, negative or non-numeric value", () => {
  assert.equal(sessionTtlMs({ FAULTLINE_SESSION_TTL_HOURS: "0.0005" }), 1_800);
  assert.equal(sessionTtlMs({ FAULTLINE_SESSION_TTL_HOURS: "24" }), 24 * HOUR);
  for (const value of [undefined, "", "0", "-1", "soon", "Infinity"]) {
    assert.equal(sessionTtlMs({ FAULTLINE_SESSION_TTL_HOURS: value }), DEFAULT_SESSION_TTL_HOURS * HOUR, String(value));
  }
});

test("the stored last-use stamp lags by a tenth of the TTL at most, and never by more than an hour", () => {
  assert.equal(stampGapMs(10 * HOUR), HOUR);
  assert.equal(stampGapMs(168 * HOUR), HOUR);
  assert.equal(stampGapMs(1_800), 180);
});

test("the alarm deletes only once the last use seen in memory is a whole TTL old, and otherwise comes back a TTL after it", () => {
  const ttl = 10 * HOUR;
  assert.deepEqual(alarmDecision(100 * HOUR, ttl, { inMemoryMs: 95 * HOUR, storedMs: 91 * HOUR, createdMs: 0 }), { expire: false, nextAlarmMs: 105 * HOUR });
  assert.deepEqual(alarmDecision(105 * HOUR, ttl, { inMemoryMs: 95 * HOUR, storedMs: 91 * HOUR, createdMs: 0 }), { expire: true });
});

test("without a use in memory the stored stamp counts as lagging by the full gap, so eviction never shortens the TTL", () => {
  const ttl = 10 * HOUR;
  // Stamped at 90 h; a use up to 91 h may have gone unstamped, so the session is kept until 101 h.
  assert.deepEqual(alarmDecision(100.5 * HOUR, ttl, { storedMs: 90 * HOUR, createdMs: 0 }), { expire: false, nextAlarmMs: 101 * HOUR });
  assert.deepEqual(alarmDecision(101 * HOUR, ttl, { storedMs: 90 * HOUR, createdMs: 0 }), { expire: true });
  // A session stored before stamps existed counts from its creation.
  assert.deepEqual(alarmDecision(5 * HOUR, ttl, { createdMs: 0 }), { expire: false, nextAlarmMs: 11 * HOUR });
});
