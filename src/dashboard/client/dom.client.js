// Served as /assets/dom.client.js. DOM helpers for the dashboard's scripts.
// Everything the dashboard shows may come from an untrusted MCP client, so text only ever goes in through
// textContent or attribute setters: no innerHTML anywhere.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Creates an element. `attrs`: "class", "text" (textContent), "on…" listeners (functions), "dataset" (object),
 * booleans (true sets an empty attribute, false/undefined/null skips), anything else via setAttribute.
 */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** Same as h() for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** Appends children: nodes, strings (as text), arrays, and skips null/undefined/false. */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces every child of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

// Lookups in the dashboard's own server-rendered markup: callers know which kind of element they selected, so the
// result is left untyped (`any`) rather than cast at each of the ~100 call sites.
/** The first element under `root` matching `selector`. @param {string} selector @param {ParentNode} [root] @returns {any} */
export const $ = (selector, root = document) => root.querySelector(selector);
/** Every element under `root` matching `selector`. @param {string} selector @param {ParentNode} [root] @returns {any[]} */
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/**
 * Calls the JSON API. Resolves to {ok, status, data}; `data` is the parsed body or undefined.
 * Network failures resolve too, with status 0 and an {error} shaped like the API's.
 */
export async function api(method, url, body) {
  try {
    const response = await fetch(url, {
      method,
      headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let data;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = { error: { code: "bad_response", message: `The server answered ${response.status} with a body that is not JSON` } };
    }
    return { ok: response.ok, status: response.status, data };
  } catch (error) {
    return { ok: false, status: 0, data: { error: { code: "network", message: `Could not reach the server: ${errorMessage(error)}` } } };
  }
}

/** The message of whatever was thrown. @param {unknown} error */
export function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/** Shows a short message at the bottom of the page. */
export function toast(message, kind = "info") {
  const node = document.getElementById("toast");
  if (!node) return;
  node.textContent = message;
  node.dataset.kind = kind;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), 2600);
}

/** Copies text to the clipboard; falls back to a hidden textarea where the Clipboard API is unavailable. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "visually-hidden", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** "14:03:07.123" in local time. */
export function clock(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const pad = (n, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** "850 ms", "2.4 s", "3.1 min". */
export function duration(ms) {
  if (!Number.isFinite(ms)) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 1))} s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

/** "3 min ago". */
export function relative(iso, now = Date.now()) {
  const ms = now - new Date(iso).getTime();
  if (!Number.isFinite(ms)) return "";
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  /** @type {Array<[number, number, Intl.RelativeTimeFormatUnit]>} */
  const steps = [
    [60_000, 1000, "second"],
    [3_600_000, 60_000, "minute"],
    [86_400_000, 3_600_000, "hour"],
    [Infinity, 86_400_000, "day"],
  ];
  for (const [limit, unit, name] of steps) if (Math.abs(ms) < limit) return rtf.format(-Math.round(ms / unit), name);
  return "";
}
