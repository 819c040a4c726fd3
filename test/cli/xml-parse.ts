/**
 * A small, strict XML reader for the JUnit reports in these tests: elements, attributes, text, the five predefined
 * entities and character references. It throws on anything a conforming parser would refuse in such a file: a bare
 * `&` or `<`, an unknown entity, a mismatched end tag, a character XML 1.0 does not allow, text outside the root.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its descendants'), entities decoded. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
// XML 1.0 Char: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(raw: string, where: number): string {
  if (raw.includes("<")) throw new Error(`a bare < in text or an attribute near offset ${where}`);
  return raw.replace(/&([^;\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(";")) throw new Error(`a bare & near offset ${where}`);
    if (ENTITIES[name] !== undefined) return ENTITIES[name];
    const code = /^#x([0-9a-fA-F]+)$/.exec(name)?.[1] ?? /^#([0-9]+)$/.exec(name)?.[1];
    if (code === undefined) throw new Error(`unknown entity &${name}; near offset ${where}`);
    const char = String.fromCodePoint(name.startsWith("#x") ? parseInt(code, 16) : Number(code));
    if (NOT_XML_CHAR.test(char)) throw new Error(`a reference to a character XML does not allow (&${name};)`);
    return char;
  });
}

export function parseXml(xml: string): XmlElement {
  const bad = NOT_XML_CHAR.exec(xml);
  if (bad) throw new Error(`character U+${bad[0].codePointAt(0)!.toString(16)} is not allowed in XML, at offset ${bad.index}`);
  let at = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (declaration) at = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
  while (at < xml.length) {
    const lt = xml.indexOf("<", at);
    const text = xml.slice(at, lt === -1 ? xml.length : lt);
    if (text !== "") {
      const open = stack.at(-1);
      if (open) open.text += decode(text, at);
      else if (text.trim() !== "") throw new Error(`text outside the root element at offset ${at}`);
    }
    if (lt === -1) break;
    tag.lastIndex = lt;
    const match = tag.exec(xml);
    if (!match) throw new Error(`a malformed tag at offset ${lt}: ${xml.slice(lt, lt + 40)}`);
    const [whole, closing, name, attrText, selfClosing] = match as unknown as [string, string, string, string, string];
    at = lt + whole.length;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name ?? "nothing"}> at offset ${lt}`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, , double, single] of attrText.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
      if (key! in attributes) throw new Error(`attribute ${key} given twice on <${name}>`);
      // Attribute-value normalization (XML 1.0 §3.3.3): literal tab, LF and CR become spaces; references survive.
      attributes[key!] = decode((double ?? single ?? "").replace(/[\t\n\r]/g, " "), lt);
    }
    const element: XmlElement = { name, attributes, children: [], text: "" };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else if (root) throw new Error(`a second root element <${name}>`);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (!root) throw new Error("no root element");
  return root;
}

/** The children of `element` named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}
