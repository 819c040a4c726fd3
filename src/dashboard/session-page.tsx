import { OUTCOMES } from "../classify/index.ts";
import { clientConfigs } from "./client-config.ts";
import { Layout } from "./layout.tsx";
import { ScenarioPicker } from "./picker.tsx";
import type { CatalogueEntry } from "./scenario-groups.ts";
import { CodeBlock, CopyButton, Tabs } from "./widgets.tsx";

export interface SessionPageProps {
  session: { id: string; scenario: string; params: Record<string, unknown>; createdAt: string; upstream?: { url: string; forwardAuthorization: boolean } };
  mcpUrl: string;
  origin: string;
  scenarios: readonly CatalogueEntry[];
  /** Whether the journal has entries: the connect panel starts folded once a client has talked. */
  hasEntries: boolean;
}

function Params({ params }: { params: Record<string, unknown> }) {
  const entries = Object.entries(params);
  if (entries.length === 0) return null;
  return (
    <dl class="params-list">
      {entries.map(([name, value]) => (
        <div>
          <dt>{name}</dt>
          <dd>{JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The timeline's legend: one swatch per outcome colour (the first outcome's class), named by the outcomes sharing it. */
function outcomeLegend(): Array<[string, string]> {
  const byColour = new Map<string, [string, string]>();
  for (const [outcome, { colour, label }] of Object.entries(OUTCOMES)) {
    const item = byColour.get(colour);
    byColour.set(colour, item ? [item[0], `${item[1]} / ${label}`] : [outcome, label]);
  }
  return [...byColour.values()];
}

/** `/sessions/{id}`: how to connect, and what the client did (live journal, timeline, checks). */
export function SessionPage({ session, mcpUrl, origin, scenarios, hasEntries }: SessionPageProps) {
  const scenario = scenarios.find((s) => s.id === session.scenario);
  const api = `/api/sessions/${encodeURIComponent(session.id)}`;
  const configs = clientConfigs(mcpUrl, session.id, origin);
  return (
    <Layout title={`Session ${session.id}`} section="sessions" script="session.client.js">
      <div id="session" data-session-id={session.id} data-api={api}>
        <section class="panel session-head">
          <nav class="crumbs" aria-label="Breadcrumb">
            <a href="/">Sessions</a> <span aria-hidden="true">/</span> <span class="mono">{session.id}</span>
          </nav>
          <div class="head-row">
            <div class="head-main">
              <h1 class="mono session-id">{session.id}</h1>
              <p class="scenario-line">
                <strong>{scenario?.title ?? session.scenario}</strong> <code>{session.scenario}</code>{" "}
                {scenario ? <span class={`layer-chip layer-${scenario.layer}`}>{scenario.layer}</span> : null}
              </p>
              <Params params={session.params} />
            </div>
            <div class="head-actions">
              <span class="live" data-role="live" data-state="connecting">
                <span class="dot" aria-hidden="true"></span>
                <span data-role="live-text">connecting</span>
              </span>
              <div class="button-row">
                <button type="button" data-action="change-scenario">
                  Change scenario
                </button>
                <button type="button" data-action="reset" title="Reset counters and MCP sessions; the journal is kept">
                  Reset
                </button>
                <button type="button" class="danger" data-action="delete">
                  Delete
                </button>
              </div>
            </div>
          </div>
          <div class="mcp-url">
            <span class="label">MCP URL</span>
            <code id="mcp-url">{mcpUrl}</code>
            <CopyButton text={mcpUrl} what="the MCP URL" />
          </div>
          {session.upstream ? (
            <div class="mcp-url" data-role="upstream">
              <span class="label">Upstream</span>
              <code>{session.upstream.url}</code>
              <span class="muted small-text">
                proxy mode: requests go to this server and the scenario's faults apply on the way; Authorization is{" "}
                {session.upstream.forwardAuthorization ? "forwarded" : "not forwarded"}
              </span>
            </div>
          ) : null}
        </section>

        <details class="panel connect" open={!hasEntries}>
          <summary class="panel-head">
            <h2>Connect a client</h2>
            <span class="muted small-text">Claude Desktop, Cursor, VS Code, curl, TypeScript SDK</span>
          </summary>
          <Tabs
            id="configs"
            label="Client configurations"
            tabs={configs.map((config) => ({
              id: config.id,
              label: config.label,
              content: <CodeBlock code={config.code} caption={config.where} what={`the ${config.label} configuration`} />,
            }))}
          />
        </details>

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

        <div class="session-grid">
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
            <p class="empty muted" data-role="journal-empty">
              Waiting for the first exchange. Point a client at the MCP URL above; every request shows up here live.
            </p>
          </section>

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
        </div>

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

        <dialog class="modal" id="change-dialog" aria-labelledby="change-title">
          <header class="modal-head">
            <h2 id="change-title">Change scenario</h2>
            <button type="button" class="small ghost" data-action="close-dialog" aria-label="Close">
              ✕
            </button>
          </header>
          <ScenarioPicker scenarios={scenarios} selected={session.scenario} mode="change" sessionId={session.id} values={session.params} />
        </dialog>
      </div>
    </Layout>
  );
}
