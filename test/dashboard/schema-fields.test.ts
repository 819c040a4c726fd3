import { test } from "node:test";
import assert from "node:assert/strict";
import { fieldsFromSchema, formatFieldValue } from "../../src/dashboard/schema-fields.ts";

const MAX = 9007199254740991;

test("integers keep their bounds, but not zod's safe-integer limits", () => {
  const [bounded, unbounded] = fieldsFromSchema({
    type: "object",
    properties: { delayMs: { type: "integer", minimum: 0, maximum: 60000, default: 0 }, nth: { type: "integer", minimum: 1, maximum: MAX } },
  });
  assert.deepEqual(bounded, { name: "delayMs", kind: "integer", required: false, default: 0, constraints: ["0–60000"] });
  assert.deepEqual(unbounded?.constraints, ["≥ 1"]);
});

test("an enum becomes a choice, whatever its type", () => {
  const [field] = fieldsFromSchema({ type: "object", properties: { mode: { type: "string", enum: ["form", "url"], default: "form" } } });
  assert.equal(field?.kind, "enum");
  assert.deepEqual(field?.options, ["form", "url"]);
});

test("arrays of numbers and of strings become comma lists", () => {
  const fields = fieldsFromSchema({
    type: "object",
    properties: {
      statusCodes: { type: "array", minItems: 1, maxItems: 100, items: { type: "integer", minimum: 200, maximum: 599 } },
      methods: { type: "array", items: { type: "string", minLength: 1 } },
    },
  });
  assert.deepEqual(fields.map((f) => f.kind), ["list-number", "list-string"]);
  assert.deepEqual(fields[0]?.constraints, ["comma-separated integers (200–599)", "1–100 items"]);
});

test("a union of primitives is one text field; objects, unknowns and other unions are JSON", () => {
  const fields = fieldsFromSchema({
    type: "object",
    required: ["data"],
    properties: {
      retryAfter: { anyOf: [{ type: "integer" }, { type: "string" }] },
      data: {},
      statuses: { type: "object", additionalProperties: { type: "integer" } },
      either: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    },
  });
  assert.deepEqual(fields.map((f) => f.kind), ["scalar", "json", "json", "json"]);
  assert.equal(fields[1]?.required, true);
});

test("a schema that is not an object with properties yields no fields", () => {
  assert.deepEqual(fieldsFromSchema({ type: "string" }), []);
  assert.deepEqual(fieldsFromSchema(null), []);
});

test("values are written back the way the browser script reads them", () => {
  assert.equal(formatFieldValue("list-number", [503, 200]), "503, 200");
  assert.equal(formatFieldValue("enum", "sse"), '"sse"');
  assert.equal(formatFieldValue("json", { a: 1 }), '{\n  "a": 1\n}');
  assert.equal(formatFieldValue("integer", 5), "5");
  assert.equal(formatFieldValue("string", undefined), "");
});
