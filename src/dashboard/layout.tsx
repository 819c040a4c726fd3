import { createContext, useContext, type Child } from "hono/jsx";
import { raw } from "hono/html";
import type { Role } from "../base/roles.ts";

/**
 * Who is signed in, for the top bar's "Signed in as" mark and its sign-out control. The route that renders a page
 * provides it (`<SignedIn.Provider value={role}>`), so the pages themselves need not pass it down.
 */
export const SignedIn = createContext<Role | undefined>(undefined);

/** "Signed in as admin" and the sign-out button: a plain form posted to /logout, no script (form-action 'self'). */
function Account() {
  const role = useContext(SignedIn);
  if (!role) return null;
  return (
    <form class="account" method="post" action="/logout">
      <span class="signed-in">
        Signed in as <strong>{role}</strong>
      </span>
      <button class="button" type="submit">
        Sign out
      </button>
    </form>
  );
}

export type Section = "sessions" | "classify";

interface LayoutProps {
  title: string;
  section: Section;
  /** The page's entry module under /assets/, e.g. "session.client.js". */
  script?: string;
  children?: Child;
}

function Logo() {
  return (
    <svg class="logo" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" />
      <path d="M4 19h7l3-9 4 14 3-8h7" />
    </svg>
  );
}

/** The page shell: head with the one stylesheet and the page's module script, top bar, main. */
export function Layout({ title, section, script, children }: LayoutProps) {
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <title>{`${title} · Faultline`}</title>
          <link rel="icon" href="/assets/icon.svg" type="image/svg+xml" />
          <link rel="stylesheet" href="/assets/app.css" />
          {script ? <script type="module" src={`/assets/${script}`}></script> : null}
        </head>
        <body>
          <header class="topbar">
            <a class="brand" href="/">
              <Logo />
              <span>Faultline</span>
            </a>
            <nav aria-label="Main">
              <a href="/" aria-current={section === "sessions" ? "page" : undefined}>
                Sessions
              </a>
              <a href="/classify" aria-current={section === "classify" ? "page" : undefined}>
                Classify
              </a>
            </nav>
            <Account />
          </header>
          <main>{children}</main>
          <div class="toast" id="toast" role="status" aria-live="polite" hidden></div>
        </body>
      </html>
    </>
  );
}

/** A page for a missing session (or anything else the dashboard cannot find). */
export function NotFoundPage({ what }: { what: string }) {
  return (
    <Layout title="Not found" section="sessions">
      <section class="empty-state">
        <h1>Not found</h1>
        <p>{what}</p>
        <p>
          <a class="button" href="/">
            Back to sessions
          </a>
        </p>
      </section>
    </Layout>
  );
}
