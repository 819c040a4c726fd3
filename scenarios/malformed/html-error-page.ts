import { selectiveScenario } from "../../src/scenario-kit/select.ts";

export default selectiveScenario({
  id: "malformed.html_error_page",
  title: "HTML error page with 200",
  summary:
    "Selected requests (tools/call by default) get 200 text/html: a proxy's \"502 Bad Gateway\" page instead of JSON-RPC, as captive portals and misconfigured gateways send. The tool does not run. For an HTML page with a 5xx status, use errors.status_per_method with body html.",
  layer: "transport",
  params: {},
  judging: { checks: ["bad-answer-handled", "non-idempotent-not-replayed"] },
  example: { nth: 1 },
  fault: () => ({ kind: "malformed", variant: "html_page" }),
});
