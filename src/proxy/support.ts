import type { Scenario } from "../mcp/scenario.ts";

/**
 * Why a scenario cannot run in front of an upstream, or undefined when it can. Every fault kind can (each is `replace`
 * or `alter`, src/faults/schema.ts); what cannot is a scenario that serves something the upstream does not have:
 * its own tools (the elicitation rounds, the conformance fixtures, compat.sdk_v2) or its own method handlers (a
 * paginated or changing catalogue), or one that needs MCP sessions of Faultline's own (it counts their requests).
 * Each is read from what the scenario declares, never from its id.
 */
export function proxyRefusal(scenario: Scenario): string | undefined {
  if (scenario.tools) return `scenario '${scenario.id}' serves tools of its own, which the upstream does not have; it cannot run in front of an upstream`;
  if (scenario.handlers) return `scenario '${scenario.id}' answers some methods itself (a catalogue, resources or prompts of its own) in the upstream's place; it cannot run in front of an upstream`;
  if (scenario.decideGet) return `scenario '${scenario.id}' serves the standalone GET stream itself, in the upstream's place; it cannot run in front of an upstream`;
  if (scenario.needs?.ownMcpSessions) return `scenario '${scenario.id}' counts requests per MCP session, and the upstream owns the MCP sessions; it cannot run in front of an upstream`;
  return undefined;
}
