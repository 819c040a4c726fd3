// Node imports the dashboard's browser modules from disk, as the browser imports them from /assets/. The modules that
// are not files (outcome-table.client.js, wire-facts.client.js) are generated from the tables they carry: this hook
// hands Node the same text the dashboard serves. Import this file before importing a browser module.
import { registerHooks } from "node:module";
import { GENERATED_MODULES } from "../../src/dashboard/outcome-assets.ts";

const SCHEME = "faultline:";

registerHooks({
  resolve(specifier, context, nextResolve) {
    const name = specifier.slice(specifier.lastIndexOf("/") + 1);
    if (Object.hasOwn(GENERATED_MODULES, name)) return { url: `${SCHEME}${name}`, shortCircuit: true };
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    const source = url.startsWith(SCHEME) ? GENERATED_MODULES[url.slice(SCHEME.length)] : undefined;
    if (source !== undefined) return { format: "module", source, shortCircuit: true };
    return nextLoad(url, context);
  },
});

/** Imports a browser module from src/dashboard/client/ by file name (plain JS, so the type checker leaves it alone). */
export async function importClient<T>(name: string): Promise<T> {
  return (await import(new URL(`../../src/dashboard/client/${name}`, import.meta.url).href)) as T;
}
