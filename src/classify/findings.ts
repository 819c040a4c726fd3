import type { Finding } from "./verdict.ts";

/** Spec citations used in findings: "<version> <docs path>#<anchor>" or an RFC section. */
export const SpecRef = {
  jsonRpcResponse: "JSON-RPC 2.0 §5 (Response object)",
  sse: "HTML Living Standard §9.2.6 (interpreting an event stream)",
  retryAfter: "RFC 9110 §10.2.3 (Retry-After)",
  httpDate: "RFC 9110 §5.6.7 (Date/Time Formats)",
  wwwAuthenticate: "RFC 9110 §11.6.1 (WWW-Authenticate)",
  bearerChallenge: "RFC 6750 §3 (WWW-Authenticate response header)",
  s26Sending: "2026-07-28 basic/transports/streamable-http#sending-messages",
  s26Receiving: "2026-07-28 basic/transports/streamable-http#receiving-messages",
  s26VersionHeader: "2026-07-28 basic/transports/streamable-http#protocol-version-header",
  s26ServerValidation: "2026-07-28 basic/transports/streamable-http#server-validation",
  s26BackCompat: "2026-07-28 basic/transports/streamable-http#backward-compatibility",
  s26Responses: "2026-07-28 basic/index#responses",
  s26ErrorResponses: "2026-07-28 basic/index#error-responses",
  s26ErrorCodes: "2026-07-28 basic/index#error-codes",
  s26ResultType: "2026-07-28 basic/index#resulttype",
  s26Statelessness: "2026-07-28 basic/index#statelessness",
  s26Mrtr: "2026-07-28 basic/patterns/mrtr#server-requirements",
  s26MrtrClient: "2026-07-28 basic/patterns/mrtr#client-requirements",
  s26Versioning: "2026-07-28 basic/versioning#protocol-version-negotiation",
  s26Changelog: "2026-07-28 changelog",
  s26ToolResult: "2026-07-28 server/tools#tool-result",
  s26ToolsList: "2026-07-28 server/tools#listing-tools",
  s26Discover: "2026-07-28 server/discover",
  s26Auth: "2026-07-28 basic/authorization#authorization-server-discovery",
  s26Progress: "2026-07-28 basic/patterns/progress",
  s26Tasks: "SEP-2663 (the io.modelcontextprotocol/tasks extension, 2026-07-28)",
  s1125Sending: "2025-11-25 basic/transports#sending-messages-to-the-server",
  s1125Resumability: "2025-11-25 basic/transports#resumability-and-redelivery",
  s1125Sessions: "2025-11-25 basic/transports#session-management",
  s1125Listening: "2025-11-25 basic/transports#listening-for-messages-from-the-server",
  s1125ErrorResponses: "2025-11-25 basic/index#error-responses",
  s1125ToolResult: "2025-11-25 server/tools#tool-result",
  s1125Auth: "2025-11-25 basic/authorization#authorization-server-discovery",
  s1125Scope: "2025-11-25 basic/authorization#scope-challenge-handling",
  s1125UrlElicitation: "2025-11-25 client/elicitation#url-elicitation-required-error",
  s0618Responses: "2025-06-18 basic/index#responses",
  s0618Auth: "2025-06-18 basic/authorization#authorization-server-location",
} as const;

export type Severity = Finding["severity"];

export function finding(severity: Severity, code: string, message: string, specRef?: string): Finding {
  return specRef === undefined ? { severity, code, message } : { severity, code, message, specRef };
}

/** An append-only list of findings shared by the classifier's layers. */
export class Findings {
  readonly list: Finding[] = [];

  add(severity: Severity, code: string, message: string, specRef?: string): void {
    this.list.push(finding(severity, code, message, specRef));
  }

  error(code: string, message: string, specRef?: string): void {
    this.add("error", code, message, specRef);
  }

  warning(code: string, message: string, specRef?: string): void {
    this.add("warning", code, message, specRef);
  }

  info(code: string, message: string, specRef?: string): void {
    this.add("info", code, message, specRef);
  }
}
