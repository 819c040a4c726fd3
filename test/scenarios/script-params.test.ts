import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "../helpers/app.ts";
import { counterState, facts, NOW } from "../helpers/decide.ts";
import { findScenario } from "../../scenarios/index.ts";

// The script scenario's params as the sessions API refuses them, and its seeded probability, in process. What a
// client sees under a script is in script.e2e.ts; each rule kind's decisions are in decide/script.ts.

type Json = Record<string, any>;

async function validationIssues(params: Json): Promise<{ message: string; issues: Json[] }> {
  const res = await request("/api/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "script", params }) });
  const body = (await res.json()) as Json;
  assert.equal(res.status, 400, JSON.stringify(body));
  assert.equal(body.error.code, "invalid_request");
  return body.error;
}

const nth = (n: number, fault: Json) => ({ match: { method: "tools/call", nth: n }, fault });

test("script's seeded probability draws the same pattern for two sessions, with both hits and misses", () => {
  const script = findScenario("script");
  const params = script?.params.parse({ rules: [{ match: { method: "tools/call", probability: 0.5, seed: 42 }, fault: { kind: "http_status", status: 503 } }] });
  const pattern = () => {
    const count = counterState();
    let drawn = "";
    for (let i = 0; i < 16; i++) {
      const request = facts();
      drawn += script?.decide?.({ params, request, counters: count(request), now: NOW }) ? "x" : ".";
    }
    return drawn;
  };
  const first = pattern();
  assert.equal(pattern(), first);
  assert.match(first, /x/);
  assert.match(first, /\./);
});

test("a script rule with an unknown fault kind is refused with 400 naming params.rules.2.fault.kind", async () => {
  const error = await validationIssues({ rules: [nth(1, { kind: "tool_error" }), nth(2, { kind: "tool_error" }), nth(3, { kind: "explode" })] });
  assert.equal(error.issues[0]?.path, "params.rules.2.fault.kind");
  assert.match(error.message, /^params\.rules\.2\.fault\.kind: /);
});

test("a script rule with an out-of-range fault field is refused with 400 naming that field", async () => {
  const error = await validationIssues({ rules: [nth(1, { kind: "http_status", status: 200 })] });
  assert.equal(error.issues[0]?.path, "params.rules.0.fault.status");
});

test("a script rule with a misspelt match key is refused with 400 naming the key", async () => {
  const error = await validationIssues({ rules: [{ match: { method: "tools/call", nht: 1 }, fault: { kind: "tool_error" } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.match.nht");
  assert.equal(error.issues[0]?.rule, "unrecognized_keys");
});

test("a script rule with both nth and every is refused with 400", async () => {
  const error = await validationIssues({ rules: [{ match: { nth: 1, every: 2 }, fault: { kind: "tool_error" } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.match");
  assert.match(error.issues[0]?.message, /at most one of nth, from and every/);
});

test("a script rule without a fault is refused with 400 naming params.rules.0.fault", async () => {
  const error = await validationIssues({ rules: [{ match: { nth: 1 } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.fault");
});

test("a script probability above 1 is refused with 400 naming params.rules.0.match.probability", async () => {
  const error = await validationIssues({ rules: [{ match: { probability: 1.5 }, fault: { kind: "tool_error" } }] });
  assert.equal(error.issues[0]?.path, "params.rules.0.match.probability");
});
