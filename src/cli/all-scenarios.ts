import type { CatalogueEntry } from "./api.ts";
import type { ScenarioChoice } from "./run-args.ts";

/** A scenario `--all` left out, and why. */
export interface Skipped {
  scenario: string;
  reason: string;
}

/**
 * Scenarios whose judgement needs something a client run in CI cannot give: here, a person. The catalogue has no
 * field for this, so it is decided per scenario. No scenario needs an upstream server today.
 */
const NEEDS_OUTSIDE: Readonly<Record<string, string>> = {
  "elicitation.url_mode":
    "it asks the client's user to open a URL and approve out of band (in a browser), a step an unattended run has nobody for",
  replay: "it answers from a recording, which a session with \"record\": true (or an uploaded HAR) must give it first",
};

/** The catalogue's scenarios with their example params, less those that need a step outside the client. */
export function allScenarios(catalogue: readonly CatalogueEntry[]): { chosen: ScenarioChoice[]; skipped: Skipped[] } {
  const chosen: ScenarioChoice[] = [];
  const skipped: Skipped[] = [];
  for (const entry of catalogue) {
    const reason = NEEDS_OUTSIDE[entry.id];
    if (reason === undefined) chosen.push({ id: entry.id, params: entry.example ?? {} });
    else skipped.push({ scenario: entry.id, reason });
  }
  return { chosen, skipped };
}
