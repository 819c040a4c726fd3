// Served as /assets/json-view.client.js. Pretty-printed, highlighted JSON built from text nodes and spans.
import { h } from "./dom.client.js";

const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const HIGHLIGHT_LIMIT = 200_000;

/** A <pre> holding `value` as indented JSON, with keys, strings, numbers and literals in their own spans. */
export function jsonBlock(value) {
  const text = JSON.stringify(value, null, 2) ?? String(value);
  const code = h("code");
  if (text.length > HIGHLIGHT_LIMIT) {
    code.textContent = text;
    return h("pre", { class: "json" }, code);
  }
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) code.append(text.slice(last, match.index));
    const [token, string, colon, literal] = match;
    const kind = string ? (colon ? "key" : "string") : literal ? "literal" : "number";
    code.append(h("span", { class: `j-${kind}`, text: string && colon ? string : token }));
    if (string && colon) code.append(colon);
    last = match.index + token.length;
  }
  code.append(text.slice(last));
  return h("pre", { class: "json" }, code);
}

/** Parses text as JSON; undefined when it is not. */
export function tryJson(text) {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** A body as journalled ({text, bytes, truncated}): pretty JSON when it parses, raw text otherwise. */
export function bodyView(body) {
  const text = body?.text ?? "";
  const meta = h("p", { class: "body-meta muted" }, `${body?.bytes ?? text.length} bytes`, body?.truncated ? h("span", { class: "tag warn", text: "truncated" }) : null);
  if (text === "") return h("div", { class: "body" }, h("p", { class: "muted", text: "(empty body)" }));
  const parsed = tryJson(text);
  return h("div", { class: "body" }, meta, parsed ? jsonBlock(parsed.value) : h("pre", { class: "raw" }, h("code", { text })));
}
