/** RFC 9110 §11.6.1 WWW-Authenticate parsing, enough to read RFC 6750 / RFC 9728 Bearer parameters. */

export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;

export function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let pos = 0;
  let current: Challenge | undefined;

  const skip = (chars: RegExp): void => {
    while (pos < header.length && chars.test(header.charAt(pos))) pos++;
  };
  const token = (): string | undefined => {
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(header);
    if (!m) return undefined;
    pos = TOKEN.lastIndex;
    return m[0];
  };
  const quoted = (): string => {
    let out = "";
    pos++; // opening quote
    while (pos < header.length) {
      const c = header.charAt(pos++);
      if (c === "\\" && pos < header.length) out += header.charAt(pos++);
      else if (c === '"') break;
      else out += c;
    }
    return out;
  };

  while (pos < header.length) {
    skip(/[\s,]/);
    const start = pos;
    const name = token();
    if (name === undefined) {
      pos++; // skip a stray character rather than loop forever
      continue;
    }
    skip(/[ \t]/);
    if (header.charAt(pos) === "=" && current !== undefined) {
      pos++;
      skip(/[ \t]/);
      const value = header.charAt(pos) === '"' ? quoted() : (token() ?? "");
      const key = name.toLowerCase();
      if (key !== "__proto__") current.params[key] = value;
      continue;
    }
    if (header.charAt(pos) === "=" && current === undefined) {
      pos = start + name.length + 1; // a parameter without a scheme: ignore it
      continue;
    }
    current = { scheme: name, params: {} };
    challenges.push(current);
    // token68 credentials (e.g. "Basic abc==") are skipped: MCP only uses auth-params.
    const afterScheme = pos;
    const t68 = /[A-Za-z0-9\-._~+/]+=*/y;
    t68.lastIndex = pos;
    const m = t68.exec(header);
    if (m && !/^\s*=/.test(header.slice(t68.lastIndex)) && /^\s*(,|$)/.test(header.slice(t68.lastIndex))) {
      pos = t68.lastIndex;
    } else {
      pos = afterScheme;
    }
  }
  return challenges.map(withBearerFields);
}

function withBearerFields(challenge: Challenge): Challenge {
  const { params } = challenge;
  const out: Challenge = { scheme: challenge.scheme, params };
  if (params.resource_metadata !== undefined) out.resourceMetadata = params.resource_metadata;
  if (params.scope !== undefined) out.scope = params.scope;
  if (params.error !== undefined) out.error = params.error;
  if (params.error_description !== undefined) out.errorDescription = params.error_description;
  return out;
}

/** The Bearer challenge if there is one, else the first challenge. */
export function primaryChallenge(header: string | undefined): Challenge | undefined {
  if (header === undefined) return undefined;
  const all = parseChallenges(header);
  return all.find((c) => c.scheme.toLowerCase() === "bearer") ?? all[0];
}
