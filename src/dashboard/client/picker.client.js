// Served as /assets/picker.client.js. The scenario picker (src/dashboard/picker.tsx): search, grouping,
// params by example, and submitting to the sessions API with its validation issues shown inline.
import { $, $$, api, h } from "./dom.client.js";
import { clearErrors, fillParams, readParams, showErrors } from "./params.client.js";

const titleCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function wireSearch(form, items) {
  const search = $("[data-role=search]", form);
  const noMatch = $(".no-match", form);
  // The selected scenario stays in the list whatever the search, so the list never hides what the form shows.
  const matches = (item) => {
    const terms = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    return terms.every((term) => item.dataset.search.includes(term));
  };
  const filter = () => {
    let shown = 0;
    for (const item of items) {
      const match = matches(item);
      item.hidden = !match && !item.classList.contains("selected");
      item.classList.toggle("kept", !match && !item.hidden);
      if (match) shown++;
    }
    for (const group of $$(".group", form)) group.hidden = !$$(".scenario-item", group).some((item) => !item.hidden);
    noMatch.hidden = shown > 0;
  };
  search.addEventListener("input", filter);
  search.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    // Enter picks the first match instead of submitting.
    event.preventDefault();
    const first = items.find(matches);
    const radio = first && $("input[type=radio]", first);
    if (radio) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
      radio.focus();
    }
  });
  return filter;
}

/** Regroups the list by layer (as the server rendered it) or by area (the id's prefix); then calls `after()`. */
function wireGrouping(form, items, after) {
  const box = $("[data-role=groups]", form);
  const layerGroups = $$(".group", box);
  const home = new Map(items.map((item) => [item, item.parentElement]));
  const buttons = $$("[data-group-by]", form);
  const groupBy = (key) => {
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.groupBy === key));
    box.dataset.groupedBy = key;
    if (key === "layer") {
      for (const item of items) home.get(item).append(item);
      box.replaceChildren(...layerGroups);
    } else {
      const areas = [...new Set(items.map((item) => item.dataset.area))].sort();
      box.replaceChildren(
        ...areas.map((area) =>
          h("section", { class: "group", dataset: { group: area } }, h("h3", { text: titleCase(area) }), h("ul", {}, items.filter((item) => item.dataset.area === area))),
        ),
      );
    }
    after();
  };
  for (const button of buttons) button.addEventListener("click", () => groupBy(button.dataset.groupBy));
}

/**
 * Wires one picker form. `onApplied(session)` runs after a successful change of scenario.
 * @param {HTMLFormElement} form
 * @param {{ onApplied?: (session: unknown) => void }} [options]
 */
export function wirePicker(form, { onApplied } = {}) {
  const items = $$(".scenario-item", form);
  const fieldsets = new Map($$("fieldset.params", form).map((fieldset) => [fieldset.dataset.scenario, fieldset]));
  const selected = () => $("input[name=scenario]:checked", form)?.value;
  const show = (id) => {
    for (const [scenario, fieldset] of fieldsets) fieldset.hidden = scenario !== id;
    for (const item of items) item.classList.toggle("selected", item.dataset.id === id);
  };
  show(selected());
  // Brings the chosen scenario into view inside the list (not the page). A new session's list opens at its top, on
  // the first layer (transport), with the default selection shown in the form beside it.
  const list = $("[data-role=groups]", form);
  const reveal = () => {
    const chosen = items.find((item) => item.classList.contains("selected"));
    if (chosen && list) list.scrollTop = Math.max(0, chosen.offsetTop - 48);
  };
  if (form.dataset.mode === "change") reveal();

  form.addEventListener("change", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "scenario") return;
    clearErrors(form);
    show(input.value);
    refilter();
  });
  form.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    const fieldset = button?.closest("fieldset.params");
    if (!(button instanceof HTMLElement) || !(fieldset instanceof HTMLFieldSetElement)) return;
    if (button.dataset.action === "load-example") fillParams(fieldset, JSON.parse(fieldset.dataset.example || "{}"));
    if (button.dataset.action === "clear-params") fillParams(fieldset, {});
    clearErrors(form);
  });

  const refilter = wireSearch(form, items);
  wireGrouping(form, items, () => {
    refilter();
    reveal();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const scenario = selected();
    if (!scenario) {
      showErrors(form, "Pick a scenario first.", [{ path: "scenario", message: "Pick a scenario" }])?.focus();
      return;
    }
    const { params, problems } = readParams(fieldsets.get(scenario));
    if (problems.length) {
      showErrors(form, "Some params are not valid.", problems)?.focus();
      return;
    }
    const submit = $("button[type=submit]", form);
    submit.disabled = true;
    form.setAttribute("aria-busy", "true");
    const creating = form.dataset.mode === "create";
    const slug = creating ? $("input[name=id]", form).value.trim() : "";
    const response = creating
      ? await api("POST", "/api/sessions", { scenario, params, ...(slug ? { id: slug } : {}) })
      : await api("PUT", `/api/sessions/${encodeURIComponent(form.dataset.sessionId ?? "")}/scenario`, { scenario, params });
    submit.disabled = false;
    form.removeAttribute("aria-busy");
    if (response.ok) {
      if (creating) location.assign(`/sessions/${encodeURIComponent(response.data.id)}`);
      else onApplied?.(response.data);
      return;
    }
    const error = response.data?.error ?? { message: `The server answered HTTP ${response.status}` };
    const issues = Array.isArray(error.issues) ? error.issues : [];
    const summary = issues.length ? `${creating ? "Not created" : "Not applied"}: the server refused these settings.` : String(error.message);
    (showErrors(form, summary, issues) ?? $(".form-error", form))?.focus?.();
  });
}
