// Served as /assets/drawer.client.js. The detail drawer: one exchange's request, response, SSE events and verdict.
import { clock, duration, h, replace } from "./dom.client.js";
import { bodyView, jsonBlock, tryJson } from "./json-view.client.js";
import { methodLabel } from "./journal.client.js";
import { outcomeBadge, statusClass } from "./outcomes.client.js";
import { verdictCard } from "./verdict-view.client.js";

const shellQuote = (word) => `'${String(word).replace(/'/g, `'\\''`)}'`;
const SKIPPED_HEADERS = new Set(["host", "content-length", "connection", "accept-encoding", "cf-ray", "cf-visitor", "cf-ipcountry", "x-forwarded-proto"]);

/** The request again, as a curl command (credentials were redacted when journalled, so they stay out). */
export function curlFor(entry) {
  const request = entry.request ?? {};
  const parts = [`curl -si ${shellQuote(`${location.origin}${request.url ?? ""}`)}`];
  if (request.method && request.method !== "POST" && request.method !== "GET") parts.push(`-X ${request.method}`);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (SKIPPED_HEADERS.has(name) || String(value).includes("[redacted]")) continue;
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (request.body?.text) parts.push(`--data-raw ${shellQuote(request.body.text)}`);
  return parts.join(" \\\n  ");
}

function headersTable(headers) {
  const rows = Object.entries(headers ?? {});
  if (rows.length === 0) return h("p", { class: "muted", text: "(no headers)" });
  return h("table", { class: "headers" }, h("tbody", {}, rows.map(([name, value]) => h("tr", {}, h("th", { scope: "row", text: name }), h("td", { text: value })))));
}

function sseList(events) {
  return h(
    "ol",
    { class: "sse-events" },
    events.map((event, i) => {
      const parsed = tryJson(event.data);
      const fields = [event.event ? `event: ${event.event}` : "event: message", event.id !== undefined ? `id: ${event.id}` : null, event.retry !== undefined ? `retry: ${event.retry}` : null].filter(Boolean);
      return h(
        "li",
        {},
        h("div", { class: "sse-head mono small-text" }, h("span", { class: "muted", text: `${i + 1}.` }), ` ${fields.join(" · ")}`),
        event.data === "" ? h("p", { class: "muted small-text", text: "(empty data: a priming event)" }) : parsed ? jsonBlock(parsed.value) : h("pre", { class: "raw" }, h("code", { text: event.data })),
      );
    }),
  );
}

function facts(pairs) {
  return h(
    "dl",
    { class: "facts" },
    pairs.filter(([, value]) => value !== undefined && value !== null && value !== "").map(([name, value]) => h("div", {}, h("dt", { text: name }), h("dd", {}, value instanceof Node ? value : String(value)))),
  );
}

function section(title, ...children) {
  return h("section", { class: "drawer-section" }, h("h3", { text: title }), ...children);
}

function clientText(info) {
  if (!info || typeof info !== "object") return undefined;
  const name = typeof info.name === "string" ? info.name : JSON.stringify(info.name ?? "");
  return typeof info.version === "string" ? `${name} ${info.version}` : name;
}

/** The drawer's heading: seq, method, tool and verdict. */
export function drawerTitle(entry) {
  const { method, tool } = methodLabel(entry);
  return [
    h("span", { class: "mono muted", text: `#${entry.seq}` }),
    h("span", { class: "mono", text: method }),
    tool ? h("span", { class: "mono tool", text: tool }) : null,
    outcomeBadge(entry.verdict?.outcome),
  ];
}

const day = (iso) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
};

function retryFact(retry) {
  if (!retry) return undefined;
  const what = retry.followUp ? "follow-up of" : "retry of";
  const text = `${what} #${retry.from} (${retry.after}) after ${duration(retry.ms)}`;
  if (!retry.tooSoon) return text;
  const asked = retry.advisedMs !== undefined ? `Retry-After asked ${duration(retry.advisedMs)}` : "no backoff";
  return h("span", { class: "error-text", text: `${text}: too soon (${asked})` });
}

/** The drawer's content for one entry; `retry` is the timeline's gap that ends at it, if it was a retry. */
export function drawerContent(entry, { onCopy, retry }) {
  const request = entry.request ?? {};
  const response = entry.response ?? {};
  return [
    facts([
      ["Time", h("span", { title: entry.time, text: `${day(entry.time)} ${clock(entry.time)}` })],
      ["Duration", duration(entry.durationMs)],
      ["Retry", retryFact(retry)],
      ["HTTP", h("span", { class: `mono ${statusClass(response.status)}`, text: `${request.method ?? ""} → ${response.status ?? ""}` })],
      ["JSON-RPC id", entry.rpc?.id !== undefined ? JSON.stringify(entry.rpc.id) : undefined],
      ["Kind", entry.rpc?.kind],
      ["Era", entry.era ? `${entry.era}${entry.protocolVersion ? ` (${entry.protocolVersion})` : ""}` : entry.protocolVersion],
      ["MCP session", entry.mcpSessionId],
      ["Client", clientText(entry.clientInfo)],
      ["Scenario", entry.scenario],
    ]),
    h(
      "div",
      { class: "button-row" },
      h("button", { type: "button", class: "small ghost", text: "Copy as curl", onclick: () => onCopy(curlFor(entry), "curl command") }),
      h("button", { type: "button", class: "small ghost", text: "Copy entry JSON", onclick: () => onCopy(JSON.stringify(entry, null, 2), "entry") }),
    ),
    entry.fault ? section("Fault injected", facts([["Kind", h("code", { text: entry.fault.kind })], ["Rule", entry.fault.rule]]), jsonBlock(entry.fault.detail ?? {})) : null,
    entry.verdict ? section("Verdict", verdictCard(entry.verdict)) : null,
    section("Request", h("p", { class: "mono small-text", text: `${request.method ?? ""} ${request.url ?? ""}` }), headersTable(request.headers), bodyView(request.body)),
    section(
      "Response",
      h("p", { class: `mono small-text ${statusClass(response.status)}`, text: `HTTP ${response.status ?? ""}` }),
      headersTable(response.headers),
      Array.isArray(response.sseEvents) ? h("div", {}, h("h4", { text: `SSE events (${response.sseEvents.length})` }), sseList(response.sseEvents)) : null,
      h("h4", { text: Array.isArray(response.sseEvents) ? "Raw stream" : "Body" }),
      bodyView(response.body),
    ),
    entry.clientInfo ? section("Client info", jsonBlock(entry.clientInfo)) : null,
  ];
}

/**
 * Wires the drawer element. `entryAt(seq)` returns an entry, `retryOf(seq)` the retry gap ending at it;
 * `step(seq, delta)` the seq of the neighbour shown in the table; `onChange(seq | undefined)` reports what is open.
 */
export function createDrawer(root, { entryAt, retryOf, step, onChange, onCopy }) {
  const body = root.querySelector("[data-role=drawer-body]");
  const title = root.querySelector("#drawer-title");
  let current;
  let opener;

  const show = (seq) => {
    const entry = entryAt(seq);
    if (!entry) return;
    if (root.hidden) opener = document.activeElement;
    current = seq;
    replace(title, ...drawerTitle(entry));
    replace(body, ...drawerContent(entry, { onCopy, retry: retryOf?.(seq) }));
    body.scrollTop = 0;
    root.hidden = false;
    onChange(seq);
  };
  const close = () => {
    if (root.hidden) return;
    root.hidden = true;
    current = undefined;
    onChange(undefined);
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
  };
  const move = (delta) => {
    const next = current === undefined ? undefined : step(current, delta);
    if (next !== undefined) show(next);
  };

  root.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    const action = target instanceof HTMLElement ? target.dataset.action : undefined;
    if (action === "drawer-close") close();
    if (action === "drawer-prev") move(-1);
    if (action === "drawer-next") move(1);
  });
  document.addEventListener("keydown", (event) => {
    if (root.hidden || (event.target instanceof Element && event.target.closest("input, textarea, select, dialog[open]"))) return;
    if (event.key === "Escape") close();
    if (event.key === "j") move(1);
    if (event.key === "k") move(-1);
  });
  return { show, close, refresh: () => current !== undefined && show(current), get current() { return current; } };
}
