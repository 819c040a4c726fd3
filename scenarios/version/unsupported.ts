import { z } from "zod";
import { defineScenario } from "../../src/mcp/scenario.ts";

export default defineScenario({
  id: "version.unsupported",
  title: "Unsupported protocol version",
  summary:
    "The server claims to support only `supported`. A 2026-07-28 request whose version is not listed gets HTTP 400 with -32022 and data {supported, requested}. A legacy initialize whose version is not listed gets -32602 \"Unsupported protocol version\" with the same data (the 2025 lifecycle example; HTTP 200, as no status is named); later legacy requests are not checked. With the default list, a dual-era client should fall back to initialize.",
  layer: "protocol",
  params: z.object({
    supported: z.array(z.string().min(1)).min(1).default(["2025-11-25", "2025-06-18"]).describe("The versions the server says it supports"),
  }),
  judging: { checks: ["version-renegotiated"] },
  // Lists neither 2025-11-25 nor 2026-07-28, so every official SDK client is refused however it starts: the v1 and
  // default v2 clients at their 2025-11-25 initialize, a v2 client in auto mode at its 2026-07-28 probe. Both SDKs
  // also speak 2025-06-18, so a client that re-negotiates has a version to go to, and version-renegotiated can judge.
  example: { supported: ["2025-06-18"] },
  decide: ({ params, request }) => {
    const checked = request.era === "modern" || request.method === "initialize";
    // An initialize is judged on the version it asked for, not the one negotiation would have picked.
    const asked = request.requestedVersion ?? request.protocolVersion;
    if (!checked || request.kind !== "request" || params.supported.includes(asked)) return undefined;
    return {
      fault: { kind: "unsupported_version", supported: params.supported, requested: asked },
      reason: `${asked} is not in supported (${params.supported.join(", ")})`,
    };
  },
});
