// agents 0.32.0: an Agent (a Durable Object) that does what an application's agent does with its MCPClientManager:
// addMcpServer (connect and discover the tools), list the tools, call echo and place_order, removeMcpServer. The
// library's defaults (versionNegotiation auto: modern); era legacy sets client.versionNegotiation.mode "legacy".
// No retry of its own. POST /run?name=N with {"mcp": URL, "era": "modern" | "legacy"} answers {connected, log}, or,
// when the server asks for OAuth, {connected: false, id, authUrl, log}: the library registered its client and the
// user is to be sent to authUrl. Its callback (on this Worker, /agents/scorecard-agent/N/callback, which addMcpServer
// derives from the request's origin) is routed to the Agent, whose MCPClientManager exchanges the code and connects;
// then POST /continue?name=N with {"id": ID} waits for that connection and runs the steps.
import { Agent, getAgentByName, routeAgentRequest } from "agents";

const describe = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export class ScorecardAgent extends Agent {
  onStart() {
    // The callback's answer to the browser, instead of a redirect to the Worker's origin (which serves no page).
    this.mcp.configureOAuthCallback({
      customHandler: (result) => new Response(result.authSuccess ? "Authorized; you can close this window.\n" : `Authorization failed: ${result.authError}\n`, { status: result.authSuccess ? 200 : 400 }),
    });
  }

  async onRequest(request) {
    return new URL(request.url).pathname === "/continue" ? this.resume(await request.json()) : this.run(await request.json());
  }

  async run({ mcp, era }) {
    const options = era === "legacy" ? { client: { versionNegotiation: { mode: "legacy" } } } : {};
    try {
      const added = await this.addMcpServer("faultline", mcp, options);
      if (added.state === "authenticating" && added.authUrl) return Response.json({ connected: false, id: added.id, authUrl: added.authUrl, log: ["addMcpServer: the server asks for authorization; authUrl given"] });
      if (added.state !== "ready") throw new Error(`the connection is ${added.state}`);
      return this.steps(added.id, []);
    } catch (error) {
      return Response.json({ connected: false, log: [`connect failed: ${describe(error)}`] });
    }
  }

  /** After the browser brought the callback: the connection the library establishes from it, then the steps. */
  async resume({ id }) {
    await this.mcp.waitForConnections({ timeout: 30_000 });
    const server = this.getMcpServers().servers[id];
    if (server?.state !== "ready") return Response.json({ connected: false, log: [`connect failed after the callback: the connection is ${server?.state ?? "gone"}${server?.error ? `: ${server.error}` : ""}`] });
    return this.steps(id, ["the callback completed the authorization; the connection is ready"]);
  }

  async steps(id, log) {
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
    // The OAuth callback, /agents/scorecard-agent/N/callback, goes to the Agent named N.
    const routed = await routeAgentRequest(request, env);
    if (routed) return routed;
    const name = new URL(request.url).searchParams.get("name");
    if (request.method !== "POST" || !name) return new Response("POST /run?name=N or /continue?name=N\n", { status: 400 });
    const agent = await getAgentByName(env.SCORECARD_AGENT, name);
    return agent.fetch(request);
  },
};
