/** What identifies a call across a retry: its params, written canonically. Pure; used by requestState and the checks. */

/** The params that name a call: without _meta, and without the inputResponses and requestState an MRTR retry adds. */
export function callParams(params: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _m, inputResponses: _i, requestState: _r, ...rest } = params;
  return rest;
}

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
