import { OUTCOMES } from "../classify/index.ts";

// The session page's panels that its browser script (client/session.client.js and the modules it imports) fills in
// live: the server renders only their frames, empty states and controls.

/** The timeline's legend: one swatch per outcome colour (the first outcome's class), named by the outcomes sharing it. */
function outcomeLegend(): Array<[string, string]> {
  const byColour = new Map<string, [string, string]>();
  for (const [outcome, { colour, label }] of Object.entries(OUTCOMES)) {
    const item = byColour.get(colour);
    byColour.set(colour, item ? [item[0], `${item[1]} / ${label}`] : [outcome, label]);
  }
  return [...byColour.values()];
}

export function TimelinePanel() {
  return (
    <section class="panel timeline-panel" aria-labelledby="timeline-title">
      <header class="panel-head">
        <h2 id="timeline-title">Timeline</h2>
        <ul class="legend" aria-label="Outcome colours">
          {outcomeLegend().map(([outcome, text]) => (
            <li>
              <span class={`swatch o-${outcome}`} aria-hidden="true"></span>
              {text}
            </li>
          ))}
          <li>
            <span class="swatch gap-fast" aria-hidden="true"></span>retry too soon
          </li>
        </ul>
      </header>
      <div class="timeline" data-role="timeline">
        <p class="empty muted">Each exchange appears here as it happens: one lane per method and tool, with the wait before each retry.</p>
      </div>
    </section>
  );
}

function JournalTable() {
  return (
    <div class="table-wrap">
      <table class="journal">
        <thead>
          <tr>
            <th scope="col" class="num">#</th>
            <th scope="col" class="col-time">Time</th>
            <th scope="col">Method / tool</th>
            <th scope="col" class="num">Status</th>
            <th scope="col">Verdict</th>
            <th scope="col" class="col-fault">Fault</th>
            <th scope="col" class="num col-duration">Duration</th>
          </tr>
        </thead>
        <tbody data-role="journal-rows"></tbody>
      </table>
    </div>
  );
}

/** The live journal; `api` is the session's API path, for the JSONL and HAR downloads. */
export function JournalPanel({ api }: { api: string }) {
  return (
    <section class="panel journal-panel" aria-labelledby="journal-title">
      <header class="panel-head">
        <h2 id="journal-title">
          Journal <span class="count" data-role="journal-count">0</span>
        </h2>
        <div class="button-row">
          <input type="search" class="search small" placeholder="Filter…" aria-label="Filter the journal" data-role="journal-filter" />
          <a class="button small ghost" href={`${api}/journal?format=jsonl`} download="">
            JSONL
          </a>
          <a class="button small ghost" href={`${api}/journal?format=har`} download="">
            HAR
          </a>
        </div>
      </header>
      <p class="muted small-text narrow-only" data-role="journal-hint">
        Time, fault and duration are in each exchange's details: tap a row.
      </p>
      <JournalTable />
      <p class="empty muted" data-role="journal-empty">
        Waiting for the first exchange. Point a client at the MCP URL above; every request shows up here live.
      </p>
    </section>
  );
}

export function ChecksPanel() {
  return (
    <section class="panel checks-panel" aria-labelledby="checks-title">
      <header class="panel-head">
        <h2 id="checks-title">Checks</h2>
        <button type="button" class="small ghost" data-action="refresh-checks">
          Refresh
        </button>
      </header>
      <p class="muted small-text">How the client behaved under this scenario, judged since it was last set or reset.</p>
      <div data-role="checks" aria-live="polite">
        <p class="muted">Loading…</p>
      </div>
    </section>
  );
}

/** One exchange's details, opened from a journal row or a timeline mark. */
export function ExchangeDrawer() {
  return (
    <div class="drawer" id="drawer" role="dialog" aria-modal="false" aria-labelledby="drawer-title" hidden>
      <header class="drawer-head">
        <h2 id="drawer-title">Exchange</h2>
        <div class="button-row">
          <button type="button" class="small ghost" data-action="drawer-prev" aria-label="Previous exchange" title="Previous (k)">
            ↑
          </button>
          <button type="button" class="small ghost" data-action="drawer-next" aria-label="Next exchange" title="Next (j)">
            ↓
          </button>
          <button type="button" class="small ghost" data-action="drawer-close" aria-label="Close" title="Close (Esc)">
            ✕
          </button>
        </div>
      </header>
      <div class="drawer-body" data-role="drawer-body"></div>
    </div>
  );
}
