import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { topLevelFunctions } from "./top-level-functions.ts";

// A gate: no top-level function in src/ is longer than LIMIT lines (issue 23), counted from its declaration's first
// line to its last, as the scanner in top-level-functions.ts measures them. Class methods and callbacks passed at
// the top level are not top-level functions and are not measured.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LIMIT = 100;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The functions of one file over the limit, as "file:line name (n lines)". */
function tooLong(source: string, file: string): string[] {
  return topLevelFunctions(source, file)
    .filter((fn) => fn.lines > LIMIT)
    .map((fn) => `${file}:${fn.start} ${fn.name} (${fn.lines} lines)`);
}

const files = sourceFiles(join(ROOT, "src")).map((path) => ({ file: relative(ROOT, path), source: readFileSync(path, "utf8") }));

test(`no top-level function in src/ is longer than ${LIMIT} lines`, () => {
  assert.ok(files.length > 100, `only ${files.length} files found: the scan is looking in the wrong place`);
  assert.ok(files.some((f) => f.file.endsWith(".tsx")) && files.some((f) => f.file.endsWith(".client.js")), "the scan reads .tsx and .js files");
  const offenders = files.flatMap(({ file, source }) => tooLong(source, file));
  assert.deepEqual(offenders, [], `split these into named steps:\n${offenders.join("\n")}`);
});

// A cross-check the scanner did not lose its place in a file: every line that a plain search sees starting a function
// declaration must be the first line of a function the scanner measured.
test("the scanner finds every top-level function declaration a line search finds in src/", () => {
  const DECLARATION = /^(?:export )?(?:default )?(?:async )?function[\s*]/;
  let declarations = 0;
  for (const { file, source } of files) {
    const starts = new Set(topLevelFunctions(source, file).map((fn) => fn.start));
    source.split("\n").forEach((line, i) => {
      if (!DECLARATION.test(line)) return;
      declarations++;
      assert.ok(starts.has(i + 1), `${file}:${i + 1} declares a function the scanner did not measure`);
    });
  }
  assert.ok(declarations > 300, `only ${declarations} declarations found`);
});

/** `export function name() {`, `size - 2` body lines made of `line(i)`, and `}`: a function of `size` lines. */
function planted(name: string, size: number, line = (i: number) => `  const v${i} = ${i};`): string {
  return [`export function ${name}() {`, ...Array.from({ length: size - 2 }, (_, i) => line(i)), "}"].join("\n");
}

test("a planted function one line over the limit is measured as such and fails the gate, one at the limit passes", () => {
  const source = `${planted("atLimit", LIMIT)}\n\n${planted("overLimit", LIMIT + 1)}\n`;
  assert.deepEqual(topLevelFunctions(source), [
    { name: "atLimit", start: 1, end: LIMIT, lines: LIMIT },
    { name: "overLimit", start: LIMIT + 2, end: 2 * LIMIT + 2, lines: LIMIT + 1 },
  ]);
  assert.deepEqual(tooLong(source, "planted.ts"), [`planted.ts:${LIMIT + 2} overLimit (${LIMIT + 1} lines)`]);
});

test("braces, quotes and slashes inside strings, templates, comments and regular expressions, and unindented lines, do not end a function", () => {
  const tricky = [
    `  const a = "}'\\"{";`,
    `  const b = '}"\\'{';`,
    "  const c = `} ${`{ ${'}'}`} ' \" {`;",
    `  // } ' " \``,
    `  /* { ' "`,
    `  } */`,
    `  const d = /[/}'"\`]{1}\\//g.test(a) ? 1 / 2 : 3;`,
    "const unindented = `",
    "}`;",
  ];
  const size = 2 + 5 * tricky.length;
  const source = planted("tricky", size, (i) => tricky[i % tricky.length] as string) + "\nexport const next = () => 1;\n";
  assert.deepEqual(
    topLevelFunctions(source).map((fn) => [fn.name, fn.lines]),
    [
      ["tricky", size],
      ["next", 1],
    ],
  );
});

test("JSX text with apostrophes and quotes is text, in .tsx files", () => {
  const source = [
    "export function Page() {",
    "  return (",
    `    <p class="x" title='it is "so"'>`,
    `      the scenario's faults {"}"} and "one quote`,
    "      <br />",
    "    </p>",
    "  );",
    "}",
    "const Frag = () => <>it's {1 < 2 ? <b>a</b> : null}</>;",
  ].join("\n");
  assert.deepEqual(
    topLevelFunctions(source, "page.tsx").map((fn) => [fn.name, fn.start, fn.lines]),
    [
      ["Page", 1, 8],
      ["Frag", 9, 1],
    ],
  );
});

test("arrow functions, function expressions, async, generic and typed declarations count; other values and nested functions do not", () => {
  const source = [
    "export default async function () {",
    "  function inner() {}",
    "}",
    "const arrow = (x: number): { y: number } => {",
    "  return { y: x };",
    "};",
    "export const typed: (a: string) => void = async (a) =>",
    "  console.log(a);",
    "let expression = function* named() {};",
    "const generic = <T,>(x: T) => x;",
    "const single = x => x;",
    "const value = (1 + 2) * 3;",
    "export const table = { f() { return 1; } };",
    "class C {",
    "  method() {}",
    "}",
    "export declare function signature(a: string): void;",
  ].join("\n");
  assert.deepEqual(
    topLevelFunctions(source).map((fn) => [fn.name, fn.start, fn.lines]),
    [
      ["default", 1, 3],
      ["arrow", 4, 3],
      ["typed", 7, 2],
      ["expression", 9, 1],
      ["generic", 10, 1],
      ["single", 11, 1],
      ["signature", 17, 1],
    ],
  );
});

test("a file the scanner cannot read to its end fails loudly instead of measuring less", () => {
  assert.throws(() => topLevelFunctions("function f() {\n  const s = `open ${1}\n}\n", "a.ts"), /a\.ts: unterminated template literal/);
  assert.throws(() => topLevelFunctions("function f() {\n  const s = 'open;\n}\n", "b.ts"), /b\.ts: unterminated string/);
  assert.throws(() => topLevelFunctions("function f() {\n  if (x) {\n}\n", "c.ts"), /c\.ts: unclosed bracket/);
  assert.throws(() => topLevelFunctions("const P = () => <p>it's\n", "d.tsx"), /d\.tsx: unclosed JSX element/);
});
