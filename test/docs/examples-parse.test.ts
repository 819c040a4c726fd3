import { test } from "node:test";
import assert from "node:assert/strict";
import { continues, examples, fencedBlocks, mask, unmarked } from "./examples.ts";

const page = [
  "Intro.",
  "",
  "```console",
  "$ curl -s localhost:8787/a \\",
  "    -d '{\"a\":",
  "1}'",
  "{\"ok\":true}",
  "",
  "$ echo \"exit $?\"",
  "exit 0",
  "```",
  "",
  "<!-- not-run: a client configuration -->",
  "",
  "```ts",
  "const x = 1;",
  "```",
  "",
  "```sh",
  "npm start",
  "```",
  "",
  "```json",
  "{}",
  "```",
].join("\n");

test("a console block's commands continue over a trailing backslash and an open quote, and their output follows", () => {
  const [block] = fencedBlocks("page.md", page);
  assert.ok(block);
  assert.deepEqual(
    examples(block).map(({ line, command, expected }) => ({ line, command, expected })),
    [
      { line: 4, command: "curl -s localhost:8787/a \\\n    -d '{\"a\":\n1}'", expected: '{"ok":true}' },
      { line: 9, command: 'echo "exit $?"', expected: "exit 0" },
    ],
  );
});

test("a runnable block without a not-run marker is reported, a marked one and a JSON one are not", () => {
  const blocks = fencedBlocks("page.md", page);
  assert.equal(blocks.find((b) => b.lang === "ts")?.notRun, "a client configuration");
  assert.deepEqual(unmarked(blocks).map((b) => `${b.file}:${b.line} ${b.lang}`), ["page.md:19 sh"]);
});

test("a quote closed on the same line or an escaped quote does not continue a command", () => {
  assert.equal(continues(`curl -d '{"a":1}'`), false);
  assert.equal(continues(`echo it\\'s`), false);
  assert.equal(continues(`echo "a \\" b`), true);
  assert.equal(continues(`printf '%s\\n' x`), false);
});

test("masking hides times, ids and measured gaps but keeps every other number", () => {
  assert.equal(
    mask('{"id":"0123456789abcdef0123456789abcdef","createdAt":"2026-11-30T23:57:19.843Z","durationMs":12} Retried 381 ms after a 503 (1000 ms)  '),
    '{"id":"<id>","createdAt":"<time>","durationMs":<n>} Retried <n> ms after a 503 (1000 ms)',
  );
  assert.notEqual(mask("at most 3 expected"), mask("at most 4 expected"));
  assert.notEqual(mask('"evidence":[1,2]'), mask('"evidence":[1,3]'));
});

test("masking hides the OAuth server's client ids, codes and tokens but keeps their kind and any other text", () => {
  const token = "Qby-Zn8L_8YwBWer9zQXCwopaRELhAYVS5tr6bCdZA0";
  assert.equal(
    mask(`{"client_id":"flcl_L65trcv8U53GSuJRU9qGVA","client_id_issued_at":1796095599} code=flc_${token} fla_${token} flr_${token}`),
    '{"client_id":"flcl_<id>","client_id_issued_at":<n>} code=flc_<secret> fla_<secret> flr_<secret>',
  );
  // Only the lengths the server mints: a shorter value, or another prefix, is shown as it is.
  assert.equal(mask("fla_short flx_" + token), "fla_short flx_" + token);
});
