import { OUTCOMES } from "../classify/index.ts";
import { TIMING } from "../wire/facts.ts";

/**
 * /assets/outcome-table.client.js: the classifier's outcome table as a browser module, so the dashboard's labels,
 * colours and idea of success come from the one table in src/classify/outcome.ts.
 */
export const outcomeTableModule = `// Generated from OUTCOMES in src/classify/outcome.ts by src/dashboard/outcome-assets.ts.
export const OUTCOMES = ${JSON.stringify(OUTCOMES, null, 2)};
`;

/**
 * /assets/wire-facts.client.js: the timing thresholds of the wire facts (src/wire/facts.ts) as a browser module, so
 * the timeline flags a retry as "no backoff" below the same threshold the checks warn at.
 */
export const wireFactsModule = `// Generated from TIMING in src/wire/facts.ts by src/dashboard/outcome-assets.ts.
export const TIMING = ${JSON.stringify(TIMING, null, 2)};
`;

/** The browser modules generated here rather than read from client/, by the name they are served and imported as. */
export const GENERATED_MODULES: Readonly<Record<string, string>> = {
  "outcome-table.client.js": outcomeTableModule,
  "wire-facts.client.js": wireFactsModule,
};

/** `.o-OUTCOME { --c: var(--o-colour) }` for each outcome: the badge, mark and swatch colour, from the same table. */
export const outcomeCss = Object.entries(OUTCOMES)
  .map(([outcome, { colour }]) => `.o-${outcome} {\n  --c: var(--o-${colour});\n}`)
  .join("\n");
