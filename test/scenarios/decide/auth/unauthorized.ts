import { cases, method } from "../../../helpers/decide.ts";

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

export default cases("auth.unauthorized", [
  {
    name: "a request without a bearer token gets 401 with no error code; one with any token passes",
    params: { scope: "faultline:read" },
    steps: [
      { fault: { kind: "unauthorized", scope: "faultline:read" } },
      { request: bearer("anything"), fault: undefined },
      { request: { headers: { authorization: "Basic dXNlcjpwYXNz" } }, fault: { kind: "unauthorized", scope: "faultline:read" } },
    ],
  },
  {
    name: "the Bearer scheme is case-insensitive, and a blank token is no token",
    steps: [{ request: { headers: { authorization: "bEaReR t0k3n" } }, fault: undefined }, { request: { headers: { authorization: "Bearer  " } }, fault: { kind: "unauthorized" } }],
  },
  {
    name: "when=always refuses a token with invalid_token, and a legacy initialize too",
    params: { when: "always" },
    steps: [
      { request: bearer("t"), fault: { kind: "unauthorized", error: "invalid_token" } },
      { request: method("initialize", { era: "legacy", protocolVersion: "2025-11-25" }), fault: { kind: "unauthorized" } },
    ],
  },
]);
