import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { utf8Length } from "../../src/journal/capture.ts";

// The journal records a body's size in bytes from its text, without encoding it (issue 12): it must be what
// TextEncoder would give, for any text, lone surrogates included (encoded as U+FFFD, 3 bytes).

const encoder = new TextEncoder();

test("a text's UTF-8 length is what TextEncoder encodes, for ASCII, two-, three- and four-byte characters", () => {
  for (const text of ["", "abc", "é", "€", "😀", "a😀b€é", "\ud800", "\udc00x", "\ud800\ud800", "x\ud83d"]) {
    assert.equal(utf8Length(text), encoder.encode(text).byteLength, JSON.stringify(text));
  }
});

test("a text's UTF-8 length is what TextEncoder encodes, for any string of UTF-16 code units", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 8 }), (text, surrogates) => {
      const mixed = text + surrogates + text;
      assert.equal(utf8Length(mixed), encoder.encode(mixed).byteLength);
    }),
    { numRuns: 2_000 },
  );
});
