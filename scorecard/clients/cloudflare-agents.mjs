// Cloudflare agents 0.32.0: MCPClientManager inside a Durable Object under wrangler dev (scorecard/cloudflare-agents/,
// started by scorecard/run.ts, which gives its URL as SCORECARD_AGENTS_URL). This process only asks that Worker to
// run the scenario in a new Agent named after the session, and prints what the Agent did. Eras: modern (the default,
// versionNegotiation auto) and legacy. OAuth is the library's own flow: when addMcpServer answers an authUrl, this
// process is the user's browser (the stand-in, support/browse.mjs) on it, whose last redirect is the Agent's callback;
// the library then exchanges the code and connects, and the Worker is asked to go on once.
import { era, MCP_URL, say } from "./common.mjs";
import { browse } from "./support/browse.mjs";

const chosen = era(["modern", "legacy"]);
const host = process.env.SCORECARD_AGENTS_URL;
if (!host) {
  process.stderr.write("SCORECARD_AGENTS_URL is not set: npm run scorecard starts the Worker and sets it\n");
  process.exit(2);
}
const name = encodeURIComponent(process.env.FAULTLINE_SESSION_ID ?? MCP_URL);

/** One request to the Agent; what it did is printed, and a failed answer ends the adapter. */
async function ask(path, body) {
  const response = await fetch(`${host}/${path}?name=${name}`, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) {
    process.stderr.write(`cloudflare-agents: the Worker answered ${response.status}: ${await response.text()}\n`);
    process.exit(1);
  }
  const answer = await response.json();
  for (const line of answer.log) process.stderr.write(`cloudflare-agents: ${line}\n`);
  return answer;
}

let answer = await ask("run", { mcp: MCP_URL, era: chosen });
if (!answer.connected && answer.authUrl) {
  say(`oauth: the library sends the user to ${new URL(answer.authUrl).pathname}; the stand-in browser follows`);
  await browse(answer.authUrl, (status, hop) => say(`oauth: browser ${status} ${new URL(hop).origin}${new URL(hop).pathname}`));
  answer = await ask("continue", { id: answer.id });
}
process.exit(answer.connected ? 0 : 1);
