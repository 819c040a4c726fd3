// Served as /assets/classify.client.js. The /classify playground: sends pasted text to POST /classify as JSON
// or as message/http (raw `curl -si` output), and shows the verdicts.
import { $, $$, errorMessage, h, replace } from "./dom.client.js";
import { wireCommon } from "./common.client.js";
import { clearErrors, showErrors } from "./params.client.js";
import { verdictCard } from "./verdict-view.client.js";

wireCommon();
const form = $("#classify-form");
const input = $("#classify-input");
const detected = $("[data-role=detected]");
const result = $("[data-role=result]");

/** "http" for a raw response (status line first), "json" for anything that starts like JSON, else undefined. */
export function detectKind(text) {
  const start = text.trimStart();
  if (/^HTTP\/\d(\.\d)?\s+\d{3}/i.test(start)) return "http";
  if (start.startsWith("{") || start.startsWith("[")) return "json";
  return undefined;
}

const KIND_TEXT = { http: "raw HTTP response (message/http)", json: "JSON exchange (application/json)" };
function updateDetected() {
  const kind = detectKind(input.value);
  detected.textContent = input.value.trim() === "" ? "" : kind ? `Read as: ${KIND_TEXT[kind]}` : "Not recognised yet: start with a status line or with {";
}
input.addEventListener("input", updateDetected);

for (const button of $$("[data-example]")) {
  button.addEventListener("click", () => {
    input.value = button.dataset.example ?? "";
    updateDetected();
    clearErrors(form);
    input.focus();
  });
}

function render(data) {
  if (Array.isArray(data)) return data.map((verdict, i) => verdictCard(verdict, `Exchange ${i + 1}`));
  if (data && Array.isArray(data.entries)) {
    const cards = data.entries.map((entry) => verdictCard(entry.verdict, `HAR entry ${entry.index}${entry.method ? ` · ${entry.method}` : ""}${entry.id !== undefined ? ` · id ${JSON.stringify(entry.id)}` : ""}`));
    const skipped = Array.isArray(data.skipped) && data.skipped.length ? h("p", { class: "muted small-text", text: `${data.skipped.length} HAR entries skipped (not JSON-RPC)` }) : null;
    return [...cards, skipped];
  }
  return [verdictCard(data)];
}

async function classify() {
  clearErrors(form);
  const text = input.value;
  const kind = detectKind(text);
  if (!kind) {
    showErrors(form, "Paste a response first.", [{ path: "input", message: "Start with an HTTP status line (HTTP/1.1 200 OK) or a JSON object" }]);
    input.focus();
    return;
  }
  const query = new URLSearchParams();
  if (kind === "http") {
    for (const name of ["expectedId", "method"]) {
      const value = form.elements.namedItem(name).value.trim();
      if (value) query.set(name, value);
    }
  }
  form.setAttribute("aria-busy", "true");
  let response;
  try {
    response = await fetch(`/classify${query.size ? `?${query}` : ""}`, {
      method: "POST",
      headers: { "content-type": kind === "http" ? "message/http" : "application/json", accept: "application/json" },
      body: text,
    });
  } catch (error) {
    showErrors(form, `Could not reach the server: ${errorMessage(error)}`);
    return;
  } finally {
    form.removeAttribute("aria-busy");
  }
  const data = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = data?.error ?? { message: `HTTP ${response.status}` };
    // Issues about the body itself belong to the text area ("(root)" is the whole of it); query.* to the option fields.
    // Each shows once, next to its field, in the API's words for people; the summary only says what happened.
    const issues = (Array.isArray(error.issues) ? error.issues : []).map((issue) => {
      const path = String(issue.path);
      if (path.startsWith("query.")) return issue;
      return { ...issue, path: path === "(root)" || path === "" ? "input" : `input.${path}` };
    });
    if (issues.length) showErrors(form, "Not classified: the server could not read this input.", issues);
    else showErrors(form, "Not classified.", [{ path: "input", message: String(error.message) }]);
    replace(result, h("div", { class: "empty-state muted" }, h("p", { text: "No verdict: the input was refused." })));
    return;
  }
  replace(result, ...render(data));
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  classify();
});
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    classify();
  }
});
