import { clientConfigs } from "./client-config.ts";
import { Layout } from "./layout.tsx";
import { ScenarioPicker } from "./picker.tsx";
import type { CatalogueEntry } from "./scenario-groups.ts";
import { ChecksPanel, ExchangeDrawer, JournalPanel, TimelinePanel } from "./session-panels.tsx";
import { CodeBlock, CopyButton, Tabs } from "./widgets.tsx";

type Session = SessionPageProps["session"];

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

/** The session's id, its scenario (title, id, layer) and its params. */
function HeadMain({ session, scenario }: { session: Session; scenario: CatalogueEntry | undefined }) {
  return (
    <div class="head-main">
      {/* The live indicator belongs to the title, so it stays beside it however the params below wrap. */}
      <div class="title-row">
        <h1 class="mono session-id">{session.id}</h1>
        <LiveIndicator />
      </div>
      <p class="scenario-line">
        <strong>{scenario?.title ?? session.scenario}</strong> <code>{session.scenario}</code>{" "}
        {scenario ? <span class={`layer-chip layer-${scenario.layer}`}>{scenario.layer}</span> : null}
      </p>
      <Params params={session.params} />
    </div>
  );
}

/** Whether the journal's live stream is connected (the script sets data-state and the text). */
function LiveIndicator() {
  return (
    <span class="live" data-role="live" data-state="connecting">
      <span class="dot" aria-hidden="true"></span>
      <span data-role="live-text">connecting</span>
    </span>
  );
}

/** The session's buttons (the script wires each data-action). */
function HeadActions() {
  return (
    <div class="head-actions">
      <div class="button-row">
        <button type="button" data-action="change-scenario">
          Change scenario
        </button>
        <button type="button" data-action="reset" title="Reset counters and MCP sessions; the journal is kept">
          Reset
        </button>
        <button type="button" data-action="expire-mcp-sessions" title="End every MCP session now, as a server restart would, open streams included; counters and the journal are kept">
          Expire MCP sessions
        </button>
        <button type="button" class="danger" data-action="delete">
          Delete
        </button>
      </div>
    </div>
  );
}

/** In proxy mode, the upstream the requests go to and whether Authorization is forwarded. */
function Upstream({ upstream }: { upstream: NonNullable<Session["upstream"]> }) {
  return (
    <div class="mcp-url" data-role="upstream">
      <span class="label">Upstream</span>
      <code>{upstream.url}</code>
      <span class="muted small-text">
        proxy mode: requests go to this server and the scenario's faults apply on the way; Authorization is{" "}
        {upstream.forwardAuthorization ? "forwarded" : "not forwarded"}
      </span>
    </div>
  );
}

/** "Try it": one tools/call of echo through the MCP URL, sent by the page's script, its answer shown below. */
function TryIt() {
  return (
    <div class="try-it">
      <div class="try-it-row">
        <button type="button" data-action="try-it">
          Try it: call <code>echo</code>
        </button>
        <span class="muted small-text">Sends one <code>tools/call</code> to the MCP URL, so you see what this scenario does before wiring up a client.</span>
      </div>
      <div data-role="try-it-result" aria-live="polite"></div>
    </div>
  );
}

function SessionHead({ session, scenario, mcpUrl }: { session: Session; scenario: CatalogueEntry | undefined; mcpUrl: string }) {
  return (
    <section class="panel session-head">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="/">Sessions</a> <span aria-hidden="true">/</span> <span class="mono">{session.id}</span>
      </nav>
      <div class="head-row">
        <HeadMain session={session} scenario={scenario} />
        <HeadActions />
      </div>
      <div class="mcp-url">
        <span class="label">MCP URL</span>
        <code id="mcp-url">{mcpUrl}</code>
        <CopyButton text={mcpUrl} what="the MCP URL" />
      </div>
      {session.upstream ? <Upstream upstream={session.upstream} /> : null}
      <TryIt />
    </section>
  );
}

/** One tab per client configuration; open until the journal has entries. */
function ConnectPanel({ sessionId, mcpUrl, origin, open }: { sessionId: string; mcpUrl: string; origin: string; open: boolean }) {
  const configs = clientConfigs(mcpUrl, sessionId, origin);
  return (
    <details class="panel connect" open={open}>
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
  );
}

function ChangeScenarioDialog({ session, scenarios }: { session: Session; scenarios: readonly CatalogueEntry[] }) {
  return (
    <dialog class="modal" id="change-dialog" aria-labelledby="change-title">
      <header class="modal-head">
        <h2 id="change-title">Change scenario</h2>
        <button type="button" class="small ghost" data-action="close-dialog" aria-label="Close">
          ✕
        </button>
      </header>
      <ScenarioPicker scenarios={scenarios} selected={session.scenario} mode="change" sessionId={session.id} values={session.params} />
    </dialog>
  );
}

/** `/sessions/{id}`: how to connect, and what the client did (live journal, timeline, checks). */
export function SessionPage({ session, mcpUrl, origin, scenarios, hasEntries }: SessionPageProps) {
  const scenario = scenarios.find((s) => s.id === session.scenario);
  const api = `/api/sessions/${encodeURIComponent(session.id)}`;
  return (
    <Layout title={`Session ${session.id}`} section="sessions" script="session.client.js">
      <div id="session" data-session-id={session.id} data-api={api}>
        <SessionHead session={session} scenario={scenario} mcpUrl={mcpUrl} />
        <ConnectPanel sessionId={session.id} mcpUrl={mcpUrl} origin={origin} open={!hasEntries} />
        <TimelinePanel />
        <div class="session-grid">
          <JournalPanel api={api} />
          <ChecksPanel />
        </div>
        <ExchangeDrawer />
        <ChangeScenarioDialog session={session} scenarios={scenarios} />
      </div>
    </Layout>
  );
}
