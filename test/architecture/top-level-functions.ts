// Finds the top-level functions of a TypeScript or JavaScript file and the lines each spans, for the function-length
// gate. TypeScript 7 has no JavaScript compiler API, so this is a small lexer: it reads comments, strings, template
// literals (with their `${…}` parts), regular expressions and JSX elements as whole tokens, so that a brace, quote or
// apostrophe inside one of them never counts. Anything it cannot close (an unterminated literal, an unbalanced
// bracket) throws: a scanner that lost its place must fail the gate, not shrink a function.

export interface TopLevelFunction {
  name: string;
  /** 1-based line of the declaration's first token (`export`, `function`, `const`, …). */
  start: number;
  /** 1-based line of its last token. */
  end: number;
  /** end - start + 1 */
  lines: number;
}

interface Token {
  text: string;
  /** Only "punct" tokens open or close brackets; a literal, regex or JSX element is one opaque token. */
  kind: "word" | "punct" | "literal";
  line: number;
  endLine: number;
  column: number;
  /** Whether this is the first token on its line. */
  first: boolean;
}

/** After these words an expression starts, so `/` opens a regular expression and `<` (in JSX files) an element. */
const EXPRESSION_KEYWORDS = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);
const PUNCTUATORS = ["=>", "...", "?.", "??", "===", "!==", "==", "!=", "<=", ">=", "&&", "||"];
const WORD = /[\w$#]/;

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private lastLine = 0;
  readonly tokens: Token[] = [];
  private readonly text: string;
  private readonly jsx: boolean;

  constructor(text: string, jsx: boolean) {
    this.text = text;
    this.jsx = jsx;
  }

  private fail(what: string): never {
    throw new Error(`${what} at line ${this.line}`);
  }

  /** Moves past one character, counting lines. */
  private step(): void {
    if (this.text[this.i] === "\n") {
      this.line++;
      this.lineStart = this.i + 1;
    }
    this.i++;
  }

  private push(kind: Token["kind"], text: string, line: number, column: number): void {
    this.tokens.push({ text, kind, line, endLine: this.line, column, first: line !== this.lastLine });
    this.lastLine = this.line;
  }

  /** Code up to the end of the text, or (`inner`) up to the `}` that closes the `${` or JSX `{` being read. */
  code(inner: boolean): void {
    let depth = 0;
    let prev: Token | undefined;
    const expressionStarts = () => !prev || (prev.kind === "punct" && !")]}".includes(prev.text)) || (prev.kind === "word" && EXPRESSION_KEYWORDS.has(prev.text));
    while (this.i < this.text.length) {
      const c = this.text[this.i] as string;
      const next = this.text[this.i + 1];
      if (/\s/.test(c)) {
        this.step();
        continue;
      }
      if (c === "/" && next === "/") {
        while (this.i < this.text.length && this.text[this.i] !== "\n") this.step();
        continue;
      }
      if (c === "/" && next === "*") {
        const end = this.text.indexOf("*/", this.i + 2);
        if (end < 0) this.fail("unterminated comment");
        while (this.i < end + 2) this.step();
        continue;
      }
      if (inner && c === "}" && depth === 0) return;
      const line = this.line;
      const column = this.i - this.lineStart;
      if (c === '"' || c === "'") this.quoted(c);
      else if (c === "`") this.template();
      else if (c === "/" && expressionStarts()) this.regex();
      else if (c === "<" && this.jsx && expressionStarts() && next !== undefined && /[A-Za-z>]/.test(next)) this.element();
      else if (WORD.test(c)) {
        const start = this.i;
        while (this.i < this.text.length && WORD.test(this.text[this.i] as string)) this.step();
        this.push("word", this.text.slice(start, this.i), line, column);
        prev = this.tokens.at(-1);
        continue;
      } else {
        const text = PUNCTUATORS.find((p) => this.text.startsWith(p, this.i)) ?? c;
        for (let k = 0; k < text.length; k++) this.step();
        if (text === "{") depth++;
        if (text === "}") depth--;
        this.push("punct", text, line, column);
        prev = this.tokens.at(-1);
        continue;
      }
      this.push("literal", this.text.slice(this.i - 1, this.i), line, column);
      prev = this.tokens.at(-1);
    }
    if (inner) this.fail("unclosed ${ or JSX {");
  }

  /** A '…' or "…" string, escapes included. */
  private quoted(quote: string): void {
    this.step();
    while (this.text[this.i] !== quote) {
      if (this.i >= this.text.length || this.text[this.i] === "\n") this.fail("unterminated string");
      if (this.text[this.i] === "\\") this.step();
      this.step();
    }
    this.step();
  }

  /** A template literal; each `${…}` inside is read as code, so a nested template or brace closes where it should. */
  private template(): void {
    this.step();
    while (this.text[this.i] !== "`") {
      if (this.i >= this.text.length) this.fail("unterminated template literal");
      if (this.text[this.i] === "\\") this.step();
      else if (this.text.startsWith("${", this.i)) {
        this.step();
        this.nested();
        continue;
      }
      this.step();
    }
    this.step();
  }

  /** Code inside `${…}` or a JSX `{…}` from its `{`, read into its own token list (it never holds a top-level function). */
  private nested(): void {
    this.step();
    const inner = new Lexer(this.text, this.jsx);
    Object.assign(inner, { i: this.i, line: this.line, lineStart: this.lineStart });
    inner.code(true);
    Object.assign(this, { i: inner.i + 1, line: inner.line, lineStart: inner.lineStart });
  }

  /** A regular expression literal: a `/` inside a character class does not end it. */
  private regex(): void {
    this.step();
    let inClass = false;
    while (inClass || this.text[this.i] !== "/") {
      const c = this.text[this.i];
      if (c === undefined || c === "\n") this.fail("unterminated regular expression");
      if (c === "\\") this.step();
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      this.step();
    }
    this.step();
    while (this.i < this.text.length && /[a-z]/.test(this.text[this.i] as string)) this.step();
  }

  /** A JSX element or fragment with its children: text between tags is not code (an apostrophe there is text). */
  private element(): void {
    this.step(); // <
    while (this.i < this.text.length && /[\w.:-]/.test(this.text[this.i] as string)) this.step();
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail("unterminated JSX tag");
      if (c === "{") this.nested();
      else if (c === '"' || c === "'") {
        const end = this.text.indexOf(c, this.i + 1);
        if (end < 0) this.fail("unterminated JSX attribute");
        while (this.i <= end) this.step();
      } else if (c === "/" && this.text[this.i + 1] === ">") {
        this.step();
        this.step();
        return;
      } else if (c === ">") {
        this.step();
        break;
      } else this.step();
    }
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail("unclosed JSX element");
      if (c === "{") this.nested();
      else if (c === "<" && this.text[this.i + 1] === "/") {
        while (this.i < this.text.length && this.text[this.i] !== ">") this.step();
        this.step();
        return;
      } else if (c === "<") this.element();
      else this.step();
    }
  }
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSE = new Set(Object.values(OPEN));
/** A line at depth 0 starting with one of these continues the statement above it. */
const CONTINUES = new Set([".", "?.", ")", "]", "}", "?", ":", "|", "||", "&", "&&", "??", "+", "-", "*", "/", ",", "=", "=>"]);
const DECLARATION_HEAD = new Set(["export", "default", "async", "declare"]);

/**
 * Where the statement starting at token `from` ends: at a `;` outside brackets, or before a line that starts at
 * column 0 outside brackets (a new statement), or at the end of the file.
 */
function statementEnd(tokens: readonly Token[], from: number): number {
  const stack: string[] = [];
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (k > from && stack.length === 0 && t.first && t.column === 0 && !CONTINUES.has(t.text)) return k - 1;
    if (t.kind !== "punct") continue;
    if (t.text in OPEN) stack.push(OPEN[t.text] as string);
    else if (CLOSE.has(t.text) && stack.pop() !== t.text) throw new Error(`unbalanced ${t.text} at line ${t.line}`);
    else if (t.text === ";" && stack.length === 0) return k;
  }
  if (stack.length > 0) throw new Error("unclosed bracket at the end of the file");
  return tokens.length - 1;
}

/** Whether the initializer starting at token `k` is a function: `function`, `async …`, `x =>` or `(…) [: T] =>`. */
function isFunctionValue(tokens: readonly Token[], k: number, end: number): boolean {
  const t = tokens[k];
  if (!t) return false;
  if (t.text === "function") return true;
  if (t.text === "async" && k < end) return isFunctionValue(tokens, k + 1, end);
  if (t.kind === "word" && tokens[k + 1]?.text === "=>") return true;
  if (t.text === "<") {
    // A generic arrow, `<T>(x: T) => …` (a .ts file: in JSX files `<` opens an element).
    while (k <= end && tokens[k]?.text !== "(") k++;
  }
  if (tokens[k]?.text !== "(") return false;
  let depth = 0;
  for (; k <= end; k++) {
    const text = (tokens[k] as Token).text;
    if (text === "(" || text === "[" || text === "{") depth++;
    if (text === ")" || text === "]" || text === "}") depth--;
    if (depth === 0) break;
  }
  // After the parameters, the arrow, or a return type and then the arrow.
  if (tokens[k + 1]?.text === "=>") return true;
  if (tokens[k + 1]?.text !== ":") return false;
  depth = 0;
  for (k += 2; k <= end; k++) {
    const text = (tokens[k] as Token).text;
    if (text === "(" || text === "[" || text === "{" || text === "<") depth++;
    if (text === ")" || text === "]" || text === "}" || text === ">") depth--;
    if (depth === 0 && text === "=>") return true;
    if (depth === 0 && (text === ";" || text === "," || text === "=")) return false;
  }
  return false;
}

/** The name and initializer of `const|let|var name[: type] = …`, or undefined when token `k` does not start one. */
function variable(tokens: readonly Token[], k: number, end: number): { name: string; value: number } | undefined {
  if (!["const", "let", "var"].includes(tokens[k]?.text ?? "")) return undefined;
  const name = tokens[k + 1];
  if (name?.kind !== "word") return undefined;
  let depth = 0;
  for (let j = k + 2; j <= end; j++) {
    const text = (tokens[j] as Token).text;
    if (text === "(" || text === "[" || text === "{" || text === "<") depth++;
    if (text === ")" || text === "]" || text === "}" || text === ">") depth--;
    if (text === "=" && depth === 0) return { name: name.text, value: j + 1 };
  }
  return undefined;
}

/** The top-level functions of `source`: function declarations and `const f = (…) => …` / `= function …` values. */
export function topLevelFunctions(source: string, file = "source.ts"): TopLevelFunction[] {
  // A `#!` line is not code; it is blanked (not removed) so line numbers stay.
  const text = source.startsWith("#!") ? source.replace(/^#![^\n]*/, (line) => " ".repeat(line.length)) : source;
  const lexer = new Lexer(text, /\.[jt]sx$/.test(file));
  try {
    lexer.code(false);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const tokens = lexer.tokens;
  const found: TopLevelFunction[] = [];
  for (let k = 0; k < tokens.length; ) {
    let end: number;
    try {
      end = statementEnd(tokens, k);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    let head = k;
    while (head <= end && DECLARATION_HEAD.has((tokens[head] as Token).text)) head++;
    let name: string | undefined;
    if (tokens[head]?.text === "function") {
      const next = tokens[head + 1]?.text === "*" ? tokens[head + 2] : tokens[head + 1];
      name = next?.kind === "word" ? next.text : "default";
    } else {
      const v = variable(tokens, head, end);
      if (v && isFunctionValue(tokens, v.value, end)) name = v.name;
    }
    if (name !== undefined) {
      const start = (tokens[k] as Token).line;
      const last = (tokens[end] as Token).endLine;
      found.push({ name, start, end: last, lines: last - start + 1 });
    }
    k = end + 1;
  }
  return found;
}
