import { cases, method } from "../../../helpers/decide.ts";

/** A request carrying a token whose HMAC key is `key` (src/oauth/bearer.ts); `valid` as the session's server judged it. */
const bearer = (key: string, valid = true) =>
  method("tools/list", { headers: { authorization: `Bearer ${key}` }, bearer: { key, valid, scopes: valid ? ["faultline:read"] : [] } });

export default cases("auth.token_expiry", [
  {
    name: "each token is good for `uses` requests, stays expired after, and a new token starts fresh",
    params: { uses: 2, scope: "faultline:read" },
    steps: [
      { request: bearer("first"), fault: undefined },
      { request: bearer("first"), fault: undefined },
      { request: bearer("first"), fault: { kind: "unauthorized", error: "invalid_token", scope: "faultline:read" } },
      { request: bearer("first"), fault: { kind: "unauthorized", error: "invalid_token", scope: "faultline:read" } },
      { request: bearer("second"), fault: undefined },
    ],
  },
  {
    name: "a request without a token gets 401 with no error code",
    steps: [{ fault: { kind: "unauthorized" } }],
  },
  {
    name: "builtin: a token the session did not issue is refused at once; with none it is counted like any other",
    params: { uses: 1 },
    steps: [{ request: bearer("foreign", false), fault: { kind: "unauthorized", error: "invalid_token" } }],
  },
  {
    name: "none: any token is good for `uses` requests",
    params: { uses: 1, authorizationServer: "none" },
    steps: [{ request: bearer("foreign", false), fault: undefined }, { request: bearer("foreign", false), fault: { kind: "unauthorized", error: "invalid_token" } }],
  },
]);
