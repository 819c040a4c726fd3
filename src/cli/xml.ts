/**
 * XML 1.0 text and attribute escaping. The five special characters become entities; characters XML 1.0 cannot carry
 * at all, not even as character references (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates), are
 * written as a visible `\uXXXX` so that a client's stray control byte cannot make the whole report unreadable.
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, (char) => {
    const entity = ENTITIES[char];
    return entity ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  });
}

/** escapeXml, and also tab, LF and CR as character references, which attribute-value normalization would turn into spaces. */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/[\t\n\r]/g, (char) => `&#${char.charCodeAt(0)};`);
}

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

type Attributes = Record<string, string | number>;

function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .map(([key, value]) => ` ${key}="${escapeXmlAttribute(String(value))}"`)
    .join("");
}

/** An element with escaped attributes and already-rendered child elements (or none: a self-closing tag), a line each. */
export function element(name: string, attrs: Attributes, children: readonly string[] = []): string {
  return children.length === 0 ? `<${name}${attributes(attrs)}/>` : `<${name}${attributes(attrs)}>\n${children.join("\n")}\n</${name}>`;
}

/** An element whose content is escaped text. */
export function textElement(name: string, attrs: Attributes, text: string): string {
  return `<${name}${attributes(attrs)}>${escapeXml(text)}</${name}>`;
}
