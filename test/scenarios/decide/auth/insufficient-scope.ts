import { call, cases } from "../../../helpers/decide.ts";

const NONE = { authorizationServer: "none" };
const token = (...scopes: string[]) => ({ headers: { authorization: "Bearer t" }, bearer: { key: "k1", valid: true, scopes } });

export default cases("auth.insufficient_scope", [
  {
    name: "none: by default the destructive base tool needs faultline:write and read-only tools pass",
    params: NONE,
    steps: [{ request: call("echo"), fault: undefined }, { request: call("place_order"), fault: { kind: "insufficient_scope", scope: "faultline:write" } }],
  },
  {
    name: "none: denials=1 refuses only the first call of the listed tools, as after a step-up",
    params: { tools: ["echo"], scope: "echo:use", denials: 1, ...NONE },
    steps: [
      { request: call("echo"), fault: { kind: "insufficient_scope", scope: "echo:use" } },
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: undefined },
    ],
  },
  {
    name: "builtin (default): no token gets a 401 naming faultline:read; a read token passes echo and gets 403 naming both scopes on place_order",
    steps: [
      { request: call("echo"), fault: { kind: "unauthorized", scope: "faultline:read" } },
      { request: call("echo", token("faultline:read")), fault: undefined },
      { request: call("place_order", token("faultline:read")), fault: { kind: "insufficient_scope", scope: "faultline:read faultline:write" } },
      { request: call("place_order", token("faultline:read", "faultline:write")), fault: undefined },
    ],
  },
  {
    name: "builtin: denials does not apply; the token's scope decides",
    params: { denials: 1 },
    steps: [
      { request: call("place_order", token("faultline:read")), fault: { kind: "insufficient_scope", scope: "faultline:read faultline:write" } },
      { request: call("place_order", token("faultline:read")), fault: { kind: "insufficient_scope", scope: "faultline:read faultline:write" } },
    ],
  },
]);
