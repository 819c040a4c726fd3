// A client that reaches its session and then waits forever, but exits 0 on SIGTERM, as many CLIs do: its exit code
// after a timeout must not read as a success.
import { post } from "./mcp.ts";

process.on("SIGTERM", () => process.exit(0));
const response = await post(1, "tools/list");
await response.arrayBuffer();
setInterval(() => {}, 1000);
