// Served as /assets/journal.client.js. Rows of the live journal table, one per exchange.
import { clock, duration, h } from "./dom.client.js";
import { outcomeBadge, statusClass } from "./outcomes.client.js";

/** What the method column says: JSON-RPC method and tool, or what the request was when it had none. */
export function methodLabel(entry) {
  const rpc = entry.rpc ?? {};
  if (rpc.method) return { method: rpc.method, tool: rpc.toolName };
  if (rpc.kind === "response") return { method: "response", tool: rpc.id !== undefined ? `to id ${JSON.stringify(rpc.id)}` : undefined };
  if (rpc.kind === "invalid") return { method: "(not JSON-RPC)" };
  const http = entry.request?.method;
  return { method: http === "GET" ? "GET (SSE stream)" : http === "DELETE" ? "DELETE (end session)" : String(http ?? "?") };
}

/** The text a filter matches against. */
export function searchText(entry) {
  const { method, tool } = methodLabel(entry);
  return [entry.seq, method, tool, entry.response?.status, entry.verdict?.outcome, entry.fault?.kind, entry.clientInfo?.name].filter((v) => v !== undefined).join(" ").toLowerCase();
}

/** One <tr>; clicking it (or Enter) opens the drawer through the table's listener. */
export function journalRow(entry) {
  const { method, tool } = methodLabel(entry);
  const http = entry.request?.method;
  const status = entry.response?.status;
  return h(
    "tr",
    { tabindex: 0, dataset: { seq: entry.seq }, "aria-label": `Exchange ${entry.seq}: ${method}${tool ? ` ${tool}` : ""}, HTTP ${status}` },
    h("td", { class: "num mono muted", text: entry.seq }),
    h("td", { class: "mono nowrap col-time", text: clock(entry.time), title: entry.time }),
    h(
      "td",
      { class: "method-cell" },
      http && http !== "POST" ? h("span", { class: "tag", text: http }) : null,
      h("span", { class: "mono method", text: method }),
      tool ? h("span", { class: "mono tool", text: tool }) : null,
      entry.proxied ? h("span", { class: "tag proxied", text: "proxied", title: `${entry.proxied.mode}: ${entry.proxied.upstream}` }) : null,
    ),
    h("td", { class: `num mono status ${statusClass(status)}`, text: status ?? "" }),
    h("td", {}, outcomeBadge(entry.verdict?.outcome)),
    h("td", { class: "fault-cell col-fault" }, entry.fault ? h("span", { class: "mono fault", title: entry.fault.rule, text: entry.fault.kind }) : h("span", { class: "muted", text: "—" })),
    h("td", { class: "num mono nowrap col-duration", text: duration(entry.durationMs) }),
  );
}
