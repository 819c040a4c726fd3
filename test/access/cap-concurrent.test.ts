import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type TestServer } from "../helpers/server.ts";

// FAULTLINE_MAX_SESSIONS under concurrent creates, on the real server with a cap of 4: the index checks the count
// and lists the new session in one Durable Object call, so no burst gets past the cap.

const CAP = 4;
let server: TestServer;
before(async () => {
  server = await startServer({ FAULTLINE_MAX_SESSIONS: String(CAP) });
});
after(() => server?.close());

const json = { "content-type": "application/json" };

async function listed(): Promise<string[]> {
  const res = await fetch(`${server.url}/api/sessions?limit=1000`);
  return ((await res.json()) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id);
}

/** Two bursts of CAP creates each, fired together; the statuses counted. */
async function twoBursts(round: number): Promise<Map<number, number>> {
  const burst = (b: number) =>
    Array.from({ length: CAP }, async (_, k) => {
      const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", id: `r${round}-b${b}-${k}` }) });
      await res.arrayBuffer();
      return res.status;
    });
  const statuses = await Promise.all([...burst(0), ...burst(1)]);
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return counts;
}

test("two concurrent bursts of cap-many creates make exactly cap sessions, the rest get 429, in every round", async () => {
  for (let round = 0; round < 3; round++) {
    const counts = await twoBursts(round);
    assert.deepEqual([...counts].sort(), [[201, CAP], [429, CAP]], `round ${round}`);
    const ids = await listed();
    assert.equal(ids.length, CAP, `round ${round}: ${ids.join(", ")}`);
    for (const id of ids) {
      const res = await fetch(`${server.url}/api/sessions/${id}`);
      assert.equal(res.status, 200, `the listed session ${id} exists`);
      assert.equal((await fetch(`${server.url}/api/sessions/${id}`, { method: "DELETE" })).status, 204);
    }
  }
});

test("a create refused by the cap, or by a taken id, leaves the list as it was", async () => {
  const first = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", id: "taken" }) });
  assert.equal(first.status, 201);
  const again = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: json, body: JSON.stringify({ scenario: "baseline", id: "taken" }) });
  assert.equal(again.status, 409);
  assert.equal(((await again.json()) as { error: { code: string } }).error.code, "session_exists");
  assert.deepEqual(await listed(), ["taken"]);
});
