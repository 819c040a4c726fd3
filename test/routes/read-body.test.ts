import { test } from "node:test";
import assert from "node:assert/strict";
import { readCapped } from "../../src/base/read-body.ts";

// readCapped reads a body declared within the cap natively and counts the bytes of one of undeclared length; either
// way no more than the cap is ever accepted. (Over HTTP the runtime ends a body at its Content-Length; the routes'
// tests send real oversized bodies. These use in-process Requests, where a Content-Length can lie.)

const LIMIT = 16;

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

test("a body whose Content-Length is within the cap is read whole as UTF-8, up to exactly the cap", async () => {
  const text = "h\u00e9llo w\u00f6rld\u2713"; // 16 bytes in UTF-8
  assert.equal(new TextEncoder().encode(text).byteLength, LIMIT);
  assert.equal(await readCapped(post(text, { "content-length": String(LIMIT) }), LIMIT), text);
});

test("a body whose Content-Length is one byte over the cap is refused", async () => {
  assert.equal(await readCapped(post("x".repeat(LIMIT + 1), { "content-length": String(LIMIT + 1) }), LIMIT), undefined);
});

test("a body that declares a length within the cap but carries more is refused, not accepted past the cap", async () => {
  assert.equal(await readCapped(post("x".repeat(LIMIT * 4), { "content-length": "4" }), LIMIT), undefined);
});

test("a body without Content-Length is read chunk by chunk: whole within the cap, refused past it", async () => {
  assert.equal(await readCapped(post(streamOf("h\u00e9l", "lo")), LIMIT), "h\u00e9llo");
  assert.equal(await readCapped(post(streamOf("x".repeat(10), "x".repeat(7))), LIMIT), undefined);
});

test("a request without a body reads as the empty string", async () => {
  assert.equal(await readCapped(new Request("http://127.0.0.1/", { method: "POST" }), LIMIT), "");
});
