import { parseMcpPath } from "../base/mcp-path.ts";
/**
 * Redaction of what the journal stores: header values, JSON body fields with secret-like names, and values that look
 * like credentials wherever they appear. Pure. The protocol's own fields (requestState, cursor, Mcp-Session-Id,
 * Last-Event-ID, progressToken, the JSON-RPC id) are never touched: the checks and replay compare them.
 */

export const REDACTED = "[redacted]";

/** Authentication schemes (IANA HTTP Authentication Scheme Registry, plus GitHub's "token"): shown, the credential hidden. */
const SCHEMES = new Set(["basic", "bearer", "digest", "dpop", "hoba", "mutual", "negotiate", "ntlm", "privatetoken", "scram-sha-1", "scram-sha-256", "vapid", "aws4-hmac-sha256", "token", "concealed", "gnap"]);

/** Names compared lower-cased with "-", "_" and "." removed, so apiKey, api-key and API_KEY are one name. */
const squash = (name: string) => name.toLowerCase().replace(/[-_.]/g, "");

/** Header or field names that hold credentials. */
const SECRET_NAME = /(passw(or)?d|passphrase|^pwd$|secret|token$|apikey|accesskey|privatekey|sessionkey|subscriptionkey|signingkey|credentials?$|authorization|^x?auth$|cookie)/;

/** Names that look secret but are the protocol's own, compared after `squash`. */
const PROTOCOL_NAMES = new Set(["mcpsessionid", "lasteventid", "requeststate", "cursor", "nextcursor", "progresstoken", "id", "wwwauthenticate", "mcpprotocolversion"]);

/**
 * Values that are credentials whatever their name: OpenAI/Anthropic/Stripe keys, GitHub and Slack tokens, AWS key ids,
 * JWTs, and Faultline's own OAuth server's access and refresh tokens and codes (src/oauth/store.ts `secret`: fla_, flr_,
 * flc_ and 43 base64url characters).
 */
const SECRET_VALUE = /\b(?:fl[arc]_[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{8,}|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abeoprs]-[A-Za-z0-9-]{8,}|(?:AKIA|ASIA)[0-9A-Z]{16}|eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*)/g;

/** Extra secret names from configuration (comma-separated), on top of the built-in ones. */
export interface RedactOptions {
  extraNames?: readonly string[];
}

/** Parses the comma-separated list of a [vars] entry. */
export function redactNames(csv: string | undefined): string[] {
  return (csv ?? "").split(",").map((n) => squash(n.trim())).filter((n) => n !== "");
}

/**
 * Answers of isSecretName per list of extra names, by name: a journal sees the same few field names in every body,
 * and squashing and matching each one again cost a tenth of an append. Bounded.
 */
const NO_EXTRA_NAMES: readonly string[] = [];
const secretNameMemo = new WeakMap<readonly string[], Map<string, boolean>>();
const SECRET_NAME_MEMO_MAX = 4_096;

/** Whether a header or JSON field name holds a secret. */
export function isSecretName(name: string, options: RedactOptions = {}): boolean {
  const extra = options.extraNames ?? NO_EXTRA_NAMES;
  let memo = secretNameMemo.get(extra);
  if (!memo) secretNameMemo.set(extra, (memo = new Map()));
  const known = memo.get(name);
  if (known !== undefined) return known;
  const key = squash(name);
  const secret = !PROTOCOL_NAMES.has(key) && (SECRET_NAME.test(key) || extra.includes(key));
  if (memo.size >= SECRET_NAME_MEMO_MAX) memo.clear();
  memo.set(name, secret);
  return secret;
}

/**
 * A capability URL's secret, `/s/{id}.{secret}/` (src/base/capability-url.ts), also percent-encoded (`%2Fs%2F…`, `%2E`)
 * or with JSON's escaped slashes: whoever holds it can use the session, so the journal keeps the id and hides the
 * secret wherever the URL appears (a 401's WWW-Authenticate resource_metadata, a Location, a body).
 */
const CAPABILITY = /((?:\\?\/|%2[Ff])s(?:\\?\/|%2[Ff])[A-Za-z0-9-]+)(?:\.|%2[Ee])[A-Za-z0-9_-]+(?=\\?\/|%2[Ff])/g;

/** Every capability secret in a text replaced by the marker, the session id kept. */
export function redactCapabilityUrls(text: string): string {
  return text.replace(CAPABILITY, `$1.${REDACTED}`);
}

/**
 * A JSON value (the classifier's verdict, a fault's detail) with every capability secret in it hidden: the verdict
 * quotes a 401's challenge, resource_metadata URL included. The value itself when it holds none.
 */
export function redactCapabilitiesIn<T>(value: T): T {
  const json = JSON.stringify(value);
  CAPABILITY.lastIndex = 0;
  return json !== undefined && CAPABILITY.test(json) ? (JSON.parse(redactCapabilityUrls(json)) as T) : value;
}

function hasCredential(value: string): boolean {
  SECRET_VALUE.lastIndex = 0;
  return SECRET_VALUE.test(value);
}

/** Whether a value contains something that looks like a credential, or a capability URL's secret. */
export function hasSecretValue(value: string): boolean {
  CAPABILITY.lastIndex = 0;
  return hasCredential(value) || CAPABILITY.test(value);
}

/** Every credential-looking run and capability secret in a text replaced by the marker. */
export function redactSecretValues(text: string): string {
  return redactCapabilityUrls(text.replace(SECRET_VALUE, REDACTED));
}

/** The whole value hidden; a real authentication scheme in front of it stays visible (so Bearer vs Basic shows). */
function hideHeaderValue(value: string): string {
  const scheme = /^([A-Za-z][\w-]*)\s+\S/.exec(value);
  return scheme && SCHEMES.has(scheme[1]!.toLowerCase()) ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** Replaces credentials in a header map: names that hold secrets, and values that look like credentials. Names are lower-cased. */
export function redactHeaders(headers: Record<string, string>, options: RedactOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    const safe = PROTOCOL_NAMES.has(squash(name));
    if (!safe && (isSecretName(name, options) || hasCredential(value) || /^(bearer|basic|dpop|digest|negotiate)\s+\S/i.test(value))) {
      out[name] = hideHeaderValue(value);
    } else out[name] = redactCapabilityUrls(value); // the protocol's own headers too: WWW-Authenticate names the URL
  }
  return out;
}

/** Deepest JSON walked structurally; deeper text is redacted by pattern only (the door refuses such requests anyway). */
const MAX_WALK_DEPTH = 256;

/** A JSON value with secret fields and credential-looking strings replaced; undefined when nothing changed. Iterative. */
function redactValue(root: unknown, options: RedactOptions): unknown | undefined {
  let changed = false;
  const copy = (value: unknown): unknown => (Array.isArray(value) ? [...value] : value && typeof value === "object" ? { ...(value as object) } : value);
  const top = copy(root);
  const stack: { value: Record<string, unknown> | unknown[]; depth: number }[] = [];
  if (top && typeof top === "object") stack.push({ value: top as Record<string, unknown>, depth: 1 });
  else if (typeof top === "string" && hasSecretValue(top)) return redactSecretValues(top);
  else return undefined;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (depth > MAX_WALK_DEPTH) throw new RangeError("too deep to redact structurally");
    const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    for (const key of keys) {
      const item = (value as Record<string | number, unknown>)[key];
      if (typeof key === "string" && !Array.isArray(value) && isSecretName(key, options) && item !== null && item !== "") {
        (value as Record<string, unknown>)[key] = REDACTED;
        changed = true;
      } else if (typeof item === "string") {
        if (hasSecretValue(item)) {
          (value as Record<string | number, unknown>)[key] = redactSecretValues(item);
          changed = true;
        }
      } else if (item && typeof item === "object") {
        const child = copy(item) as Record<string, unknown> | unknown[];
        (value as Record<string | number, unknown>)[key] = child;
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return changed ? top : undefined;
}

/** A quoted JSON string, escapes included. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;

/** Text that is not whole JSON (cut by the cap, too deep, not JSON): secret-named string and scalar fields, then values, by pattern. */
function redactByPattern(text: string, options: RedactOptions): string {
  const field = new RegExp(`(${JSON_STRING})(\\s*:\\s*)(${JSON_STRING}|-?\\d[\\d.eE+-]*|true|false)`, "g");
  const named = text.replace(field, (whole, name: string, colon: string) => {
    let key: string;
    try {
      key = JSON.parse(name) as string;
    } catch {
      return whole;
    }
    return isSecretName(key, options) ? `${name}${colon}"${REDACTED}"` : whole;
  });
  return redactSecretValues(named);
}

/**
 * A body's text with its secrets redacted. JSON is redacted field by field and re-serialised only when something
 * changed (otherwise the text is returned as it was); anything else is redacted by pattern.
 */
export function redactText(text: string, options: RedactOptions = {}): string {
  return redactBody(text, options).text;
}

/**
 * redactText for a body the pipeline may have parsed already (`parsed`, see ParsedBody: then it is not parsed again),
 * also giving the redacted JSON, so the checks' projection of it does not parse the redacted text either.
 */
export function redactBody(text: string, options: RedactOptions = {}, parsed?: ParsedBody): { text: string; parsed: ParsedBody } {
  if (text === "") return { text, parsed: null };
  const json = parsed !== undefined ? parsed : parseWhole(text);
  if (json === null) return { text: redactByPattern(text, options), parsed: null };
  try {
    const redacted = redactValue(json.value, options);
    return redacted === undefined ? { text, parsed: json } : { text: JSON.stringify(redacted), parsed: { value: redacted } };
  } catch {
    return { text: redactByPattern(text, options), parsed: null };
  }
}

/**
 * A body's JSON as the pipeline parsed it already, handed on so that what stores the body (redaction, the call
 * digests, the checks' projection) does not parse it again: `{ value }` when the text is one whole JSON value, null
 * when it is not JSON (or was cut, or nests too deep to walk). Undefined where it is taken: not parsed yet.
 */
export type ParsedBody = { value: unknown } | null;

/** The text's JSON, or null; the one parse of a body that arrives unparsed. */
export function parseWhole(text: string): ParsedBody {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return null;
  }
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

/**
 * An MCP path as the journal keeps it: the secret replaced by the redaction marker, so a journal, its exports and
 * whoever reads them do not hold a working URL. Other paths are returned as they are.
 */
export function redactCapability(path: string): string {
  const target = parseMcpPath(path);
  return target?.secret === undefined ? path : `/s/${encodeURIComponent(target.id)}.${REDACTED}/mcp`;
}
