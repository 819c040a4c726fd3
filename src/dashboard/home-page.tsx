import { indexStub } from "../session/index-stub.ts";
import { decodeCursor, listSessions } from "../session/session-list.ts";
import { Layout } from "./layout.tsx";
import { ScenarioPicker } from "./picker.tsx";
import type { CatalogueEntry } from "./scenario-groups.ts";
import { CopyButton } from "./widgets.tsx";

export interface SessionRow {
  id: string;
  scenario: string;
  createdAt: string;
  mcpUrl: string;
  proxied?: boolean;
}

function SessionTable({ sessions, titles }: { sessions: readonly SessionRow[]; titles: ReadonlyMap<string, string> }) {
  if (sessions.length === 0) {
    return <p class="empty muted">No sessions yet. Create one above, or point a client at the default session’s MCP URL, printed when the server started (<code>/mcp</code> unless an admin token is set).</p>;
  }
  return (
    <div class="table-wrap">
      <table class="sessions">
        <thead>
          <tr>
            <th scope="col" class="col-id">Session</th>
            <th scope="col" class="col-scenario">Scenario</th>
            <th scope="col" class="col-created">Created</th>
            <th scope="col" class="col-checks">Checks</th>
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
                {session.proxied ? (
                  <>
                    {" "}
                    <span class="tag proxied" title="Proxy mode: requests go to an upstream server">
                      proxied
                    </span>
                  </>
                ) : null}
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
                {/* Filled by home-checks.client.js from GET /api/sessions/{id}/checks. */}
                <span class="checks-summary muted" data-role="checks-summary" data-api={`/api/sessions/${encodeURIComponent(session.id)}/checks`}>
                  …
                </span>
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

/** One page of the list, as `/` shows it: `total` sessions exist; `nextCursor` links the next page. */
export interface HomeListing {
  sessions: readonly SessionRow[];
  total: number;
  nextCursor?: string;
  /** Whether this is a later page (it then links back to the first). */
  later: boolean;
  /** The page link was not a cursor of this list: the first page is shown instead. */
  badCursor: boolean;
}

/** The sessions shown on each page of `/`. */
export const HOME_PAGE_SIZE = 100;

function Pager({ listing }: { listing: HomeListing }) {
  if (!listing.later && !listing.nextCursor) return null;
  return (
    <nav class="panel-head pager" aria-label="Session pages">
      {listing.later ? <a href="/">First page</a> : null}
      {listing.nextCursor ? (
        <a href={`/?cursor=${encodeURIComponent(listing.nextCursor)}`} rel="next">
          Next {HOME_PAGE_SIZE} sessions
        </a>
      ) : null}
    </nav>
  );
}

/** `/`: create a session (scenario picker and params form) and list the existing ones, a page at a time. */
export function HomePage({ scenarios, listing }: { scenarios: readonly CatalogueEntry[]; listing: HomeListing }) {
  const { sessions, total } = listing;
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
            Sessions <span class="count" data-role="session-total">{total}</span>
          </h2>
          {sessions.length < total ? (
            <p class="muted" data-role="session-shown">
              Showing {sessions.length} of {total}, newest first.
            </p>
          ) : null}
        </header>
        {listing.badCursor ? <p class="muted">That page link is not valid (the list may have changed): showing the first page.</p> : null}
        <SessionTable sessions={sessions} titles={titles} />
        <Pager listing={listing} />
      </section>
    </Layout>
  );
}

/** The listing `/` shows for its `?cursor=` query: a page of the index and the count of all sessions. */
export async function homeListing(env: Env, origin: string, cursor: string | undefined): Promise<HomeListing> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const [page, total] = await Promise.all([listSessions(env, origin, HOME_PAGE_SIZE, after), indexStub(env).count()]);
  return { ...page, total, later: after !== undefined, badCursor: cursor !== undefined && after === undefined };
}
