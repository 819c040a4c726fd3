// Served as /assets/session.client.js. The entry of /sessions/{id}: live journal (SSE), timeline, checks,
// detail drawer, and the change / reset / expire-MCP-sessions / delete actions.
import { $, $$, api, copyText, toast } from "./dom.client.js";
import { wireCommon } from "./common.client.js";
import { loadChecks } from "./checks.client.js";
import { createDrawer } from "./drawer.client.js";
import { journalRow, searchText } from "./journal.client.js";
import { wirePicker } from "./picker.client.js";
import { layoutTimeline } from "./timeline-layout.client.js";
import { renderTimeline } from "./timeline.client.js";
import { sendTryIt, showTryItAnswer, showTryItEntry } from "./try-it.client.js";

/** Rows kept in the table and marks on the timeline; older entries stay in the exports. */
const MAX_ENTRIES = 1000;

wireCommon();
const root = $("#session");
const apiBase = root.dataset.api;
const rows = $("[data-role=journal-rows]", root);
const empty = $("[data-role=journal-empty]", root);
const count = $("[data-role=journal-count]", root);
const filter = $("[data-role=journal-filter]", root);
const timeline = $("[data-role=timeline]", root);
const checks = $("[data-role=checks]", root);
const live = $("[data-role=live]", root);

const entries = new Map();

// ---- drawer ----

const allRows = () => $$("tr[data-seq]", rows);
const visibleRows = () => allRows().filter((row) => !row.hidden);
const drawer = createDrawer($("#drawer"), {
  entryAt: (seq) => entries.get(seq),
  retryOf: (seq) => layoutTimeline([...entries.values()]).gaps.find((gap) => gap.to === seq),
  step: (seq, delta) => {
    const list = visibleRows();
    const index = list.findIndex((row) => Number(row.dataset.seq) === seq);
    const next = list[index + delta];
    return next ? Number(next.dataset.seq) : undefined;
  },
  onChange: (seq) => {
    for (const row of $$("tr.selected", rows)) row.classList.remove("selected");
    if (seq !== undefined) {
      const row = $(`tr[data-seq="${seq}"]`, rows);
      row?.classList.add("selected");
      row?.scrollIntoView({ block: "nearest" });
    }
    scheduleTimeline();
  },
  onCopy: async (text, what) => toast((await copyText(text)) ? `Copied the ${what}` : `Could not copy the ${what}`),
});

rows.addEventListener("click", (event) => {
  const row = event.target instanceof Element ? event.target.closest("tr[data-seq]") : null;
  if (row) drawer.show(Number(row.dataset.seq));
});
rows.addEventListener("keydown", (event) => {
  const row = event.target instanceof Element ? event.target.closest("tr[data-seq]") : null;
  if (row && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    drawer.show(Number(row.dataset.seq));
  }
});

// ---- timeline, throttled to one drawing per frame ----

let timelineQueued = false;
function scheduleTimeline() {
  if (timelineQueued) return;
  timelineQueued = true;
  requestAnimationFrame(() => {
    timelineQueued = false;
    if (entries.size === 0) return;
    renderTimeline(timeline, [...entries.values()], { onSelect: (seq) => drawer.show(seq), selected: drawer.current });
  });
}
new ResizeObserver(() => scheduleTimeline()).observe(timeline);

// ---- checks, refreshed shortly after new entries ----

let checksTimer;
let checksAsked = 0;
function refreshChecks() {
  const ask = ++checksAsked;
  return loadChecks(checks, apiBase, (seq) => drawer.show(seq), entries.size ? Math.max(...entries.keys()) : 0, () => ask === checksAsked);
}
function scheduleChecks() {
  clearTimeout(checksTimer);
  checksTimer = setTimeout(refreshChecks, 400);
}
refreshChecks();

// ---- the journal ----

function applyFilter(row) {
  const terms = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  const entry = entries.get(Number(row.dataset.seq));
  row.hidden = terms.length > 0 && !(entry && terms.every((term) => searchText(entry).includes(term)));
}
filter.addEventListener("input", () => allRows().forEach(applyFilter));

// ---- try it: the marker of the call in flight, matched against arriving entries ----

const tryItResult = $("[data-role=try-it-result]", root);
let tryItMarker;
let tryItSeq;
function noteTryIt(entry) {
  if (!tryItMarker || !String(entry.request?.body?.text ?? "").includes(tryItMarker)) return;
  tryItSeq = entry.seq;
  showTryItEntry(tryItResult, entry.seq, (seq) => drawer.show(seq));
}
async function tryIt(button) {
  button.disabled = true;
  tryItMarker = `try-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  tryItSeq = undefined;
  const answer = await sendTryIt($("#mcp-url", root).textContent, tryItMarker);
  showTryItAnswer(tryItResult, answer);
  // The entry may have arrived on the stream before the answer's body was read.
  for (const entry of entries.values()) noteTryIt(entry);
  button.disabled = false;
}

function add(entry) {
  if (!entry || typeof entry.seq !== "number" || entries.has(entry.seq)) return;
  entries.set(entry.seq, entry);
  if (tryItSeq === undefined) noteTryIt(entry);
  const row = journalRow(entry);
  applyFilter(row);
  // Newest first: find the first row with a smaller seq (entries can arrive out of order after a reconnect).
  const before = allRows().find((other) => Number(other.dataset.seq) < entry.seq);
  rows.insertBefore(row, before ?? null);
  if (entries.size > MAX_ENTRIES) {
    const oldest = Math.min(...entries.keys());
    entries.delete(oldest);
    $(`tr[data-seq="${oldest}"]`, rows)?.remove();
  }
  empty.hidden = true;
  count.textContent = String(entries.size);
  scheduleTimeline();
  scheduleChecks();
}

function setLive(state, text) {
  live.dataset.state = state;
  $("[data-role=live-text]", live).textContent = text;
}

const stream = new EventSource(`${apiBase}/journal/stream`);
stream.addEventListener("open", () => setLive("live", "live"));
stream.addEventListener("error", () => setLive(stream.readyState === EventSource.CLOSED ? "closed" : "connecting", stream.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting…"));
stream.addEventListener("entry", (event) => {
  try {
    add(JSON.parse(event.data));
  } catch (error) {
    console.warn("skipped a journal event that is not JSON", error);
  }
});
addEventListener("pagehide", () => stream.close());

// ---- actions ----

const dialog = $("#change-dialog");
const picker = $("#picker-change");
if (picker) wirePicker(picker, { onApplied: () => location.reload() });
// A click on the backdrop (the dialog element itself, outside its content) closes it.
dialog.addEventListener("click", (event) => {
  if (event.target === dialog) dialog.close();
});

let deleteArmed;
root.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-action]") : null;
  const action = button?.dataset.action;
  if (action === "change-scenario") dialog.showModal();
  if (action === "close-dialog") dialog.close();
  if (action === "refresh-checks") refreshChecks();
  if (action === "try-it") await tryIt(button);
  if (action === "reset") {
    const response = await api("POST", `${apiBase}/reset`);
    toast(response.ok ? "Counters and MCP sessions reset; checks start over" : (response.data?.error?.message ?? "Reset failed"), response.ok ? "info" : "error");
    refreshChecks();
  }
  if (action === "expire-mcp-sessions") {
    const response = await api("POST", `${apiBase}/expire-mcp-sessions`);
    const ended = response.data?.ended;
    const said = ended ? `MCP sessions expired: ${ended.mcpSessions} ended, ${ended.streams} open streams closed` : undefined;
    toast(response.ok ? said : (response.data?.error?.message ?? "Expiring the MCP sessions failed"), response.ok ? "info" : "error");
  }
  if (action === "delete") {
    // Two clicks instead of confirm(): no modal browser dialog, and the second click is deliberate.
    if (deleteArmed !== button) {
      deleteArmed = button;
      button.textContent = "Click again to delete";
      setTimeout(() => {
        if (deleteArmed === button) {
          deleteArmed = undefined;
          button.textContent = "Delete";
        }
      }, 4000);
      return;
    }
    const response = await api("DELETE", apiBase);
    if (response.ok || response.status === 404) location.assign("/");
    else toast(response.data?.error?.message ?? "Delete failed", "error");
  }
});
