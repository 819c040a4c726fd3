import { test } from "node:test";
import assert from "node:assert/strict";
import { createSession, postModern, useServer } from "../helpers/server.ts";

// Many requests at once on one session: the counters behind a status sequence and the journal's seq stay exact,
// and another session driven at the same time is untouched.

const server = useServer();
type Json = Record<string, any>;

async function journal(id: string, count: number): Promise<Json[]> {
  let entries: Json[] = [];
  for (let i = 0; i < 300 && entries.length < count; i++) {
    entries = ((await (await fetch(`${server.url}/api/sessions/${id}/journal?limit=1000`)).json()) as { entries: Json[] }).entries;
    if (entries.length < count) await new Promise((r) => setTimeout(r, 100));
  }
  return entries;
}

test("500 concurrent POSTs to a 99 × 503 then 200 session get exactly 99 answers of 503, and 500 entries with gap-free seq", async () => {
  const busy = await createSession(server, "errors.http_status_sequence", { statusCodes: [...Array(99).fill(503), 200] });
  const quiet = await createSession(server, "baseline");
  const call = (url: string, id: number, text: string) =>
    postModern(url, id, "tools/call", { name: "echo", arguments: { text } }).then(async (res) => ({ status: res.status, body: await res.text() }));

  const [answers, quietAnswers] = await Promise.all([
    Promise.all(Array.from({ length: 500 }, (_, i) => call(busy.mcpUrl, i + 1, `busy ${i + 1}`))),
    Promise.all(Array.from({ length: 50 }, (_, i) => call(quiet.mcpUrl, i + 1, `quiet ${i + 1}`))),
  ]);

  const statuses = answers.map((a) => a.status);
  const histogram = JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((t) => t === s).length])));
  const odd = answers.find((a) => a.status !== 200 && a.status !== 503);
  assert.equal(statuses.filter((s) => s === 503).length, 99, histogram);
  assert.equal(statuses.filter((s) => s === 200).length, 401, `${histogram} ${odd?.body.slice(0, 300) ?? ""}`);

  const entries = await journal(busy.id, 500);
  assert.equal(entries.length, 500);
  assert.deepEqual(entries.map((e) => e.seq), Array.from({ length: 500 }, (_, i) => i + 1));
  assert.equal(entries.filter((e) => e.response.status === 503).length, 99);
  const texts = new Set(entries.map((e) => JSON.parse(e.request.body.text).params.arguments.text));
  assert.equal(texts.size, 500, "every request journalled once");

  assert.ok(quietAnswers.every((a) => a.status === 200), "the other session only ever answers 200");
  const quietEntries = await journal(quiet.id, 50);
  assert.equal(quietEntries.length, 50);
  assert.deepEqual(quietEntries.map((e) => e.seq), Array.from({ length: 50 }, (_, i) => i + 1));
  assert.ok(quietEntries.every((e) => /^quiet \d+$/.test(JSON.parse(e.request.body.text).params.arguments.text)), "no busy request reached the quiet session");
});
