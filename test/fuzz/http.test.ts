import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createSession, MODERN, modernMeta, postModern, startServer, type TestServer } from "../helpers/server.ts";

// Fuzzing over HTTP: hostile input of every class thrown at /classify, /api/* and /s/{id}/mcp, with a fixed seed.
// Afterwards: no 5xx a scenario did not intend, every 4xx/5xx with a body is JSON with a message, /health answers,
// and a session nobody fuzzed holds exactly what was sent to it. (Methods workerd does not know, such as LINK or FOO,
// are answered 501 by the runtime before the Worker runs; the odd methods here are those it passes on.)

/** Fixed, so a failure reproduces; FUZZ_SEED picks another fixed seed (.ci/run runs a second one). */
const SEED = Number(process.env.FUZZ_SEED ?? "20261130");
/** Cases per input class (at least 200 each, 2,000 requests in all). */
const CASES = Number(process.env.FUZZ_CASES ?? "200");
const CONCURRENCY = 6;

type Json = Record<string, any>;
interface Attack {
  method: string;
  path: string;
  headers?: [string, string][];
  body?: Uint8Array | string;
}

let server: TestServer;
let fuzzed: { id: string; path: string };
let witness: { id: string; mcpUrl: string };
before(async () => {
  server = await startServer();
  const session = await createSession(server, "baseline");
  fuzzed = { id: session.id, path: new URL(session.mcpUrl).pathname };
  witness = await createSession(server, "baseline");
});
after(() => server?.close());

const MCP_HEADERS: [string, string][] = [
  ["content-type", "application/json"],
  ["accept", "application/json, text/event-stream"],
  ["mcp-protocol-version", MODERN],
];
const encoder = new TextEncoder();

/** Valid JSON-RPC around a hole, so the server's parsing gets past JSON.parse. */
const rpc = (inner: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":${inner}},"_meta":${JSON.stringify(modernMeta())}}}`;
const targets = () => fc.constantFrom(() => fuzzed.path, () => "/classify", () => "/api/sessions");

/** The input classes; each yields attacks (method, path, headers, body). */
const CLASSES: Record<string, fc.Arbitrary<Attack>> = {
  "random bytes": fc.tuple(targets(), fc.uint8Array({ maxLength: 2048 })).map(([path, body]) => ({ method: "POST", path: path(), headers: MCP_HEADERS, body })),
  "wrong content types": fc
    .tuple(targets(), fc.oneof(fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "", "application/json; charset=utf-16", "*/*", "application/json\u00ff"), fc.string({ maxLength: 40 })), fc.jsonValue({ maxDepth: 3 }))
    .map(([path, type, value]) => ({ method: "POST", path: path(), headers: [["content-type", type.replace(/[^\x20-\x7e]/g, "")] as [string, string], ...MCP_HEADERS.slice(1)], body: JSON.stringify(value) ?? "null" })),
  "huge JSON": fc
    // Mostly past the 64 KiB session limit, some around the 1 MiB one.
    .tuple(targets(), fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 60_000, max: 200_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 1_000_000, max: 1_100_000 }) }), fc.boolean())
    .map(([path, size, asString]) => ({ method: "POST", path: path(), headers: MCP_HEADERS, body: asString ? rpc(JSON.stringify("x".repeat(size))) : `[${"1,".repeat(Math.floor(size / 2))}1]` })),
  "deeply nested JSON": fc
    .tuple(targets(), fc.integer({ min: 200, max: 60_000 }), fc.constantFrom("[", '{"a":'))
    .map(([path, depth, open]) => {
      const close = open === "[" ? "]" : "}";
      const nested = `${open.repeat(depth)}1${close.repeat(depth)}`;
      const body = path() === "/api/sessions" ? `{"scenario":"baseline","params":{"data":${nested}}}` : path() === "/classify" ? `{"status":200,"body":${nested}}` : rpc(nested);
      return { method: "POST", path: path(), headers: MCP_HEADERS, body };
    }),
  "invalid UTF-8": fc
    .tuple(targets(), fc.uint8Array({ minLength: 1, maxLength: 16 }).map((b) => b.map((x) => 0x80 | (x & 0x7f))))
    .map(([path, bad]) => {
      const [head, tail] = rpc('"AAAA"').split("AAAA") as [string, string];
      const bytes = new Uint8Array([...encoder.encode(head), ...bad, 0xc3, 0x28, 0xed, 0xa0, 0x80, ...encoder.encode(tail)]);
      return { method: "POST", path: path(), headers: MCP_HEADERS, body: bytes };
    }),
  "bad and duplicated headers": fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.constantFrom("mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "accept", "content-type", "last-event-id", "authorization", "host-ish", "x-forwarded-for", "origin"),
          fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(MODERN, "2025-11-25", "", "=?base64?!!?=", "null", "a".repeat(4000))),
        ),
        { maxLength: 8 },
      ),
      fc.boolean(),
    )
    .map(([pairs, withBody]) => ({
      method: "POST",
      path: fuzzed.path,
      headers: [...MCP_HEADERS, ...pairs.map(([n, v]) => [n, v.replace(/[^\x20-\x7e]/g, "?")] as [string, string])],
      body: withBody ? rpc('"hi"') : "",
    })),
  "odd methods": fc
    .tuple(fc.constantFrom("PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "GET", "PROPFIND", "MKCOL", "COPY", "MOVE", "REPORT"), fc.constantFrom(() => fuzzed.path, () => "/classify", () => "/api/sessions", () => `/api/sessions/${fuzzed.id}/checks`, () => `/api/sessions/${fuzzed.id}/journal`, () => "/api/scenarios", () => "/health"))
    .map(([method, path]) => ({ method, path: path(), headers: [["content-type", "application/json"]], ...(method === "GET" || method === "HEAD" ? {} : { body: "{}" }) })),
  "invalid session ids": fc
    .tuple(fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom("..", "%2e%2e", "a/b", "%00", "x".repeat(5000), "DEFAULT", "🙂", "%ff%fe")), fc.constantFrom("mcp", "api", "journal", "checks", "stream"))
    .map(([raw, where]) => {
      const id = /^[\x21-\x7e]+$/.test(raw) && !raw.includes("?") && !raw.includes("#") ? raw : encodeURIComponent(raw);
      const path = where === "mcp" ? `/s/${id}/mcp` : where === "api" ? `/api/sessions/${id}` : where === "journal" ? `/api/sessions/${id}/journal?format=har` : where === "checks" ? `/api/sessions/${id}/checks` : `/api/sessions/${id}/journal/stream`;
      return where === "mcp" ? { method: "POST", path, headers: MCP_HEADERS, body: rpc('"hi"') } : { method: "GET", path };
    }),
  "API calls": fc
    .tuple(
      fc.constantFrom(() => "/api/sessions", () => `/api/sessions/${fuzzed.id}/journal`, () => `/api/sessions/${fuzzed.id}/checks`, () => "/api/scenarios", () => `/api/sessions/${fuzzed.id}`),
      fc.dictionary(fc.constantFrom("limit", "cursor", "since", "order", "format", "method", "outcome", "x"), fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String)), { maxKeys: 4 }),
      fc.constantFrom("GET", "POST", "PUT"),
      fc.jsonValue({ maxDepth: 4 }),
    )
    .map(([path, query, chosen, value]) => {
      // Changing the fuzzed session's scenario would change what is fuzzed: a PUT to it becomes a GET.
      const method = chosen === "PUT" && path().startsWith(`/api/sessions/${fuzzed.id}`) ? "GET" : chosen;
      return {
        method,
        path: `${path()}?${new URLSearchParams(query)}`,
        headers: [["content-type", "application/json"]] as [string, string][],
        ...(method === "GET" ? {} : { body: JSON.stringify(value) ?? "null" }),
      };
    }),
  "classify inputs": fc
    .oneof(
      fc.record({ status: fc.integer({ min: 0, max: 999 }), headers: fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 30 })), body: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }).map((v) => ({ type: "application/json", text: JSON.stringify(v) })),
      fc.string({ maxLength: 500 }).map((s) => ({ type: "message/http", text: `HTTP/1.1 ${s}` })),
      fc.record({ log: fc.record({ entries: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }) }) }).map((v) => ({ type: "application/json", text: JSON.stringify(v) })),
    )
    .map(({ type, text }) => ({ method: "POST", path: "/classify", headers: [["content-type", type]], body: text })),
};

interface Outcome {
  attack: Attack;
  status: number;
  contentType: string;
  text: string;
}

async function send(attack: Attack): Promise<Outcome> {
  const headers = new Headers();
  for (const [name, value] of attack.headers ?? []) headers.append(name, value);
  const res = await fetch(`${server.url}${attack.path}`, { method: attack.method, headers, ...(attack.body !== undefined ? { body: typeof attack.body === "string" ? attack.body : new Uint8Array(attack.body) } : {}), signal: AbortSignal.timeout(30_000) });
  const contentType = res.headers.get("content-type") ?? "";
  // A stream (the live journal) stays open: its status and type are what matter.
  const text = contentType.includes("text/event-stream") ? (await res.body?.cancel(), "") : await res.text();
  return { attack, status: res.status, contentType, text };
}

/** Runs `attacks` a few at a time. */
async function pool(attacks: Attack[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < attacks.length) {
        const attack = attacks[next++]!;
        out.push(await send(attack));
      }
    }),
  );
  return out;
}

const show = (a: Attack) => `${a.method} ${a.path.slice(0, 120)} ${typeof a.body === "string" ? a.body.slice(0, 120) : `(${a.body?.length ?? 0} bytes)`}`;

function judge(o: Outcome): string | undefined {
  if (o.status >= 500) return `${o.status} for ${show(o.attack)}: ${o.text.slice(0, 200)}`;
  if (o.status < 400 || o.text === "") return undefined;
  let body: Json;
  try {
    body = JSON.parse(o.text) as Json;
  } catch {
    return `${o.status} with a non-JSON body (${o.contentType}) for ${show(o.attack)}: ${o.text.slice(0, 120)}`;
  }
  if (typeof body?.error?.message !== "string" || body.error.message === "") return `${o.status} without error.message for ${show(o.attack)}: ${o.text.slice(0, 200)}`;
  return undefined;
}

const WITNESS_TEXTS = ["first", "second", "third"];

test(`${Object.keys(CLASSES).length} classes of hostile input, ${CASES} cases each, get no unintended 5xx and only JSON errors with a message`, async () => {
  // The witness session gets three known requests before, during and after the fuzz.
  const sendWitness = async (i: number) => (await postModern(witness.mcpUrl, i + 1, "tools/call", { name: "echo", arguments: { text: WITNESS_TEXTS[i] } })).text();
  await sendWitness(0);
  const problems: string[] = [];
  let requests = 0;
  let seed = SEED;
  for (const [name, arbitrary] of Object.entries(CLASSES)) {
    const attacks = fc.sample(arbitrary, { seed: seed++, numRuns: CASES });
    const started = performance.now();
    const outcomes = await pool(attacks);
    console.log(`# ${name}: ${outcomes.length} requests in ${Math.round(performance.now() - started)} ms`);
    requests += outcomes.length;
    for (const o of outcomes) {
      const problem = judge(o);
      if (problem) problems.push(`[${name}] ${problem}`);
    }
    if (name === "huge JSON") await sendWitness(1);
  }
  await sendWitness(2);
  assert.ok(requests >= 2000, `${requests} requests`);
  const byClass = Object.keys(CLASSES).map((name) => problems.filter((p) => p.startsWith(`[${name}]`)).slice(0, 3)).flat();
  assert.deepEqual(byClass, [], `${problems.length} problems`);

  const health = await fetch(`${server.url}/health`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { ok: true });

  let entries: Json[] = [];
  for (let i = 0; i < 100 && entries.length < 3; i++) {
    entries = ((await (await fetch(`${server.url}/api/sessions/${witness.id}/journal?limit=100`)).json()) as { entries: Json[] }).entries;
    if (entries.length < 3) await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(
    entries.map((e) => JSON.parse(e.request.body.text).params.arguments.text),
    WITNESS_TEXTS,
    "the witness session's journal holds exactly its own three requests",
  );
});
