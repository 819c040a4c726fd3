import type { CatalogueEntry } from "./api.ts";
import type { ScenarioChoice } from "./run-args.ts";

/** A scenario `--all` left out, and why. */
export interface Skipped {
  scenario: string;
  reason: string;
}

/**
 * The catalogue's scenarios with their example params, less those whose judgement needs a step outside the client (a
 * person, a recording made first), as each scenario's `judging.needsOutside` says.
 */
export function allScenarios(catalogue: readonly CatalogueEntry[]): { chosen: ScenarioChoice[]; skipped: Skipped[] } {
  const chosen: ScenarioChoice[] = [];
  const skipped: Skipped[] = [];
  for (const entry of catalogue) {
    const reason = entry.judging?.needsOutside;
    if (reason === undefined) chosen.push({ id: entry.id, params: entry.example ?? {} });
    else skipped.push({ scenario: entry.id, reason });
  }
  return { chosen, skipped };
}
