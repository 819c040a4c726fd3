import { test } from "node:test";
import assert from "node:assert/strict";
import { importClient } from "./served-modules.ts";

type Parsed = { value: unknown } | { error: string };
const { parseValue, formatValue } = await importClient<{
  parseValue: (kind: string, raw: string) => Parsed;
  formatValue: (kind: string, value: unknown) => string;
}>("params.client.js");

test("comma lists of numbers parse to numbers; what is not a number goes to the API as text", () => {
  assert.deepEqual(parseValue("list-number", "503, 503,200"), { value: [503, 503, 200] });
  assert.deepEqual(parseValue("list-number", "503, abc"), { value: [503, "abc"] });
});

test("string lists are split on commas and trimmed", () => {
  assert.deepEqual(parseValue("list-string", " tools/call , tools/list,"), { value: ["tools/call", "tools/list"] });
});

test("a scalar is a number when it looks like one, else text", () => {
  assert.deepEqual(parseValue("scalar", "2"), { value: 2 });
  assert.deepEqual(parseValue("scalar", "Wed, 21 Oct 2026 07:28:00 GMT"), { value: "Wed, 21 Oct 2026 07:28:00 GMT" });
});

test("enum and boolean choices carry JSON", () => {
  assert.deepEqual(parseValue("enum", '"sse"'), { value: "sse" });
  assert.deepEqual(parseValue("boolean", "false"), { value: false });
});

test("a JSON field that does not parse is a local error", () => {
  const parsed = parseValue("json", "{oops");
  assert.ok("error" in parsed && parsed.error.startsWith("Not valid JSON"));
});

test("formatValue is the inverse of parseValue", () => {
  for (const [kind, value] of [["list-number", [1, 2]], ["list-string", ["a", "b"]], ["json", { a: [1] }], ["enum", "x"], ["integer", 3], ["string", "hi"]] as const) {
    assert.deepEqual(parseValue(kind, formatValue(kind, value)), { value });
  }
});
