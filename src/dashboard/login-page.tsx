import { Layout } from "./layout.tsx";

/**
 * The login form shown when FAULTLINE_ADMIN_TOKEN is set: one password field, posted to /login, which sets the
 * login cookie. A plain form, no script, so the dashboard's strict CSP holds (form-action 'self'). The hint says where
 * the token comes from: whoever started the server chose it.
 */
export function LoginPage({ error }: { error?: string }) {
  return (
    <Layout title="Sign in" section="sessions">
      <section class="panel login-panel">
        <header class="panel-head">
          <h1>Sign in</h1>
        </header>
        <form method="post" action="/login" class="login-form">
          <div class="field">
            <label for="token">Admin or viewer token</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required aria-describedby="token-hint" />
            <p class="hint" id="token-hint">
              The value of <code>FAULTLINE_ADMIN_TOKEN</code> (everything) or <code>FAULTLINE_VIEWER_TOKEN</code> (read only) in the environment the server was started with, or the <code>wrangler secret</code> of that name when deployed. Ask whoever runs this server.
            </p>
            {error ? <p class="field-error">{error}</p> : null}
          </div>
          <p>
            <button class="button primary" type="submit">
              Sign in
            </button>
          </p>
        </form>
      </section>
    </Layout>
  );
}
