import { cases, method } from "../../../helpers/decide.ts";

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const NONE = { authorizationServer: "none" };
/** A token as the session's authorization server knows it (src/oauth/bearer.ts). */
const issued = (valid: boolean) => ({ headers: { authorization: "Bearer t" }, bearer: { key: "k1", valid, scopes: valid ? ["faultline:read"] : [] } });

export default cases("auth.unauthorized", [
  {
    name: "none: a request without a bearer token gets 401 with no error code; one with any token passes",
    params: { scope: "faultline:read", ...NONE },
    steps: [
      { fault: { kind: "unauthorized", scope: "faultline:read" } },
      { request: bearer("anything"), fault: undefined },
      { request: { headers: { authorization: "Basic dXNlcjpwYXNz" } }, fault: { kind: "unauthorized", scope: "faultline:read" } },
    ],
  },
  {
    name: "none: the Bearer scheme is case-insensitive, and a blank token is no token",
    params: NONE,
    steps: [{ request: { headers: { authorization: "bEaReR t0k3n" } }, fault: undefined }, { request: { headers: { authorization: "Bearer  " } }, fault: { kind: "unauthorized" } }],
  },
  {
    name: "none: when=always refuses a token with invalid_token, and a legacy initialize too",
    params: { when: "always", ...NONE },
    steps: [
      { request: bearer("t"), fault: { kind: "unauthorized", error: "invalid_token" } },
      { request: method("initialize", { era: "legacy", protocolVersion: "2025-11-25" }), fault: { kind: "unauthorized" } },
    ],
  },
  {
    name: "builtin (default): only a token this session issued passes; another gets invalid_token, none a bare challenge",
    params: { scope: "faultline:read" },
    steps: [
      { fault: { kind: "unauthorized", scope: "faultline:read" } },
      { request: issued(false), fault: { kind: "unauthorized", error: "invalid_token", scope: "faultline:read" } },
      { request: issued(true), fault: undefined },
    ],
  },
  {
    name: "builtin: when=always refuses even a valid token",
    params: { when: "always" },
    steps: [{ request: issued(true), fault: { kind: "unauthorized", error: "invalid_token" } }],
  },
]);
