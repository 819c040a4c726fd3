import { npmRun } from "../helpers/npm-start.ts";
import { startUpstream } from "../helpers/upstream.ts";
import { MODERN, modernMeta } from "../helpers/server.ts";
const up = await startUpstream({ responseMode: "json" });
const s = await npmRun((process.argv[2] ?? "start") as "start");
try {
  const created = await (await fetch(`${s.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: "baseline", upstream: up.url }) })).json() as any;
  console.log(created);
  const r = await fetch(created.mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "lookup" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "lookup", arguments: { key: "x" }, _meta: modernMeta() } }) });
  console.log(r.status, await r.text());
} finally { await s.close(); await up.close(); }
