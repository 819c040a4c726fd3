import { CLASSIFY_EXAMPLES } from "./classify-examples.ts";
import { Layout } from "./layout.tsx";
import { CodeBlock } from "./widgets.tsx";

/** `/classify`: paste a JSON exchange or `curl -si` output, get the verdict. */
export function ClassifyPage({ origin }: { origin: string }) {
  const pipe = `curl -si 'https://your-server/mcp' -H ... -d '...' \\\n  | curl -s '${origin}/classify' -H 'Content-Type: message/http' --data-binary @-`;
  return (
    <Layout title="Classify" section="classify" script="classify.client.js">
      <section class="panel">
        <header class="panel-head">
          <div>
            <h1>Classify a response</h1>
            <p class="muted">
              Paste what an MCP server answered: the output of <code>curl -si</code>, or a JSON exchange <code>{"{status, headers?, body, expectedId?, method?}"}</code>. The verdict names the
              outcome, its layer, whether to retry, and everything odd about it.
            </p>
          </div>
        </header>
        <div class="classify-grid">
          <form class="classify-form" id="classify-form" novalidate>
            <div class="form-error" role="alert" hidden></div>
            <div class="field" data-path="input">
              <div class="label-row">
                <label for="classify-input">Response</label>
                <span class="muted small-text" data-role="detected" aria-live="polite"></span>
              </div>
              <textarea id="classify-input" name="input" class="mono" rows={16} spellcheck={false} placeholder={"HTTP/1.1 503 Service Unavailable\nRetry-After: 2\n\nupstream overloaded"} aria-describedby="classify-input-error"></textarea>
              <p class="field-error" id="classify-input-error" hidden></p>
            </div>
            <div class="examples">
              <span class="muted small-text">Examples:</span>
              {CLASSIFY_EXAMPLES.map((example) => (
                <button type="button" class="small ghost" data-example={example.text} data-example-id={example.id}>
                  {example.label}
                </button>
              ))}
            </div>
            <details class="http-options">
              <summary>Options for raw HTTP</summary>
              <div class="inline-fields">
                <div class="field" data-path="query.expectedId">
                  <label for="classify-expected-id">Expected JSON-RPC id</label>
                  <input id="classify-expected-id" name="expectedId" class="mono" placeholder="1" autocomplete="off" />
                  <p class="field-error" hidden></p>
                </div>
                <div class="field" data-path="query.method">
                  <label for="classify-method">Request method</label>
                  <input id="classify-method" name="method" class="mono" placeholder="tools/call" autocomplete="off" />
                  <p class="field-error" hidden></p>
                </div>
              </div>
            </details>
            <div class="form-actions">
              <button type="submit" class="primary">
                Classify
              </button>
              <span class="muted small-text">Ctrl+Enter</span>
            </div>
          </form>
          <div class="classify-result" data-role="result" aria-live="polite">
            <div class="empty-state muted">
              <p>The verdict appears here.</p>
            </div>
          </div>
        </div>
      </section>
      <section class="panel">
        <header class="panel-head">
          <h2>From a terminal</h2>
        </header>
        <CodeBlock code={pipe} caption="Pipe any response into /classify" what="the classify command" />
      </section>
    </Layout>
  );
}
