import { after, before, test } from "node:test";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import assert from "node:assert/strict";
import { useServer } from "../helpers/server.ts";
import { call, createProxied, journalWhen } from "./helpers.ts";
import { WHOLE_ANSWER_BYTES } from "../../src/proxy/source.ts";

// Without a fault, a JSON answer within WHOLE_ANSWER_BYTES is read whole and sent in one piece (src/proxy/source.ts,
// pipe); a larger one is copied on as it comes. Either way the client gets the upstream's bytes, exactly.

const server = useServer();
let upstream: Server;
let upstreamUrl: string;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const answer = (id: unknown, text: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
/** An answer of about `bytes` bytes, ASCII, so its length in bytes is its length in characters. */
const large = (id: unknown, bytes: number) => answer(id, "x".repeat(bytes));
/** A JSON answer with one byte that is not UTF-8 (0xff) inside its text. */
const notUtf8 = (id: unknown) => Buffer.concat([Buffer.from(answer(id, "a").replace('"a"', '"a')), Buffer.from([0xff]), Buffer.from('"}]}}')]);

/** Each tools/call's `arguments.case` picks what the upstream sends; its tools/list answers one tool. */
function answerCase(message: Record<string, any>, res: ServerResponse): void {
  const id = message.id;
  if (message.method === "tools/list") {
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } }));
  }
  const which = message.params?.arguments?.case as string;
  res.writeHead(200, { "content-type": "application/json" });
  if (which === "bom") return void res.end(Buffer.concat([BOM, Buffer.from(answer(id, "é, ü and 😀"))]));
  if (which === "not-utf8") return void res.end(notUtf8(id));
  if (which === "large") {
    // Sent in 64 KiB writes, so the proxy's read goes past its bound in the middle of the body.
    const body = Buffer.from(large(id, 3 * WHOLE_ANSWER_BYTES));
    for (let at = 0; at < body.length; at += 65_536) res.write(body.subarray(at, at + 65_536));
    return void res.end();
  }
  if (which === "broken") {
    // Half of the answer, then the connection is dropped: the body ends with an error, not with its end.
    res.write(answer(id, "half").slice(0, 20));
    return void setTimeout(() => res.socket?.destroy(), 50);
  }
  res.end(answer(id, "plain"));
}

before(async () => {
  upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => answerCase(JSON.parse(body) as Record<string, any>, res));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
});
after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

async function proxied(): Promise<{ id: string; mcpUrl: string }> {
  const { status, json } = await createProxied(server.url, { scenario: "baseline", upstream: upstreamUrl });
  assert.equal(status, 201, JSON.stringify(json));
  return { id: json.id as string, mcpUrl: json.mcpUrl as string };
}

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

test("a JSON answer that begins with a byte order mark reaches the client with it, byte for byte", async () => {
  const { mcpUrl } = await proxied();
  const response = await call(mcpUrl, 1, "echo", { case: "bom" });
  assert.equal(response.status, 200);
  assert.deepEqual(await bytesOf(response), Buffer.concat([BOM, Buffer.from(answer(1, "é, ü and 😀"))]));
});

test("a JSON answer whose bytes are not UTF-8 reaches the client as the upstream sent them", async () => {
  const { mcpUrl } = await proxied();
  const response = await call(mcpUrl, 2, "echo", { case: "not-utf8" });
  assert.equal(response.status, 200);
  assert.deepEqual(await bytesOf(response), notUtf8(2));
});

test("a JSON answer three times the size read whole reaches the client whole and in order, and is journalled at its full size", async () => {
  const { id, mcpUrl } = await proxied();
  const response = await call(mcpUrl, 3, "echo", { case: "large" });
  assert.equal(response.status, 200);
  const expected = large(3, 3 * WHOLE_ANSWER_BYTES);
  assert.equal((await bytesOf(response)).toString("utf8"), expected);
  const [entry] = await journalWhen(server.url, id, (entries) => entries.some((e) => e.request.method === "POST"));
  assert.equal(entry?.response.body.bytes, Buffer.byteLength(expected));
});

test("an upstream that drops its connection in the middle of a JSON answer gives the client the bytes it sent, with the upstream's status", async () => {
  const { id, mcpUrl } = await proxied();
  const response = await call(mcpUrl, 4, "echo", { case: "broken" });
  assert.equal(response.status, 200);
  assert.equal(await response.text(), answer(4, "half").slice(0, 20));
  const entries = await journalWhen(server.url, id, (all) => all.some((e) => e.request.method === "POST"));
  assert.equal(entries[0]?.response.body.text, answer(4, "half").slice(0, 20));
});

test("a plain JSON answer is journalled with the text the client got and the upstream's side", async () => {
  const { id, mcpUrl } = await proxied();
  const response = await call(mcpUrl, 5, "echo", { case: "plain" });
  assert.equal(await response.text(), answer(5, "plain"));
  const [entry] = await journalWhen(server.url, id, (entries) => entries.some((e) => e.request.method === "POST"));
  assert.equal(entry?.response.body.text, answer(5, "plain"));
  assert.equal(entry?.proxied?.mode, "forward");
  assert.equal(entry?.proxied?.response?.status, 200);
});
