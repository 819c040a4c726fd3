// /assets/outcome-table.client.js is generated from the classifier's table (src/dashboard/outcome-assets.ts); this
// gives the browser modules that import it the table's type.
import type { OUTCOMES as Table } from "../../classify/index.ts";

export declare const OUTCOMES: typeof Table;
