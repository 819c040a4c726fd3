// Served as /assets/outcomes.client.js. Outcome badges and classes; labels, colours and success come from the
// classifier's outcome table (outcome-table.client.js, generated from src/classify/outcome.ts).
import { h } from "./dom.client.js";
import { OUTCOMES } from "./outcome-table.client.js";

/** @param {unknown} outcome @returns {outcome is keyof typeof OUTCOMES} */
const known = (outcome) => typeof outcome === "string" && Object.hasOwn(OUTCOMES, outcome);

/** The short label of an outcome; an unknown one shows as it is. @param {unknown} outcome */
export function outcomeLabel(outcome) {
  return known(outcome) ? OUTCOMES[outcome].label : String(outcome);
}

/** A CSS-safe outcome name: unknown values fall back to "none" (they still show, as text, in the badge). @param {unknown} outcome */
export function outcomeClass(outcome) {
  return known(outcome) ? `o-${outcome}` : "o-none";
}

/** A coloured badge for an outcome; `title` carries the raw outcome name. @param {unknown} outcome */
export function outcomeBadge(outcome) {
  if (!outcome) return h("span", { class: "badge o-none", text: "—", title: "No verdict (not a POST)" });
  return h("span", { class: `badge ${outcomeClass(outcome)}`, title: String(outcome), text: outcomeLabel(outcome) });
}

/** s2xx, s3xx, s4xx, s5xx: the class of an HTTP status, for colouring the number. @param {unknown} status */
export function statusClass(status) {
  const n = Number(status);
  return n >= 200 && n < 600 ? `s${Math.floor(n / 100)}xx` : "s0xx";
}
