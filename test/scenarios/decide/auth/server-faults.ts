import { cases } from "../../../helpers/decide.ts";

/** A token as the session's authorization server knows it (src/oauth/bearer.ts). */
const issued = (valid: boolean) => ({ headers: { authorization: "Bearer t" }, bearer: { key: "k1", valid, scopes: valid ? ["faultline:read"] : [] } });

// The MCP side only: the endpoint faults are the authorization server's (test/oauth/server-faults.test.ts).
export default cases("auth.server_faults", [
  {
    name: "a request without a token gets 401 with no error code, one with a token the server never issued 401 invalid_token, a valid one passes",
    params: { endpoint: "token", fault: "5xx" },
    steps: [
      { fault: { kind: "unauthorized" } },
      { request: issued(false), fault: { kind: "unauthorized", error: "invalid_token" } },
      { request: issued(true), fault: undefined },
    ],
  },
  {
    name: "the challenge names the scope when set",
    params: { scope: "faultline:write" },
    steps: [{ fault: { kind: "unauthorized", scope: "faultline:write" } }],
  },
]);
