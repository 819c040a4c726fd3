// Served as /assets/checks.client.js. The checks panel: GET /api/sessions/{id}/checks, rendered as a list.
import { api, h, replace } from "./dom.client.js";

const ICONS = { pass: "✓", fail: "✕", warning: "!", info: "i" };

function summary(checks) {
  const counts = {};
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  const words = { pass: "passed", fail: "failed", warning: "warnings", info: "notes" };
  return Object.entries(counts).map(([status, n]) => h("span", { class: `check-count st-${ICONS[status] ? status : "info"}`, text: `${n} ${words[status] ?? status}` }));
}

/**
 * Loads and renders the checks into `container`; evidence buttons call `onEvidence(seq)`. `lastSeq` is the newest
 * journal entry known when asking, kept as data-checked-seq so one can tell how fresh the checks are; `isCurrent()`
 * says whether this load is still the latest one asked for.
 */
export async function loadChecks(container, apiBase, onEvidence, lastSeq = 0, isCurrent = () => true) {
  const response = await api("GET", `${apiBase}/checks`);
  // A slower, older answer must not replace a newer one.
  if (!isCurrent()) return;
  container.dataset.checkedSeq = String(lastSeq);
  if (!response.ok) {
    replace(container, h("p", { class: "error-text", text: response.data?.error?.message ?? `Checks unavailable (HTTP ${response.status})` }));
    return;
  }
  const checks = Array.isArray(response.data?.checks) ? response.data.checks : [];
  if (checks.length === 0) {
    replace(container, h("p", { class: "muted", text: "No checks yet: they appear once the client has done something this scenario judges." }));
    return;
  }
  replace(
    container,
    h("p", { class: "check-summary" }, summary(checks)),
    h(
      "ul",
      { class: "checks" },
      checks.map((check) => {
        const status = ICONS[check.status] ? check.status : "info";
        const evidence = Array.isArray(check.evidence) ? check.evidence : [];
        return h(
          "li",
          { class: `check st-${status}`, dataset: { check: check.id } },
          h("span", { class: "check-icon", title: status, "aria-label": status, text: ICONS[status] }),
          h(
            "div",
            { class: "check-body" },
            h("code", { class: "check-id", text: check.id }),
            h("p", { class: "check-message", text: check.message }),
            evidence.length
              ? h(
                  "p",
                  { class: "evidence" },
                  h("span", { class: "muted small-text", text: "Evidence " }),
                  evidence.slice(0, 20).map((seq) => h("button", { type: "button", class: "chip", text: `#${seq}`, onclick: () => onEvidence(seq) })),
                  evidence.length > 20 ? h("span", { class: "muted small-text", text: ` +${evidence.length - 20} more` }) : null,
                )
              : null,
          ),
        );
      }),
    ),
  );
}
