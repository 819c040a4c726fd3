import { isRecord, typeName } from "./json.ts";

/**
 * Checks a value against the JSON Schema keywords that say what a value is: type, enum, const, required,
 * properties, additionalProperties (false or a schema), items (one schema), minimum/maximum, minLength/maxLength and
 * minItems/maxItems. Other keywords ($ref, allOf/anyOf/oneOf, pattern, format, ...) are not checked, so a value may
 * pass here and still fail a full validator, never the reverse. Returns the first mismatch, or undefined.
 * The walk stops at MAX_DEPTH levels and after MAX_VISITS values, so a hostile schema or value costs bounded work.
 */
export function schemaMismatch(value: unknown, schema: unknown): string | undefined {
  const budget = { visits: 0 };
  return mismatch(value, schema, "", 0, budget);
}

const MAX_DEPTH = 32;
const MAX_VISITS = 10_000;

type Budget = { visits: number };

/** The JSON Schema type names a value has ("integer" is a "number" too). */
function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  if (typeof value === "object") return ["object"];
  return [typeof value];
}

function at(path: string): string {
  return path === "" ? "the root" : path;
}

function mismatch(value: unknown, schema: unknown, path: string, depth: number, budget: Budget): string | undefined {
  if (schema === false) return `${at(path)} is not allowed (the schema is false)`;
  if (!isRecord(schema) || depth > MAX_DEPTH || ++budget.visits > MAX_VISITS) return undefined;
  const types = typesOf(value);
  const wanted = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === "string") : undefined;
  if (wanted && wanted.length > 0 && !wanted.some((t) => types.includes(t))) return `${at(path)} is ${typeName(value)}, the schema wants ${wanted.join(" or ")}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(e, value))) return `${at(path)} is not one of the schema's enum values`;
  if ("const" in schema && !sameJson(schema.const, value)) return `${at(path)} is not the schema's const value`;
  return bounds(value, schema, path) ?? (isRecord(value) ? objectMismatch(value, schema, path, depth, budget) : Array.isArray(value) ? itemsMismatch(value, schema, path, depth, budget) : undefined);
}

function bounds(value: unknown, schema: Record<string, unknown>, path: string): string | undefined {
  const limit = (key: string, actual: number, below: boolean): string | undefined => {
    const bound = schema[key];
    return typeof bound === "number" && (below ? actual < bound : actual > bound) ? `${at(path)} breaks ${key} ${bound}` : undefined;
  };
  if (typeof value === "number") return limit("minimum", value, true) ?? limit("maximum", value, false);
  if (typeof value === "string") return limit("minLength", [...value].length, true) ?? limit("maxLength", [...value].length, false);
  if (Array.isArray(value)) return limit("minItems", value.length, true) ?? limit("maxItems", value.length, false);
  return undefined;
}

function objectMismatch(value: Record<string, unknown>, schema: Record<string, unknown>, path: string, depth: number, budget: Budget): string | undefined {
  if (Array.isArray(schema.required)) {
    const missing = schema.required.find((key) => typeof key === "string" && !Object.hasOwn(value, key));
    if (missing !== undefined) return `${at(path)} lacks the required property ${JSON.stringify(missing)}`;
  }
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [key, member] of Object.entries(value)) {
    const sub = Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties;
    if (sub === false) return `${at(path)} has the property ${JSON.stringify(key)}, which the schema does not allow`;
    const found = mismatch(member, sub, `${path}/${key}`, depth + 1, budget);
    if (found !== undefined) return found;
  }
  return undefined;
}

function itemsMismatch(value: readonly unknown[], schema: Record<string, unknown>, path: string, depth: number, budget: Budget): string | undefined {
  if (!isRecord(schema.items) && schema.items !== false) return undefined;
  for (let i = 0; i < value.length; i++) {
    const found = mismatch(value[i], schema.items, `${path}/${i}`, depth + 1, budget);
    if (found !== undefined) return found;
  }
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
