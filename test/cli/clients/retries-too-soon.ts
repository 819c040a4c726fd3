// A client that ignores Retry-After and retries at once.
import { echoWithRetries } from "./mcp.ts";

const status = await echoWithRetries(5, () => 0);
process.stderr.write(`retries-too-soon: last status ${status}\n`);
