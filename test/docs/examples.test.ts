/**
 * Runs every ```console example of the README and docs/ against a live `npm start` on a fresh state folder and
 * compares what it prints with what the page shows. The pages run one after another on one server (each uses its own
 * session ids); the commands of a page share one bash, as a reader's terminal would. The pages say localhost:8787:
 * commands go to the test's ephemeral port, and the port is mapped back in the output.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { buildCli } from "../../bin/build-cli.ts";
import { npmStart, type NpmServer } from "../helpers/npm-start.ts";
import { mask, readExamples, unmarked, type Example } from "./examples.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** A guard against a hanging command, not an assertion about speed. */
const COMMAND_DEADLINE_MS = 60_000;
const DOC_PORT = /\b(localhost|127\.0\.0\.1):8787\b/g;
const DONE = "__faultline_docs_example_done__";

const { blocks, examples } = readExamples(ROOT);
/** The CLI, built as a reader installs it (`faultline` on PATH); set up before the first page runs. */
const CLI_DIR = mkdtempSync(join(tmpdir(), "faultline-docs-cli-"));

/** One bash for one page, in the checkout, with Node 22 first on PATH as under npm. */
class Shell {
  private readonly child: ChildProcessWithoutNullStreams;
  private out = "";
  private waiting?: () => void;

  constructor() {
    this.child = spawn("bash", ["--noprofile", "--norc"], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${CLI_DIR}${delimiter}${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`, NO_COLOR: "1" },
    });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.out += chunk.toString();
      if (this.out.includes(DONE)) this.waiting?.();
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.out += chunk.toString()));
  }

  /** Runs one command (stdin from /dev/null, stderr into stdout) and returns what it printed. */
  async run(command: string, port: number): Promise<string> {
    this.out = "";
    const done = new Promise<void>((resolve) => (this.waiting = resolve));
    this.child.stdin.write(`{\n${command.replace(DOC_PORT, `$1:${port}`)}\n} </dev/null 2>&1\nprintf '\\n%s\\n' ${DONE}\n`);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, COMMAND_DEADLINE_MS)));
    await Promise.race([done, expired]);
    clearTimeout(timer);
    assert.ok(this.out.includes(DONE), `the command did not finish within ${COMMAND_DEADLINE_MS} ms; it printed:\n${this.out}`);
    return this.out.slice(0, this.out.indexOf(DONE)).replaceAll(`:${port}`, ":8787");
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

test("every block a reader could run is a console example or carries a not-run marker", () => {
  assert.deepEqual(
    unmarked(blocks).map((b) => `${b.file}:${b.line} (${b.lang})`),
    [],
    "add a `<!-- not-run: reason -->` line before the fence, or make it a ```console block with `$ ` prompts",
  );
});

test("the README and the pages under docs/ hold examples to run", () => {
  assert.ok(examples.some((e) => e.file === "README.md"), "the README has console examples");
  assert.ok(examples.some((e) => e.file.startsWith("docs/")), "docs/ has console examples");
});

describe("the console examples", () => {
  let server: NpmServer | undefined;
  before(async () => {
    await buildCli(join(CLI_DIR, "faultline"));
    server = await npmStart();
  });
  after(() => {
    server?.close();
    rmSync(CLI_DIR, { recursive: true, force: true });
  });

  for (const file of [...new Set(examples.map((e) => e.file))]) {
    describe(file, () => {
      // Started in a hook, not here: a suite left out by --test-name-pattern runs no hooks, so it leaves no shell behind.
      let shell: Shell | undefined;
      before(() => {
        shell = new Shell();
      });
      after(() => shell?.close());
      for (const example of examples.filter((e: Example) => e.file === file)) {
        test(`${file}:${example.line} prints what the page shows: ${(example.command.split("\n")[0] ?? "").slice(0, 70)}`, async () => {
          assert.ok(server && shell, "the server and the shell started");
          const actual = await shell.run(example.command, Number(new URL(server.url).port));
          assert.equal(mask(actual), mask(example.expected));
        });
      }
    });
  }
});
