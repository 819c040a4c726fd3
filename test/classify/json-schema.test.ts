import { test } from "node:test";
import assert from "node:assert/strict";
import { schemaMismatch } from "../../src/classify/index.ts";

// The classifier's outputSchema check (src/classify/json-schema.ts): the keywords it reads, and its bounds.

test("a value of the wanted type and bounds conforms, and each keyword it reads can reject a value", () => {
  const schema = { type: "object", properties: { n: { type: "integer", minimum: 1, maximum: 9 }, s: { type: "string", maxLength: 3 }, a: { type: "array", items: { enum: ["x", "y"] }, maxItems: 2 } }, required: ["n"], additionalProperties: false };
  assert.equal(schemaMismatch({ n: 3, s: "abc", a: ["x", "y"] }, schema), undefined);
  assert.match(schemaMismatch({ n: 3.5 }, schema) ?? "", /\/n is fractional number, the schema wants integer/);
  assert.match(schemaMismatch({ n: 0 }, schema) ?? "", /\/n breaks minimum 1/);
  assert.match(schemaMismatch({ n: 1, s: "abcd" }, schema) ?? "", /\/s breaks maxLength 3/);
  assert.match(schemaMismatch({ n: 1, a: ["z"] }, schema) ?? "", /\/a\/0 is not one of the schema's enum values/);
  assert.match(schemaMismatch({ n: 1, a: ["x", "x", "x"] }, schema) ?? "", /\/a breaks maxItems 2/);
  assert.match(schemaMismatch({}, schema) ?? "", /the root lacks the required property "n"/);
  assert.match(schemaMismatch({ n: 1, other: 1 }, schema) ?? "", /the root has the property "other", which the schema does not allow/);
});

test("keywords it does not read are not checked, so it never rejects what a full validator would accept", () => {
  assert.equal(schemaMismatch("abc", { type: "string", pattern: "^\\d+$" }), undefined);
  assert.equal(schemaMismatch({ a: 1 }, { $ref: "#/$defs/x" }), undefined);
  assert.equal(schemaMismatch(1, true), undefined);
  assert.match(schemaMismatch(1, false) ?? "", /not allowed/);
});

test("a value nested deeper than the walk goes is accepted without a stack overflow, and a huge array costs bounded visits", () => {
  let deep: unknown = "leaf";
  let schema: Record<string, unknown> = { type: "integer" };
  for (let i = 0; i < 5_000; i++) {
    deep = [deep];
    schema = { type: "array", items: schema };
  }
  assert.equal(schemaMismatch(deep, schema), undefined);
  // Past the visit budget the walk stops: the bad item at the end is not reached.
  const many = [...Array.from({ length: 20_000 }, () => 1), "bad"];
  assert.equal(schemaMismatch(many, { type: "array", items: { type: "integer" } }), undefined);
  assert.match(schemaMismatch([1, "bad"], { type: "array", items: { type: "integer" } }) ?? "", /\/1 is string/);
});
