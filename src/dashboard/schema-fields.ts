/**
 * Turns a scenario's params JSON Schema (as `z.toJSONSchema` writes it) into form fields. Pure: no DOM, no runtime.
 * Each kind says how the browser script reads the control back (src/dashboard/client/params.client.js).
 */
export type FieldKind = "integer" | "number" | "string" | "enum" | "boolean" | "list-number" | "list-string" | "scalar" | "json";

export type EnumValue = string | number | boolean | null;

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  default?: unknown;
  /** The choices of an enum, in schema order. */
  options?: EnumValue[];
  /** Constraints worth telling a person, e.g. "200–599", "1–100 items". */
  constraints: string[];
}

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** Bounds at the safe-integer limits are zod's way of saying "any integer": not worth showing. */
const meaningful = (n: unknown): n is number => typeof n === "number" && Math.abs(n) < Number.MAX_SAFE_INTEGER;

function range(schema: Schema, low: string, high: string, unit = ""): string | undefined {
  const min = meaningful(schema[low]) ? schema[low] : undefined;
  const max = meaningful(schema[high]) ? schema[high] : undefined;
  if (min !== undefined && max !== undefined) return `${min}–${max}${unit}`;
  if (min !== undefined) return `≥ ${min}${unit}`;
  if (max !== undefined) return `≤ ${max}${unit}`;
  return undefined;
}

const typeOf = (schema: Schema): string | undefined => (typeof schema.type === "string" ? schema.type : undefined);

function enumOf(schema: Schema): EnumValue[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as EnumValue[];
  if ("const" in schema) return [schema.const as EnumValue];
  return undefined;
}

function kindOf(schema: Schema, constraints: string[]): { kind: FieldKind; options?: EnumValue[] } {
  const options = enumOf(schema);
  if (options) return { kind: "enum", options };
  const type = typeOf(schema);
  if (type === "integer" || type === "number") {
    const bounds = range(schema, "minimum", "maximum");
    if (bounds) constraints.push(bounds);
    return { kind: type };
  }
  if (type === "string") {
    const length = range(schema, "minLength", "maxLength", " characters");
    if (length && length !== "≥ 1 characters") constraints.push(length);
    if (typeof schema.pattern === "string") constraints.push(`matches ${schema.pattern}`);
    return { kind: "string" };
  }
  if (type === "boolean") return { kind: "boolean" };
  if (type === "array" && isObject(schema.items)) {
    const itemType = typeOf(schema.items);
    const items = range(schema, "minItems", "maxItems", " items");
    if (itemType === "integer" || itemType === "number") {
      const bounds = range(schema.items, "minimum", "maximum");
      constraints.push(`comma-separated ${itemType === "integer" ? "integers" : "numbers"}${bounds ? ` (${bounds})` : ""}`);
      if (items) constraints.push(items);
      return { kind: "list-number" };
    }
    if (itemType === "string" && !enumOf(schema.items)) {
      constraints.push("comma-separated");
      if (items) constraints.push(items);
      return { kind: "list-string" };
    }
  }
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (variants && variants.length > 0 && variants.every((v) => isObject(v) && ["integer", "number", "string"].includes(typeOf(v) ?? ""))) {
    const types = [...new Set(variants.map((v) => (typeOf(v as Schema) === "string" ? "text" : "a number")))];
    constraints.push(types.join(" or "));
    return { kind: "scalar" };
  }
  constraints.push("JSON");
  return { kind: "json" };
}

/** The fields of an object schema, in property order; anything else yields none. */
export function fieldsFromSchema(schema: unknown): FieldSpec[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const property = isObject(raw) ? raw : {};
    const constraints: string[] = [];
    const { kind, options } = kindOf(property, constraints);
    return {
      name,
      kind,
      required: required.has(name),
      ...(typeof property.description === "string" ? { description: property.description } : {}),
      ...("default" in property ? { default: property.default } : {}),
      ...(options ? { options } : {}),
      constraints,
    };
  });
}

/** How a value is written into a field's text control (the browser script parses it back by kind). */
export function formatFieldValue(kind: FieldKind, value: unknown): string {
  if (value === undefined) return "";
  switch (kind) {
    case "list-number":
    case "list-string":
      return Array.isArray(value) ? value.map(String).join(", ") : JSON.stringify(value);
    case "json":
      return JSON.stringify(value, null, 2);
    case "enum":
      return JSON.stringify(value);
    default:
      return typeof value === "string" ? value : JSON.stringify(value);
  }
}
