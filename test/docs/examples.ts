/**
 * The shell examples of the README and docs/, as data: which fenced blocks are run, which are marked not-run, and
 * how an example's printed output is masked before it is compared.
 *
 * Convention: a ```console block is run. Each line starting with `$ ` is a command (continued on the next lines while
 * a line ends with `\`); the lines after it, up to the next `$ ` line, are what it prints. Any other block in a
 * language that a reader could run (sh, bash, ts, js, …) must be preceded by `<!-- not-run: reason -->`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Languages a reader could paste into a shell or a runtime: each such block is either run or carries a marker. */
const RUNNABLE = new Set(["console", "sh", "shell", "bash", "zsh", "ts", "typescript", "mts", "js", "javascript", "mjs"]);

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The reason of a `<!-- not-run: reason -->` on the line before the fence (blank lines allowed between). */
  notRun?: string;
  lines: string[];
}

export interface Example {
  file: string;
  /** 1-based line of the `$ ` line. */
  line: number;
  command: string;
  expected: string;
}

/** The markdown files whose examples are checked: README.md and every page under docs/, in a stable order. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"), { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".md"))
    .map((d) => join("docs", d.name))
    .sort();
  return ["README.md", ...docs];
}

export function fencedBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  let marker: string | undefined;
  let open: { fence: string; indent: string; block: Block } | undefined;
  lines.forEach((line, i) => {
    if (open) {
      if (line.trim() === open.fence) {
        blocks.push(open.block);
        open = undefined;
      } else open.block.lines.push(line.startsWith(open.indent) ? line.slice(open.indent.length) : line);
      return;
    }
    const notRun = /^\s*<!--\s*not-run:\s*(.*?)\s*-->\s*$/.exec(line);
    const fence = /^(\s*)(`{3,})(\S*)\s*$/.exec(line);
    if (notRun) marker = notRun[1] ?? "";
    else if (fence) {
      const [, indent = "", ticks = "", lang = ""] = fence;
      open = { fence: ticks, indent, block: { file, line: i + 1, lang, notRun: marker, lines: [] } };
      marker = undefined;
    } else if (line.trim() !== "") marker = undefined;
  });
  return blocks;
}

/** Blocks a reader could run that are neither a console block nor marked not-run: each is a gap in the checking. */
export function unmarked(blocks: readonly Block[]): Block[] {
  return blocks.filter((b) => RUNNABLE.has(b.lang) && b.lang !== "console" && b.notRun === undefined);
}

/** Whether a shell command needs another line: it ends with a backslash, or a quote is still open. */
export function continues(command: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === "\\") {
      if (i === command.length - 1) return true;
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
  }
  return quote !== undefined;
}

export function examples(block: Block): Example[] {
  if (block.lang !== "console" || block.notRun !== undefined) return [];
  const out: Example[] = [];
  let current: { line: number; command: string[]; output: string[] } | undefined;
  let continued = false;
  const flush = () => {
    if (current) out.push({ file: block.file, line: current.line, command: current.command.join("\n"), expected: current.output.join("\n").trimEnd() });
  };
  block.lines.forEach((text, k) => {
    if (continued && current) {
      current.command.push(text);
      continued = continues(current.command.join("\n"));
    } else if (text.startsWith("$ ")) {
      flush();
      current = { line: block.line + 1 + k, command: [text.slice(2)], output: [] };
      continued = continues(text.slice(2));
    } else if (current) current.output.push(text);
  });
  flush();
  return out;
}

export function readExamples(root: string): { blocks: Block[]; examples: Example[] } {
  const blocks = markdownFiles(root).flatMap((file) => fencedBlocks(file, readFileSync(join(root, file), "utf8")));
  return { blocks, examples: blocks.flatMap(examples) };
}

/**
 * What differs from run to run and is replaced, in the expected and the actual output alike, before they are compared.
 * Everything else must match byte for byte (after trailing whitespace), so a changed message, status or field fails.
 */
const MASKS: ReadonlyArray<[RegExp, string]> = [
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g, "<time>"],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT\b/g, "<date>"],
  [/"(durationMs|time)":\d+(?:\.\d+)?/g, '"$1":<n>'],
  // measured gaps in the checks' messages ("Retried 20 ms after a 503 …")
  [/\b(Retried|retried|Waited|waited|came) \d+ ms\b/g, "$1 <n> ms"],
  // random session ids (128 bits) and MCP session ids (256 bits), as hex
  [/\b[0-9a-f]{64}\b/g, "<id>"],
  [/\b[0-9a-f]{32}\b/g, "<id>"],
  // signed requestState and bearer-like secrets
  [/"requestState":"[^"]*"/g, '"requestState":"<secret>"'],
  // the auth scenarios' OAuth server: client ids (16 random bytes), codes and tokens (32), base64url after a prefix
  [/(?<![\w-])flcl_[\w-]{22}(?![\w-])/g, "flcl_<id>"],
  [/(?<![\w-])(fl[acr])_[\w-]{43}(?![\w-])/g, "$1_<secret>"],
  [/"client_id_issued_at":\d+/g, '"client_id_issued_at":<n>'],
];

export function mask(text: string): string {
  let out = text.replace(/[ \t]+$/gm, "").trimEnd();
  for (const [pattern, replacement] of MASKS) out = out.replace(pattern, replacement);
  return out;
}
