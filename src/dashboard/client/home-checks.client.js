// Served as /assets/home-checks.client.js. The sessions table's Checks column: each listed session's checks summary
// (counts of passed, failed and warnings) from GET /api/sessions/{id}/checks. Bounded: only the rows of the page shown
// (at most one page of the list), CONCURRENT requests at a time, once per page load.
import { $$, api, h, replace } from "./dom.client.js";

const CONCURRENT = 4;
const SHOWN = [
  ["fail", "failed"],
  ["warning", "warnings"],
  ["pass", "passed"],
];

/** Counts of a checks answer by status. */
export function countChecks(checks) {
  const counts = { pass: 0, fail: 0, warning: 0, info: 0 };
  for (const check of checks) if (check && typeof check.status === "string" && check.status in counts) counts[check.status] += 1;
  return counts;
}

async function fill(cell) {
  const response = await api("GET", cell.dataset.api);
  cell.classList.remove("muted");
  if (!response.ok) {
    cell.dataset.state = "error";
    replace(cell, h("span", { class: "muted", title: response.data?.error?.message ?? `HTTP ${response.status}`, text: "unavailable" }));
    return;
  }
  const checks = Array.isArray(response.data?.checks) ? response.data.checks : [];
  const counts = countChecks(checks);
  Object.assign(cell.dataset, { state: "loaded", pass: counts.pass, fail: counts.fail, warning: counts.warning });
  const parts = SHOWN.filter(([status]) => counts[status] > 0).map(([status, word]) => h("span", { class: `check-count st-${status}`, text: `${counts[status]} ${word}` }));
  replace(cell, parts.length ? parts : h("span", { class: "muted", text: checks.length ? "notes only" : "none yet" }));
}

/** Fills every Checks cell on the page, CONCURRENT at a time. */
export async function fillChecksColumn(root = document) {
  const queue = $$("[data-role=checks-summary][data-api]", root);
  const worker = async () => {
    for (let cell = queue.shift(); cell; cell = queue.shift()) await fill(cell);
  };
  await Promise.all(Array.from({ length: CONCURRENT }, worker));
}
