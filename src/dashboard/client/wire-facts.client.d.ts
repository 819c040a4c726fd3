// /assets/wire-facts.client.js is generated from the wire facts (src/dashboard/outcome-assets.ts); this gives the
// browser modules that import it the table's type.
import type { TIMING as Timing } from "../../wire/facts.ts";

export declare const TIMING: typeof Timing;
