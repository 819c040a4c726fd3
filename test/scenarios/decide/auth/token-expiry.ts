import { cases, method } from "../../../helpers/decide.ts";

const bearer = (token: string) => method("tools/list", { headers: { authorization: `Bearer ${token}` } });

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
]);
