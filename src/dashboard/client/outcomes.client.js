// Served as /assets/outcomes.client.js. Outcome names, labels and badges; the colours live in app.css (.o-OUTCOME).
import { h } from "./dom.client.js";

/** Short labels for the classifier's outcomes. */
export const OUTCOME_LABELS = {
  TOOL_SUCCESS: "success",
  HTTP_ERROR: "HTTP error",
  JSONRPC_ERROR: "JSON-RPC error",
  TOOL_ERROR: "tool error",
  INPUT_REQUIRED: "input required",
  MALFORMED_JSON: "malformed JSON",
  INVALID_ENVELOPE: "invalid envelope",
  INVALID_TOOL_RESULT: "invalid result",
  NOTIFICATION_ACCEPTED: "accepted",
  STREAM_INCOMPLETE: "stream incomplete",
};

/** A CSS-safe outcome name: unknown values fall back to "none" (they still show, as text, in the badge). */
export function outcomeClass(outcome) {
  return Object.hasOwn(OUTCOME_LABELS, outcome) ? `o-${outcome}` : "o-none";
}

/** Outcomes after which a repeat of the same call is not a retry of a failure. */
export function isSuccess(outcome) {
  return outcome === "TOOL_SUCCESS" || outcome === "NOTIFICATION_ACCEPTED";
}

/** A coloured badge for an outcome; `title` carries the raw outcome name. */
export function outcomeBadge(outcome) {
  if (!outcome) return h("span", { class: "badge o-none", text: "—", title: "No verdict (not a POST)" });
  return h("span", { class: `badge ${outcomeClass(outcome)}`, title: String(outcome), text: OUTCOME_LABELS[outcome] ?? String(outcome) });
}

/** s2xx, s3xx, s4xx, s5xx: the class of an HTTP status, for colouring the number. */
export function statusClass(status) {
  const n = Number(status);
  return n >= 200 && n < 600 ? `s${Math.floor(n / 100)}xx` : "s0xx";
}
