import { OUTCOMES } from "../classify/index.ts";

/**
 * /assets/outcome-table.client.js: the classifier's outcome table as a browser module, so the dashboard's labels,
 * colours and idea of success come from the one table in src/classify/outcome.ts.
 */
export const outcomeTableModule = `// Generated from OUTCOMES in src/classify/outcome.ts by src/dashboard/outcome-assets.ts.
export const OUTCOMES = ${JSON.stringify(OUTCOMES, null, 2)};
`;

/** `.o-OUTCOME { --c: var(--o-colour) }` for each outcome: the badge, mark and swatch colour, from the same table. */
export const outcomeCss = Object.entries(OUTCOMES)
  .map(([outcome, { colour }]) => `.o-${outcome} {\n  --c: var(--o-${colour});\n}`)
  .join("\n");
