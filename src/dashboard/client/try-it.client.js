// Served as /assets/try-it.client.js. The session page's "Try it": one 2026-07-28 tools/call of `echo` sent from the
// page to the session's own MCP URL (same origin, so the CSP's connect-src 'self' and the MCP Origin rule admit it),
// so a user sees what the scenario does to a call before wiring up a client.
import { h, replace } from "./dom.client.js";
import { jsonBlock } from "./json-view.client.js";

const VERSION = "2026-07-28";

/** The JSON-RPC request "Try it" sends; `marker` (in the echoed text) lets the page find its journal entry. */
export function tryItRequest(marker) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: `Try it from the dashboard (${marker})` },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "faultline-dashboard-try-it", version: "1.0.0" },
      },
    },
  };
}

/** Sends the call; resolves to the HTTP status and the body's text (status 0 and the reason when nothing answered). */
export async function sendTryIt(mcpUrl, marker) {
  try {
    const response = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": "echo" },
      body: JSON.stringify(tryItRequest(marker)),
    });
    return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
  } catch (error) {
    return { status: 0, type: "", text: `Could not reach the MCP URL: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The answer's body, focusable so a keyboard can scroll it (WCAG 2.1.1). */
function bodyBlock(answer) {
  const pre = bodyPre(answer);
  pre.setAttribute("tabindex", "0");
  pre.setAttribute("aria-label", "The answer's body");
  return pre;
}

/** The answer's body: indented JSON when it is JSON, else the text as it came (an SSE stream, an HTML page). */
function bodyPre(answer) {
  if (answer.type.startsWith("application/json")) {
    try {
      return jsonBlock(JSON.parse(answer.text));
    } catch {
      // not JSON after all: shown as text below
    }
  }
  return h("pre", { class: "json" }, h("code", { text: answer.text || "(empty body)" }));
}

/** Shows the answer in `container`; the journal entry's button is added by showTryItEntry once the entry arrives. */
export function showTryItAnswer(container, answer) {
  replace(
    container,
    h("p", { class: "try-it-head" }, h("strong", { "data-role": "try-it-status", text: answer.status ? `HTTP ${answer.status}` : "No answer" }), h("span", { class: "muted small-text", text: answer.type ? ` ${answer.type.split(";")[0]}` : "" }), h("span", { "data-role": "try-it-slot" })),
    bodyBlock(answer),
  );
}

/** Adds a button that opens the call's journal entry. */
export function showTryItEntry(container, seq, open) {
  const slot = container.querySelector("[data-role=try-it-slot]");
  if (!slot) return;
  replace(slot, " ", h("button", { type: "button", class: "small ghost", "data-role": "try-it-entry", dataset: { seq }, text: `Journal entry #${seq}`, onclick: () => open(seq) }));
}
