import type { TokenVars } from "../base/roles.ts";

/**
 * The shortest admin or viewer token accepted: 16 characters (64 bits as hex, the least OWASP ASVS 3.2.2 asks of a
 * session token). With the login throttle (src/access/throttle.ts: 10 failed guesses a minute per client, 100 for
 * all clients together) a 16-character random token outlasts any guessing; `openssl rand -hex 32` gives 64.
 */
export const MIN_TOKEN_CHARS = 16;

/** Why the configured tokens are refused, naming the variable and the rule, or undefined when they are fine. */
export function weakToken(vars: TokenVars): string | undefined {
  for (const name of ["FAULTLINE_ADMIN_TOKEN", "FAULTLINE_VIEWER_TOKEN"] as const) {
    const value = vars[name];
    if (value && value.length < MIN_TOKEN_CHARS) {
      return `${name} is ${value.length} characters long; it must be at least ${MIN_TOKEN_CHARS} (use a random one: openssl rand -hex 32)`;
    }
  }
  return undefined;
}
