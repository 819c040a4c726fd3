// Served as /assets/params.client.js. Reads and fills the params fields that the server generated from a
// scenario's JSON Schema (src/dashboard/params-form.tsx), and shows API validation issues next to their fields.
import { $, $$, errorMessage, h, replace } from "./dom.client.js";

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Parses one control's text by field kind. Unparseable numbers go to the API as text, so it names the problem. */
export function parseValue(kind, raw) {
  const text = raw.trim();
  switch (kind) {
    case "integer":
    case "number":
    case "scalar":
      return { value: NUMBER.test(text) ? Number(text) : text };
    case "string":
      return { value: raw };
    case "enum":
    case "boolean":
      return { value: JSON.parse(text) };
    case "list-number":
      return { value: text.split(/[\s,]+/).filter(Boolean).map((item) => (NUMBER.test(item) ? Number(item) : item)) };
    case "list-string":
      return { value: text.split(",").map((item) => item.trim()).filter(Boolean) };
    default:
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { error: `Not valid JSON: ${errorMessage(error)}` };
      }
  }
}

/** Writes a value into a control, the inverse of parseValue. */
export function formatValue(kind, value) {
  if (value === undefined) return "";
  if (kind === "list-number" || kind === "list-string") return Array.isArray(value) ? value.join(", ") : JSON.stringify(value);
  if (kind === "json") return JSON.stringify(value, null, 2);
  if (kind === "enum" || kind === "boolean") return JSON.stringify(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

const controlOf = (field) => $("input, select, textarea", field);

/** The params of a fieldset: empty fields are left out (the server applies defaults). */
export function readParams(fieldset) {
  const params = {};
  const problems = [];
  for (const field of $$(".field[data-kind]", fieldset)) {
    const control = controlOf(field);
    if (!control || control.value.trim() === "") continue;
    const result = parseValue(field.dataset.kind, control.value);
    if ("error" in result) problems.push({ path: field.dataset.path, rule: "json", message: result.error });
    else params[field.dataset.name] = result.value;
  }
  return { params, problems };
}

/** Fills a fieldset from a params object; fields it does not name are cleared. */
export function fillParams(fieldset, values) {
  for (const field of $$(".field[data-kind]", fieldset)) {
    const control = controlOf(field);
    if (!control) continue;
    const text = formatValue(field.dataset.kind, values?.[field.dataset.name]);
    if (control instanceof HTMLSelectElement && ![...control.options].some((o) => o.value === text)) control.value = "";
    else control.value = text;
  }
}

/** Removes every error shown in a form. */
export function clearErrors(form) {
  for (const node of $$(".field-error, .form-error", form)) {
    node.hidden = true;
    node.replaceChildren();
  }
  for (const node of $$("[aria-invalid]", form)) node.removeAttribute("aria-invalid");
  for (const node of $$(".invalid", form)) node.classList.remove("invalid");
}

const visible = (node) => !node.closest("[hidden]");

/** The visible element whose data-path is the longest prefix of `path` ("params.statusCodes" for "params.statusCodes.0"). */
function targetFor(form, path) {
  let best;
  for (const node of $$("[data-path]", form)) {
    const own = node.dataset.path;
    if (!visible(node) || !(path === own || path.startsWith(`${own}.`))) continue;
    if (!best || own.length > best.dataset.path.length) best = node;
  }
  return best;
}

/** "item 1" for ".0": the part of the issue path below the field, for people. */
function where(path, fieldPath) {
  const rest = path.slice(fieldPath.length + 1);
  if (!rest) return "";
  return `${rest.split(".").map((part) => (/^\d+$/.test(part) ? `item ${Number(part) + 1}` : part)).join(" › ")}: `;
}

/**
 * Shows issues ({path, rule, message}) next to the fields their paths name, and a summary at the top of the form.
 * Returns the first invalid control, so the caller can focus it.
 */
export function showErrors(form, summary, issues = []) {
  let first;
  const unplaced = [];
  for (const issue of issues) {
    const target = targetFor(form, String(issue.path ?? ""));
    const slot = target ? (target.matches(".field") ? $(".field-error", target) : $(":scope > .field-error", target)) : null;
    if (!target || !slot) {
      unplaced.push(issue);
      continue;
    }
    slot.hidden = false;
    append(slot, `${where(String(issue.path), target.dataset.path)}${issue.message}`);
    target.classList.add("invalid");
    const control = target.matches(".field") ? controlOf(target) : null;
    if (control) control.setAttribute("aria-invalid", "true");
    first ??= control ?? target;
  }
  const box = $(".form-error", form);
  if (box) {
    box.hidden = false;
    const count = issues.length > 1 ? ` (${issues.length} problems, shown next to their fields)` : issues.length === 1 && unplaced.length === 0 ? " (shown next to the field)" : "";
    replace(
      box,
      h("strong", { text: summary }),
      count,
      unplaced.length ? h("ul", {}, unplaced.map((issue) => h("li", {}, h("code", { text: issue.path ?? "" }), ` ${issue.message}`))) : null,
    );
  }
  return first;
}

function append(slot, text) {
  slot.append(slot.childNodes.length ? h("br") : "", text);
}
