import { cases, method } from "../../helpers/decide.ts";

// The selection every selective scenario shares (scenarios/select.ts), shown on malformed.invalid_json.
const bad = { kind: "malformed", variant: "invalid_json" };

export default cases("malformed.invalid_json", [
  {
    name: "selection: methods lists the methods faulted; others are not counted",
    params: { methods: ["tools/list"] },
    steps: [{ fault: undefined }, { request: method("tools/list"), fault: bad }],
  },
  {
    name: 'selection: "*" matches every request but not notifications',
    params: { methods: ["*"] },
    steps: [{ request: method("initialize"), fault: bad }, { request: method("notifications/initialized", { kind: "notification" }), fault: undefined }, { fault: bad }],
  },
  {
    name: "selection: nth picks only the nth matching request",
    params: { nth: 2 },
    steps: [{ fault: undefined }, { request: method("tools/list"), fault: undefined }, { fault: bad }, { fault: undefined }],
  },
  {
    name: "selection: every picks each kth matching request",
    params: { every: 2 },
    steps: [{ fault: undefined }, { fault: bad }, { fault: undefined }, { fault: bad }],
  },
  {
    name: "selection: times caps how many picked requests get the fault",
    params: { every: 2, times: 1 },
    steps: [{ fault: undefined }, { fault: bad }, { fault: undefined }, { fault: undefined }],
  },
  {
    name: "selection: nth wins over every",
    params: { nth: 3, every: 1 },
    steps: [{ fault: undefined }, { fault: undefined }, { fault: bad }],
  },
  {
    name: "selection: a body without a method is never picked",
    params: { methods: ["*"] },
    steps: [{ request: { kind: "response", method: undefined, toolName: undefined }, fault: undefined }],
  },
]);
