import { ParamsFields } from "./params-form.tsx";
import { areaOf, groupByLayer, type CatalogueEntry } from "./scenario-groups.ts";
import { WithCode } from "./widgets.tsx";

interface PickerProps {
  scenarios: readonly CatalogueEntry[];
  selected: string;
  /** "create" posts a new session; "change" puts a new scenario on `sessionId`. */
  mode: "create" | "change";
  sessionId?: string;
  /** The session's current params, used to fill the selected scenario's fields. */
  values?: Record<string, unknown>;
}

const domId = (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_");

function ScenarioItem({ scenario, checked }: { scenario: CatalogueEntry; checked: boolean }) {
  const search = `${scenario.id} ${scenario.title} ${scenario.summary} ${scenario.layer}`.toLowerCase();
  return (
    <li class="scenario-item" data-id={scenario.id} data-layer={scenario.layer} data-area={areaOf(scenario.id)} data-search={search}>
      <label>
        <input type="radio" name="scenario" value={scenario.id} checked={checked} />
        <span class="item-head">
          <span class="item-title">{scenario.title}</span>
          <span class={`layer-chip layer-${scenario.layer}`}>{scenario.layer}</span>
        </span>
        <code class="item-id">{scenario.id}</code>
        <span class="item-summary">
          <WithCode text={scenario.summary} />
        </span>
      </label>
    </li>
  );
}

/** The scenario picker: a searchable, grouped list and, for the chosen scenario, a params form built from its schema. */
export function ScenarioPicker({ scenarios, selected, mode, sessionId, values }: PickerProps) {
  const formId = `picker-${mode}`;
  return (
    <form class="picker" id={formId} data-mode={mode} data-session-id={sessionId} novalidate>
      <div class="form-error" role="alert" hidden></div>
      <div class="picker-grid">
        <fieldset class="scenario-list" data-path="scenario">
          <legend class="visually-hidden">Scenario</legend>
          <div class="list-tools">
            <input type="search" class="search" placeholder="Search scenarios…" aria-label="Search scenarios" data-role="search" autocomplete="off" />
            <div class="segmented" role="group" aria-label="Group by">
              <button type="button" data-group-by="layer" aria-pressed="true">
                Layer
              </button>
              <button type="button" data-group-by="area" aria-pressed="false">
                Area
              </button>
            </div>
          </div>
          <h2 class="visually-hidden">Scenarios</h2>
          <div class="groups" data-role="groups" data-grouped-by="layer">
            {groupByLayer(scenarios).map((group) => (
              <section class="group" data-group={group.key}>
                <h3>
                  {group.label}
                  {group.blurb ? <span class="muted"> · {group.blurb}</span> : null}
                </h3>
                <ul>
                  {group.scenarios.map((scenario) => (
                    <ScenarioItem scenario={scenario} checked={scenario.id === selected} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
          <p class="no-match muted" hidden>
            No scenario matches.
          </p>
          <p class="field-error" hidden></p>
        </fieldset>

        <div class="scenario-detail">
          {scenarios.map((scenario) => (
            <fieldset class="params" data-scenario={scenario.id} data-path="params" data-example={JSON.stringify(scenario.example)} hidden={scenario.id !== selected}>
              <legend>
                <span>{scenario.title}</span>
                <code>{scenario.id}</code>
              </legend>
              <p class="summary">
                <WithCode text={scenario.summary} />
              </p>
              <div class="params-head">
                <h4>Params</h4>
                <div class="button-row">
                  <button type="button" class="small" data-action="load-example" disabled={Object.keys(scenario.example).length === 0}>
                    Load example
                  </button>
                  <button type="button" class="small ghost" data-action="clear-params">
                    Clear
                  </button>
                </div>
              </div>
              <p class="field-error" hidden></p>
              <ParamsFields idPrefix={`${formId}-${domId(scenario.id)}`} schema={scenario.params} values={scenario.id === selected ? values : undefined} />
            </fieldset>
          ))}

          {mode === "create" ? (
            <div class="field slug" data-path="id">
              <label for={`${formId}-id`}>
                Session id <span class="muted">(optional)</span>
              </label>
              <input id={`${formId}-id`} name="id" type="text" class="mono" placeholder="random if empty, e.g. my-retry-test" autocomplete="off" spellcheck={false} aria-describedby={`${formId}-id-hint ${formId}-id-error`} />
              <p class="hint" id={`${formId}-id-hint`}>
                3–64 characters from a–z, 0–9 and “-”. The MCP URL becomes <code>{"/s/{id}/mcp"}</code>, or <code>{"/s/{id}.{secret}/mcp"}</code> when an admin token is set.
              </p>
              <p class="field-error" id={`${formId}-id-error`} hidden></p>
            </div>
          ) : null}

          <div class="form-actions">
            <button type="submit" class="primary">
              {mode === "create" ? "Create session" : "Apply scenario"}
            </button>
            {mode === "change" ? (
              <button type="button" class="ghost" data-action="close-dialog">
                Cancel
              </button>
            ) : null}
            <span class="muted small-text">{mode === "change" ? "Counters reset; the journal is kept." : ""}</span>
          </div>
        </div>
      </div>
    </form>
  );
}
