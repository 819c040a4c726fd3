import { Layout } from "./layout.tsx";
import { ScenarioPicker } from "./picker.tsx";
import type { CatalogueEntry } from "./scenario-groups.ts";
import { CopyButton } from "./widgets.tsx";

export interface SessionRow {
  id: string;
  scenario: string;
  createdAt: string;
  mcpUrl: string;
}

function SessionTable({ sessions, titles }: { sessions: readonly SessionRow[]; titles: ReadonlyMap<string, string> }) {
  if (sessions.length === 0) {
    return <p class="empty muted">No sessions yet. Create one above, or point a client at <code>/mcp</code> (the default session).</p>;
  }
  return (
    <div class="table-wrap">
      <table class="sessions">
        <thead>
          <tr>
            <th scope="col" class="col-id">Session</th>
            <th scope="col" class="col-scenario">Scenario</th>
            <th scope="col" class="col-created">Created</th>
            <th scope="col" class="col-url">MCP URL</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr>
              <td>
                <a class="mono" href={`/sessions/${encodeURIComponent(session.id)}`}>
                  {session.id}
                </a>
              </td>
              <td>
                {titles.get(session.scenario) ?? session.scenario} <code class="muted">{session.scenario}</code>
              </td>
              <td>
                <time datetime={session.createdAt} data-relative="">
                  {session.createdAt.replace("T", " ").slice(0, 19)}
                </time>
              </td>
              <td>
                <div class="url-cell">
                  <code class="url">{session.mcpUrl}</code>
                  <CopyButton text={session.mcpUrl} what={`the MCP URL of ${session.id}`} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `/`: create a session (scenario picker and params form) and list the existing ones. */
export function HomePage({ scenarios, sessions }: { scenarios: readonly CatalogueEntry[]; sessions: readonly SessionRow[] }) {
  const titles = new Map(scenarios.map((s) => [s.id, s.title]));
  return (
    <Layout title="Sessions" section="sessions" script="home.client.js">
      <section class="panel">
        <header class="panel-head">
          <div>
            <h1>New session</h1>
            <p class="muted">Pick how the server should misbehave. Each session gets its own MCP URL, counters and journal.</p>
          </div>
        </header>
        <ScenarioPicker scenarios={scenarios} selected="baseline" mode="create" />
      </section>
      <section class="panel">
        <header class="panel-head">
          <h2>
            Sessions <span class="count">{sessions.length}</span>
          </h2>
        </header>
        <SessionTable sessions={sessions} titles={titles} />
      </section>
    </Layout>
  );
}
