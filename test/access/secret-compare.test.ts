import { test } from "node:test";
import assert from "node:assert/strict";
import { equalBytes, secretsEqual } from "../../src/base/secret-compare.ts";

// The constant-time comparison's code path (its timing is not measured: the machine is shared and noisy).

test("secretsEqual is true for the same secret and false for a prefix, an extension, a one-letter change or an empty string", async () => {
  assert.equal(await secretsEqual("s3cret-token", "s3cret-token"), true);
  for (const other of ["s3cret-toke", "s3cret-token!", "s3cret-tokeN", "", "S3cret-token"]) {
    assert.equal(await secretsEqual(other, "s3cret-token"), false, other);
  }
});

test("equalBytes compares every byte and refuses different lengths", () => {
  assert.equal(equalBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
  assert.equal(equalBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
  assert.equal(equalBytes(new Uint8Array([0, 2, 3]), new Uint8Array([1, 2, 3])), false);
  assert.equal(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3])), false);
});
