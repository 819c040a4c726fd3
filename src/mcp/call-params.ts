/** What identifies a call across a retry: its params, written canonically. Pure; used by requestState and the checks. */

/** The params that name a call: without _meta, and without the inputResponses and requestState an MRTR retry adds. */
export function callParams(params: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _m, inputResponses: _i, requestState: _r, ...rest } = params;
  return rest;
}

/**
 * JSON with object keys sorted, so equal values give equal text whatever their key order. Iterative (an explicit
 * stack of pending output), so a value nested as deep as JSON.parse allows cannot overflow the call stack.
 */
export function canonical(value: unknown): string {
  const out: string[] = [];
  // Each item is a value still to write, or a literal piece of text (a comma, a key, a closing bracket).
  const todo: ({ value: unknown } | string)[] = [{ value }];
  while (todo.length > 0) {
    const item = todo.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      todo.push("]");
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] });
        if (i > 0) todo.push(",");
      }
      out.push("[");
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      todo.push("}");
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        todo.push({ value: child });
        todo.push(`${i > 0 ? "," : ""}${JSON.stringify(k)}:`);
      }
      out.push("{");
    } else {
      out.push(JSON.stringify(v) ?? "null");
    }
  }
  return out.join("");
}
