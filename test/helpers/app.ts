import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

/**
 * The Worker's Hono app in this Node process, for routes that need no Durable Object: `app.request(path, init, env)`
 * answers as workerd would, in milliseconds and without a server.
 *
 * Two module kinds that wrangler bundles for the Worker are taught to Node first, only in the process that imports
 * this file: the dashboard's `.tsx` (JSX compiled by esbuild as wrangler does, with hono/jsx) and `with { type: "text" }`
 * imports of its client files. The app is then imported dynamically, after the hooks are in place.
 */
registerHooks({
  load(url, context, nextLoad) {
    if (context.importAttributes.type === "text") {
      const text = readFileSync(fileURLToPath(url), "utf8");
      return { format: "module", source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
    }
    if (url.startsWith("file:") && url.endsWith(".tsx")) {
      const source = readFileSync(fileURLToPath(url), "utf8");
      const { code } = transformSync(source, { loader: "tsx", jsx: "automatic", jsxImportSource: "hono/jsx", format: "esm", sourcefile: url });
      return { format: "module", source: code, shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});

/** The part of the Hono app the tests use. Typed here: the app's own types need the Workers runtime's (tsconfig.json). */
interface App {
  request(url: string, init: RequestInit, env: unknown): Response | Promise<Response>;
}

// A computed specifier keeps tsc's Node program (tsconfig.node.json) from type-checking the Worker's sources again.
const appModule = new URL("../../src/app.ts", import.meta.url).href;
const { app } = (await import(appModule)) as { app: App };

/**
 * The bindings a route gets: none of the routes tested this way reads a var, and touching a Durable Object namespace
 * throws, so a route that needs one fails loudly here instead of answering from a fake: test it with useServer().
 */
const needsWorkerd = (binding: string) =>
  new Proxy({}, {
    get() {
      throw new Error(`${binding} is a Durable Object namespace: this route needs workerd, test it with useServer() (test/helpers/server.ts)`);
    },
  });
const env = { SESSIONS: needsWorkerd("SESSIONS"), INDEX: needsWorkerd("INDEX") };

/** Sends one request to the app in process; `path` is relative to http://127.0.0.1 unless it is a full URL. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const url = /^https?:\/\//.test(path) ? path : `http://127.0.0.1${path}`;
  return app.request(url, init, env);
}

/** POSTs a JSON body (serialised here) to the app in process. */
export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return request(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

export { app };

/** The JSON body of an answer, after asserting its status (the body is shown when it differs) and its content type. */
export async function jsonBody(res: Response, status: number): Promise<Record<string, any>> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(text) as Record<string, any>;
}
