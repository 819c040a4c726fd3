/** The stateless protocol revision. */
export const MODERN_VERSION = "2026-07-28";
/** Versions served with the initialize handshake, newest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18"] as const;
export const SUPPORTED_VERSIONS = [MODERN_VERSION, ...LEGACY_VERSIONS] as const;

export type Era = "modern" | "legacy";

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
} as const;

/** Tags every notification on a subscriptions/listen stream, and its closing result (2026-07-28). */
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export const SERVER_INFO = { name: "faultline", title: "Faultline", version: "0.1.0" } as const;

/** Sent in the initialize result (legacy) and the server/discover result (2026-07-28). */
export const SERVER_INSTRUCTIONS = "Faultline: an MCP server that injects faults chosen by the session's scenario.";

export function isLegacyVersion(version: string): boolean {
  return (LEGACY_VERSIONS as readonly string[]).includes(version);
}
