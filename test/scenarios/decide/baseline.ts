import { call, cases, method } from "../../helpers/decide.ts";

export default cases("baseline", [
  { name: "with no delay every request passes", steps: [{ fault: undefined }, { fault: undefined }] },
  { name: "delayMs delays each request by that much", params: { delayMs: 250 }, steps: [{ fault: { kind: "delay", ms: 250 } }, { fault: { kind: "delay", ms: 250 } }] },
  {
    name: "Test Kitchen's slowReportDelayMs delays only run_configured_test_scenario, on top of delayMs",
    params: { delayMs: 100, slowReportDelayMs: 400 },
    steps: [
      { request: call("run_configured_test_scenario"), fault: { kind: "delay", ms: 500 } },
      { request: call("echo"), fault: { kind: "delay", ms: 100 } },
      { request: method("tools/list"), fault: { kind: "delay", ms: 100 } },
    ],
  },
  {
    name: "slowReportDelayMs alone leaves other requests undelayed",
    params: { slowReportDelayMs: 250 },
    steps: [{ request: method("tools/list"), fault: undefined }, { request: call("run_configured_test_scenario"), fault: { kind: "delay", ms: 250 } }],
  },
]);
