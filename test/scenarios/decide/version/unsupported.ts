import { cases, legacy, method } from "../../../helpers/decide.ts";

const initialize = (asked: string, negotiated: string) => method("initialize", legacy({ mcpSessionId: undefined, requestedVersion: asked, protocolVersion: negotiated }));

export default cases("version.unsupported", [
  {
    name: "a 2026-07-28 request is refused with the supported versions; a notification is not",
    steps: [
      { fault: { kind: "unsupported_version", supported: ["2025-11-25", "2025-06-18"], requested: "2026-07-28" } },
      { request: method("notifications/cancelled", { kind: "notification" }), fault: undefined },
    ],
  },
  {
    name: "a legacy initialize is judged on the version it asked for, not the one negotiation picked",
    params: { supported: ["2025-11-25"] },
    steps: [
      { request: initialize("2025-06-18", "2025-06-18"), fault: { kind: "unsupported_version", supported: ["2025-11-25"], requested: "2025-06-18" } },
      { request: initialize("2025-11-25", "2025-11-25"), fault: undefined },
    ],
  },
  {
    name: "later legacy requests are not checked, and a listed 2026-07-28 passes",
    params: { supported: ["2026-07-28"] },
    steps: [{ request: method("tools/list", legacy()), fault: undefined }, { fault: undefined }],
  },
]);
