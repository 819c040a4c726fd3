// agents 0.32.0: an Agent (a Durable Object) that does what an application's agent does with its MCPClientManager:
// addMcpServer (connect and discover the tools), list the tools, call echo and place_order, removeMcpServer. The
// library's defaults (versionNegotiation auto: modern); era legacy sets client.versionNegotiation.mode "legacy".
// No retry of its own. POST /run?name=N with {"mcp": URL, "era": "modern" | "legacy"} answers {connected, log}.
import { Agent, getAgentByName } from "agents";

const describe = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export class ScorecardAgent extends Agent {
  async onRequest(request) {
    const { mcp, era } = await request.json();
    const log = [];
    const options = era === "legacy" ? { client: { versionNegotiation: { mode: "legacy" } } } : {};
    let id;
    try {
      const added = await this.addMcpServer("faultline", mcp, options);
      if (added.state !== "ready") throw new Error(`the connection is ${added.state}${added.authUrl ? ` (authorize at ${added.authUrl})` : ""}`);
      id = added.id;
    } catch (error) {
      return Response.json({ connected: false, log: [`connect failed: ${describe(error)}`] });
    }
    const step = async (name, call) => {
      try {
        await call();
        log.push(`${name} ok`);
      } catch (error) {
        log.push(`${name} failed: ${describe(error)}`);
      }
    };
    await step("tools/list", async () => {
      const names = this.mcp.listTools().map((tool) => tool.name);
      if (!names.includes("echo")) throw new Error(`listed ${names.join(", ") || "no tools"}`);
    });
    await step("echo", () => this.mcp.callTool({ serverId: id, name: "echo", arguments: { text: "hello" } }));
    await step("place_order", () => this.mcp.callTool({ serverId: id, name: "place_order", arguments: { item: "book", quantity: 1 } }));
    await step("close", () => this.removeMcpServer(id));
    return Response.json({ connected: true, log });
  }
}

export default {
  async fetch(request, env) {
    const name = new URL(request.url).searchParams.get("name");
    if (request.method !== "POST" || !name) return new Response("POST /run?name=N\n", { status: 400 });
    const agent = await getAgentByName(env.SCORECARD_AGENT, name);
    return agent.fetch(request);
  },
};
