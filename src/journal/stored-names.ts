import { boundedClientInfo, cutHeaderValues, cutName, cutStrings, MAX_STORED_DERIVED, MAX_STORED_HEADER } from "../base/stored-bounds.ts";
import type { Verdict } from "../classify/index.ts";
import type { NewJournalEntry, ProxiedEntry } from "./entry.ts";

/**
 * An entry with every client- or upstream-chosen name bounded (src/base/stored-bounds.ts): the JSON-RPC method, id
 * and tool name, the MCP session id and protocol version, header names and values, the URL, SSE event ids and names,
 * clientInfo, and the classifier's verdicts, which quote them (boundedVerdict). Bodies are cut at the body cap
 * already (capture.ts). The store bounds every entry with it before anything is derived from the entry (call key,
 * attempt, the checks' projection, the `method` column).
 */
export function boundedNames(entry: NewJournalEntry): NewJournalEntry {
  const { rpc, request, response, proxied, clientInfo, mcpSessionId, protocolVersion, verdict } = entry;
  return {
    ...entry,
    request: { ...request, url: cutName(request.url, MAX_STORED_HEADER), headers: cutHeaderValues(request.headers) },
    response: {
      ...response,
      headers: cutHeaderValues(response.headers),
      ...(response.sseEvents
        ? { sseEvents: response.sseEvents.map((e) => ({ ...e, ...(e.id !== undefined ? { id: cutName(e.id) } : {}), ...(e.event !== undefined ? { event: cutName(e.event) } : {}) })) }
        : {}),
    },
    rpc: {
      ...rpc,
      ...(typeof rpc.id === "string" ? { id: cutName(rpc.id) } : {}),
      ...(rpc.method !== undefined ? { method: cutName(rpc.method) } : {}),
      ...(rpc.toolName !== undefined ? { toolName: cutName(rpc.toolName) } : {}),
    },
    ...(mcpSessionId !== undefined ? { mcpSessionId: cutName(mcpSessionId) } : {}),
    ...(protocolVersion !== undefined ? { protocolVersion: cutName(protocolVersion) } : {}),
    ...(clientInfo ? { clientInfo: boundedClientInfo(clientInfo) } : {}),
    ...(proxied ? { proxied: boundedProxied(proxied) } : {}),
    ...(verdict ? { verdict: boundedVerdict(verdict) } : {}),
  };
}

/** Fields of a verdict kept when it is too large even with its strings cut: what the checks and the views read. */
const VERDICT_CORE = ["outcome", "layer", "status", "code", "retry", "findings", "classifierVersion", "protocolVersion", "protocolVersionSource", "transport", "id", "method"];

/**
 * A verdict as stored: its strings cut (it quotes the method, an error's message and data), and when its JSON is still
 * over MAX_STORED_DERIVED, only its core fields and a note.
 */
export function boundedVerdict(verdict: Verdict): Verdict {
  const cut = cutStrings(verdict);
  const chars = JSON.stringify(cut).length;
  if (chars <= MAX_STORED_DERIVED) return cut;
  const core = Object.fromEntries(Object.entries(cut).filter(([k]) => VERDICT_CORE.includes(k)));
  return { ...(core as Pick<Verdict, "outcome" | "layer" | "retry" | "findings">), _faultline: `verdict reduced: ${chars} characters of JSON, over the ${MAX_STORED_DERIVED} kept` };
}

function boundedProxied(proxied: ProxiedEntry): ProxiedEntry {
  const { request, response, tool, verdict } = proxied;
  return {
    ...proxied,
    ...(request ? { request: { headers: cutHeaderValues(request.headers) } } : {}),
    ...(response ? { response: { ...response, headers: cutHeaderValues(response.headers) } } : {}),
    ...(tool ? { tool: { ...tool, name: cutName(tool.name) } } : {}),
    ...(verdict ? { verdict: boundedVerdict(verdict) } : {}),
  };
}
