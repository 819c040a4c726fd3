import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { findScenario } from "../../scenarios/index.ts";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// GET /checks says whether the scenario's trouble reached the client, beside the checks: a list without a check must
// tell "the fault never fired" from "it fired and nothing judged what followed".
const server = useServer();

type Exercise = { exercisedBy: string; fired: number; faultEntries: number[]; reading: string };

async function exerciseAfter(id: string, entries: number): Promise<Exercise> {
  for (let tries = 0; tries < 200; tries++) {
    const journal = (await (await fetch(`${server.url}/api/sessions/${id}/journal`)).json()) as { entries: unknown[] };
    if (journal.entries.length >= entries) break;
    await sleep(25);
  }
  const body = (await (await fetch(`${server.url}/api/sessions/${id}/checks`)).json()) as { exercise: Exercise };
  return body.exercise;
}

const call = (mcpUrl: string, id: number, name: string, args: Record<string, unknown>) => postModern(mcpUrl, id, "tools/call", { name, arguments: args }).then((r) => r.text());

test("/checks counts the exchanges that carried the scenario's fault and says where it fired and what followed", async () => {
  const session = await createSession(server, "errors.tool_error", { nth: 1, tools: ["place_order"] });
  await call(session.mcpUrl, 1, "place_order", { item: "book", quantity: 1 });
  await call(session.mcpUrl, 2, "echo", { text: "after" });
  const exercise = await exerciseAfter(session.id, 2);
  assert.equal(exercise.exercisedBy, "fault");
  assert.equal(exercise.fired, 1);
  assert.equal(exercise.faultEntries.length, 1);
  assert.match(exercise.reading, /^the fault fired 1 time \(entry \d+; first tools\/call place_order got tool_error: .+\), and after it the client sent tools\/call echo$/);
});

test("/checks says the fault never fired, naming what the client sent, when the scenario faulted nothing", async () => {
  const session = await createSession(server, "errors.tool_error", { nth: 1 });
  await postModern(session.mcpUrl, 1, "tools/list").then((r) => r.text());
  const exercise = await exerciseAfter(session.id, 1);
  assert.equal(exercise.fired, 0);
  assert.deepEqual(exercise.faultEntries, []);
  assert.equal(exercise.reading, "the fault never fired: the client sent 1 request (tools/list), and the scenario faulted none of them");
});

test("a session's creation answer and the catalogue carry the scenario's judging, as the registry declares it", async () => {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "pagination.bad_cursor" }) });
  const created = (await res.json()) as { judging: unknown };
  assert.deepEqual(created.judging, findScenario("pagination.bad_cursor")!.judging);
  const catalogue = (await (await fetch(`${server.url}/api/scenarios`)).json()) as { scenarios: { id: string; judging: unknown }[] };
  for (const entry of catalogue.scenarios) assert.deepEqual(entry.judging, findScenario(entry.id)!.judging, entry.id);
});

test("an alias's session is judged as the scenario that answers it", async () => {
  const res = await fetch(`${server.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "timeout.init_hang" }) });
  const created = (await res.json()) as { judging?: { checks: string[] } };
  assert.ok((created.judging?.checks.length ?? 0) > 0, JSON.stringify(created));
});

test("/checks says a scenario whose trouble lies beyond its 401 was not reached while its reachedBy check is absent", async () => {
  const session = await createSession(server, "auth.server_faults", { endpoint: "token", fault: "5xx", times: 1 });
  const unauthorized = await postModern(session.mcpUrl, 1, "tools/list");
  await unauthorized.text();
  assert.equal(unauthorized.status, 401);
  const exercise = (await exerciseAfter(session.id, 1)) as Exercise & { reached?: boolean };
  assert.equal(exercise.fired, 1);
  assert.equal(exercise.reached, false);
  assert.match(exercise.reading, /but auth-server-retry-bounded, which would show the scenario's own trouble reached the client, is absent$/);
});
