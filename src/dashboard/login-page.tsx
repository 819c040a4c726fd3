import { Layout } from "./layout.tsx";

/**
 * The login form shown when FAULTLINE_ADMIN_TOKEN is set: one password field, posted to /login, which sets the
 * login cookie. A plain form, no script, so the dashboard's strict CSP holds (form-action 'self').
 */
export function LoginPage({ error }: { error?: string }) {
  return (
    <Layout title="Sign in" section="sessions">
      <section class="panel">
        <header class="panel-head">
          <h1>Sign in</h1>
        </header>
        <form method="post" action="/login">
          <div class="field">
            <label for="token">Admin or viewer token</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required />
            {error ? <p class="field-error">{error}</p> : null}
          </div>
          <p>
            <button class="button" type="submit">
              Sign in
            </button>
          </p>
        </form>
      </section>
    </Layout>
  );
}
