import { UsageError } from "./errors.ts";

/** Where the commands that talk to a server find it when --server is not given. */
export const DEFAULT_SERVER = "http://127.0.0.1:8787";

/** The server: --server, else FAULTLINE_SERVER, else the address `faultline start` listens on by default. */
export function serverUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const text = option ?? (env.FAULTLINE_SERVER || DEFAULT_SERVER);
  const what = option === undefined && env.FAULTLINE_SERVER ? "FAULTLINE_SERVER" : "--server";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${what}: ${JSON.stringify(text)} is not a URL (e.g. ${DEFAULT_SERVER})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${what}: must be an http or https URL, not ${url.protocol}`);
  return url.href.replace(/\/+$/, "");
}
