import { call, cases } from "../../../helpers/decide.ts";

export default cases("auth.insufficient_scope", [
  {
    name: "by default the destructive base tool needs faultline:write and read-only tools pass",
    steps: [{ request: call("echo"), fault: undefined }, { request: call("place_order"), fault: { kind: "insufficient_scope", scope: "faultline:write" } }],
  },
  {
    name: "denials=1 refuses only the first call of the listed tools, as after a step-up",
    params: { tools: ["echo"], scope: "echo:use", denials: 1 },
    steps: [
      { request: call("echo"), fault: { kind: "insufficient_scope", scope: "echo:use" } },
      { request: call("echo"), fault: undefined },
      { request: call("place_order"), fault: undefined },
    ],
  },
]);
