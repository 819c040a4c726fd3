/** A scenario as GET /api/scenarios lists it. */
export interface CatalogueEntry {
  id: string;
  title: string;
  summary: string;
  layer: string;
  params: unknown;
  example: Record<string, unknown>;
}

/** The classifier's layers, outermost first, with what each one covers. */
export const LAYERS: ReadonlyArray<{ id: string; label: string; blurb: string }> = [
  { id: "transport", label: "Transport", blurb: "HTTP statuses, streams, connections" },
  { id: "protocol", label: "Protocol", blurb: "JSON-RPC and MCP envelopes" },
  { id: "interaction", label: "Interaction", blurb: "input required, elicitation" },
  { id: "application", label: "Application", blurb: "tool results" },
];

/** The area of a scenario: the part of its id before the first dot ("errors" in errors.tool_error). */
export const areaOf = (id: string): string => id.split(".")[0] ?? id;

export interface ScenarioGroup {
  key: string;
  label: string;
  blurb?: string;
  scenarios: CatalogueEntry[];
}

/** Scenarios grouped by layer, in the layers' order; unknown layers come last. */
export function groupByLayer(scenarios: readonly CatalogueEntry[]): ScenarioGroup[] {
  const known = LAYERS.map((layer) => ({ key: layer.id, label: layer.label, blurb: layer.blurb, scenarios: scenarios.filter((s) => s.layer === layer.id) }));
  const others = [...new Set(scenarios.map((s) => s.layer).filter((layer) => !LAYERS.some((l) => l.id === layer)))].map((layer) => ({
    key: layer,
    label: layer,
    scenarios: scenarios.filter((s) => s.layer === layer),
  }));
  return [...known, ...others].filter((group) => group.scenarios.length > 0);
}
