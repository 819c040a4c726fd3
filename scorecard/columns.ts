/**
 * The scorecard's columns: each client library in every era it offers, and each documented retry option that changes
 * what it does on the wire. One adapter per library in clients/; a column is the adapter and its arguments.
 */
export interface Column {
  /** The column's id: the results folder's name and the --client argument of `npm run scorecard`. */
  id: string;
  /** The npm package whose behaviour the column shows (its version is read from scorecard/package-lock.json). */
  library: string;
  /** What the adapter drives, in a few words. */
  drives: string;
  /** The protocol era the adapter asks for: modern (2026-07-28) or legacy (2025-11-25 and before). */
  era: "modern" | "legacy";
  /** The library's options the adapter sets beyond its defaults (none: the defaults). */
  options: string;
  /** The adapter and its arguments, relative to scorecard/clients/. */
  adapter: string[];
  /** A host the adapter needs running for the whole column: "wrangler" (scorecard/cloudflare-agents under wrangler dev). */
  host?: "wrangler";
  /** Whether the client does OAuth itself under the auth scenarios, or the library leaves it to the application. */
  oauth: string;
}

const OWN = "its own, through the stand-in browser (a redirect-following fetch as $BROWSER)";
/** What the adapters that hand their library an OAuth client provider share (clients/support/oauth.mjs). */
const GIVEN = "the library's, with the adapter's OAuth client provider (dynamic registration, PKCE, tokens in memory, a loopback redirect that the stand-in browser follows to)";
const SDK_FINISH = `${GIVEN}; on UnauthorizedError the adapter calls transport.finishAuth with the redirect's code and connects once more with a new transport, as the SDK's OAuth example does`;
const AI_SDK_FINISH = `${GIVEN}; its transport has no finishAuth, so on the failed connect the adapter completes with the package's exported auth() and the redirect's code, and creates a new client, as its mcp-with-auth example does`;
const AGENTS_OAUTH = "its own: addMcpServer registers the client and answers an authUrl, and the Agent takes the callback on the Worker, exchanges the code and connects; the adapter opens the stand-in browser on authUrl, then asks the Agent to go on once that connection settles (waitForConnections)";
const MASTRA_FINISH = `${GIVEN}; its documented completion, authenticate(), takes only its own MCPOAuthClientProvider, which registers no client (a pre-registered client_id or an https metadata document, neither possible with a per-session loopback authorization server), so when getServerAuthState says needs-auth the adapter completes with the package's exported auth() and the redirect's code, and creates a new MCPClient`;

export const COLUMNS: readonly Column[] = [
  { id: "sdk-v1", library: "@modelcontextprotocol/sdk", drives: "Client + StreamableHTTPClientTransport", era: "legacy", options: "defaults", adapter: ["sdk-v1.mjs"], oauth: SDK_FINISH },
  { id: "sdk-v2-legacy", library: "@modelcontextprotocol/client", drives: "Client + StreamableHTTPClientTransport", era: "legacy", options: "defaults (versionNegotiation legacy)", adapter: ["sdk-v2.mjs", "--era", "legacy"], oauth: SDK_FINISH },
  { id: "sdk-v2-modern", library: "@modelcontextprotocol/client", drives: "Client + StreamableHTTPClientTransport", era: "modern", options: "versionNegotiation: { mode: \"auto\" }", adapter: ["sdk-v2.mjs", "--era", "modern"], oauth: SDK_FINISH },
  { id: "ai-sdk-modern", library: "@ai-sdk/mcp", drives: "createMCPClient (http), tools().execute", era: "modern", options: "defaults (maxRetries 0)", adapter: ["ai-sdk.mjs", "--era", "modern"], oauth: AI_SDK_FINISH },
  { id: "ai-sdk-modern-retries", library: "@ai-sdk/mcp", drives: "createMCPClient (http), tools().execute", era: "modern", options: "maxRetries: 2", adapter: ["ai-sdk.mjs", "--era", "modern", "--max-retries", "2"], oauth: AI_SDK_FINISH },
  { id: "ai-sdk-legacy", library: "@ai-sdk/mcp", drives: "createMCPClient (http), tools().execute", era: "legacy", options: "protocolVersionDiscovery: false", adapter: ["ai-sdk.mjs", "--era", "legacy"], oauth: AI_SDK_FINISH },
  { id: "ai-sdk-legacy-retries", library: "@ai-sdk/mcp", drives: "createMCPClient (http), tools().execute", era: "legacy", options: "protocolVersionDiscovery: false, maxRetries: 2", adapter: ["ai-sdk.mjs", "--era", "legacy", "--max-retries", "2"], oauth: AI_SDK_FINISH },
  { id: "langchain", library: "@langchain/mcp-adapters", drives: "MultiServerMCPClient (http), getTools().invoke", era: "legacy", options: "defaults", adapter: ["langchain.mjs"], oauth: `${GIVEN}; MultiServerMCPClient exposes no transport, so on the failed connect the adapter completes with the SDK v1's exported auth() (the SDK its README points to) and the redirect's code, and builds a new client` },
  { id: "mastra-modern", library: "@mastra/mcp", drives: "MCPClient, listTools().execute", era: "modern", options: "defaults (probes for 2026-07-28)", adapter: ["mastra.mjs", "--era", "modern"], oauth: MASTRA_FINISH },
  { id: "mastra-legacy", library: "@mastra/mcp", drives: "MCPClient, listTools().execute", era: "legacy", options: "protocolVersion: \"legacy\"", adapter: ["mastra.mjs", "--era", "legacy"], oauth: MASTRA_FINISH },
  { id: "mcp-remote-legacy", library: "mcp-remote", drives: "proxy.js over stdio, an SDK v1 host", era: "legacy", options: "defaults (--protocol legacy)", adapter: ["mcp-remote.mjs", "--era", "legacy"], oauth: OWN },
  { id: "mcp-remote-modern", library: "mcp-remote", drives: "proxy.js over stdio, an SDK v1 host", era: "modern", options: "--protocol auto", adapter: ["mcp-remote.mjs", "--era", "modern"], oauth: OWN },
  { id: "cloudflare-agents-modern", library: "agents", drives: "MCPClientManager (addMcpServer, mcp.callTool) in an Agent, a Durable Object under wrangler dev", era: "modern", options: "defaults (versionNegotiation auto)", adapter: ["cloudflare-agents.mjs", "--era", "modern"], host: "wrangler", oauth: AGENTS_OAUTH },
  { id: "cloudflare-agents-legacy", library: "agents", drives: "MCPClientManager (addMcpServer, mcp.callTool) in an Agent, a Durable Object under wrangler dev", era: "legacy", options: "client: { versionNegotiation: { mode: \"legacy\" } }", adapter: ["cloudflare-agents.mjs", "--era", "legacy"], host: "wrangler", oauth: AGENTS_OAUTH },
  { id: "openai-agents", library: "@openai/agents", drives: "MCPServerStreamableHttp", era: "modern", options: "defaults", adapter: ["openai-agents.mjs"], oauth: `${GIVEN}; MCPServerStreamableHttp exposes no transport, so on the failed connect the adapter completes with @modelcontextprotocol/client's exported auth() and the redirect's code, and connects a new MCPServerStreamableHttp` },
];

/**
 * Checks whose judgement rests on time: a measured gap (a wait, a bound in seconds), or which requests overlapped
 * (inflight-not-amplified: how many were in flight at once depends on when the client's own tasks ran). A cell one of
 * them judged is marked timing-sensitive. The gaps compare against the scenario's own margin (Retry-After seconds, a
 * stall of tens of seconds), far wider than the scheduling noise of a loaded machine, but the numbers change from
 * run to run; what two full runs really gave differently is marked from the runs themselves (markAgainst).
 */
export const TIMING_CHECKS: ReadonlySet<string> = new Set([
  "inflight-not-amplified",
  "http-retry-after-honoured",
  "http-retry-backoff",
  "stream-retry-honoured",
  "timeout-client-bounded",
  "progress-patience",
  "progress-bounded",
  "task-poll-interval-honoured",
]);
