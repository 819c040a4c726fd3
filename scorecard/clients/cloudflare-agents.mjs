// Cloudflare agents 0.32.0: MCPClientManager inside a Durable Object under wrangler dev (scorecard/cloudflare-agents/,
// started by scorecard/run.ts, which gives its URL as SCORECARD_AGENTS_URL). This process only asks that Worker to
// run the scenario in a new Agent named after the session, and prints what the Agent did. Eras: modern (the default,
// versionNegotiation auto) and legacy.
import { era, MCP_URL } from "./common.mjs";

const chosen = era(["modern", "legacy"]);
const host = process.env.SCORECARD_AGENTS_URL;
if (!host) {
  process.stderr.write("SCORECARD_AGENTS_URL is not set: npm run scorecard starts the Worker and sets it\n");
  process.exit(2);
}
const response = await fetch(`${host}/run?name=${encodeURIComponent(process.env.FAULTLINE_SESSION_ID ?? MCP_URL)}`, {
  method: "POST",
  body: JSON.stringify({ mcp: MCP_URL, era: chosen }),
});
if (!response.ok) {
  process.stderr.write(`cloudflare-agents: the Worker answered ${response.status}: ${await response.text()}\n`);
  process.exit(1);
}
const { connected, log } = await response.json();
for (const line of log) process.stderr.write(`cloudflare-agents: ${line}\n`);
process.exit(connected ? 0 : 1);
