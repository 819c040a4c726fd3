const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"]);
const SECRET_NAME = /(token|secret|password|passwd|api[-_]?key|session[-_]?key|auth)/i;
const SECRET_VALUE = /^(bearer|basic|token|dpop)\s+\S+/i;

/** Header names that are never redacted although they look like secrets. */
const SAFE = new Set(["mcp-session-id", "www-authenticate"]);

/** Replaces credentials in a header map: Authorization, Cookie and anything token-like. Names are lower-cased. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (SAFE.has(name)) out[name] = value;
    else if (SECRET_HEADERS.has(name) || SECRET_NAME.test(name)) out[name] = redactValue(value);
    else if (SECRET_VALUE.test(value) || looksLikeJwt(value)) out[name] = redactValue(value);
    else out[name] = value;
  }
  return out;
}

function looksLikeJwt(value: string): boolean {
  return /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/.test(value.trim());
}

/** Keeps the scheme (so "Bearer" vs "Basic" stays visible) and hides the credential. */
function redactValue(value: string): string {
  const scheme = /^(\w+)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} [redacted]` : "[redacted]";
}

/** Lower-cased plain object from a Headers instance; client IP headers are dropped unless asked for. */
export function headerRecord(headers: Headers, keepClientIp = false): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (!keepClientIp && (lower === "cf-connecting-ip" || lower === "x-forwarded-for" || lower === "x-real-ip" || lower === "true-client-ip")) return;
    out[lower] = value;
  });
  return out;
}
