// Node imports the dashboard's browser modules from disk, as the browser imports them from /assets/. The one module
// that is not a file, outcome-table.client.js, is generated from the classifier's table: this hook hands Node the
// same text the dashboard serves. Import this file before importing a browser module.
import { registerHooks } from "node:module";
import { outcomeTableModule } from "../../src/dashboard/outcome-assets.ts";

const GENERATED = "faultline:outcome-table.client.js";

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.endsWith("/outcome-table.client.js")) return { url: GENERATED, shortCircuit: true };
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (url === GENERATED) return { format: "module", source: outcomeTableModule, shortCircuit: true };
    return nextLoad(url, context);
  },
});

/** Imports a browser module from src/dashboard/client/ by file name (plain JS, so the type checker leaves it alone). */
export async function importClient<T>(name: string): Promise<T> {
  return (await import(new URL(`../../src/dashboard/client/${name}`, import.meta.url).href)) as T;
}
