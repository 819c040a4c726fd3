// A client that retries a transient failure only after the Retry-After the server asked for.
import { echoWithRetries } from "./mcp.ts";

const status = await echoWithRetries(5, (failed) => {
  const seconds = Number(failed.headers.get("retry-after") ?? "1");
  return seconds * 1000 + 100;
});
process.stderr.write(`behaves: last status ${status}\n`);
