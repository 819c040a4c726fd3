import { z } from "zod";

/**
 * Strings that become header values, checked when a session is created so a bad one is a 400 naming the field,
 * never a 500 ("Invalid header value") or raw UTF-8 on the wire when the fault is performed. Header values are
 * ASCII: a Bearer challenge has no encoded form (RFC 9110 §5.5, RFC 6750 §3).
 */

/** A field value: visible ASCII and inner spaces, no control characters (CR, LF, NUL…), no leading or trailing space. */
const FIELD_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/** RFC 6750 scope: space-separated scope-tokens of %x21 / %x23-5B / %x5D-7E (no quote, no backslash). */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
/** RFC 6750 error and error_description characters: %x20-21 / %x23-5B / %x5D-7E. */
const AUTH_PARAM = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/** A string sent as a whole header value (e.g. Retry-After as an HTTP-date). */
export const headerValue = () => z.string().min(1).max(200).regex(FIELD_VALUE, "must be printable ASCII without control characters (it is sent as a header value)");

/** A scope in a WWW-Authenticate challenge. */
export const challengeScope = () =>
  z.string().min(1).max(200).regex(SCOPE, "must be space-separated ASCII scope tokens without quotes, backslashes or control characters (RFC 6750 §3)");

/** An auth-param value inside a quoted string of WWW-Authenticate, such as error="invalid_token". */
export const challengeParam = () => z.string().min(1).max(200).regex(AUTH_PARAM, "must be printable ASCII without quotes, backslashes or control characters (RFC 6750 §3)");

/** An HTTP field name: an RFC 9110 token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value a Worker can send: no CR, LF, NUL or other control character but tab, and no character past U+00FF. */
const SENDABLE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Why a header cannot be stored to be sent again (a replayed HAR), or undefined when it can. */
export function headerProblem(name: string, value: string): { rule: "header_name" | "header_value"; message: string } | undefined {
  if (!FIELD_NAME.test(name)) return { rule: "header_name", message: `the header name ${JSON.stringify(name.slice(0, 64))} is not an HTTP token (RFC 9110 §5.1)` };
  if (!SENDABLE_VALUE.test(value)) return { rule: "header_value", message: `the value of header '${name}' holds a control character (CR, LF, NUL…) or a character past U+00FF (RFC 9110 §5.5)` };
  return undefined;
}
