import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evidenceFile, type LocalPaths, repositoryPaths } from "../../scorecard/evidence.ts";

// Evidence files are committed: a path of the machine that ran the scorecard (the checkout, the folder a worktree's
// node_modules symlink resolves to, a temporary folder) must come out as the repository's path, or as <tmp>.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const PATHS: LocalPaths = {
  roots: [
    { absolute: "/srv/wt-feature", relative: "" },
    { absolute: "/srv/main/scorecard/node_modules", relative: "scorecard/node_modules" },
  ],
  temp: ["/tmp"],
};

test("a stack trace's file:// path through the symlinked node_modules is written relative to the repository root", () => {
  const line = "at handle (file:///srv/main/scorecard/node_modules/@mastra/mcp/dist/index.js:253:29)";
  assert.equal(repositoryPaths(line, PATHS), "at handle (scorecard/node_modules/@mastra/mcp/dist/index.js:253:29)");
});

test("a path under the checkout is written relative to it, the checkout itself as ., and a temporary folder's as <tmp>", () => {
  assert.equal(repositoryPaths("see /srv/wt-feature/bin/faultline.ts in /srv/wt-feature, and /tmp/scorecard-x1/browser.log", PATHS), "see bin/faultline.ts in ., and <tmp>/scorecard-x1/browser.log");
});

test("a path that only starts like a local one, or sits inside a URL, is left as it is", () => {
  const text = "/srv/wt-feature2/x and http://127.0.0.1:8787/tmp/y";
  assert.equal(repositoryPaths(text, PATHS), text);
});

test("an evidence file shows the client's output without the checkout's absolute paths", () => {
  const row = {
    scenario: "auth.unauthorized",
    result: "fail",
    command: { status: "exit 1" },
    durationMs: 200,
    requests: 1,
    params: {},
    faults: { fired: 1, entries: [1] },
    reasons: ["the command exited with status 1"],
    checks: [],
  } as unknown as Parameters<typeof evidenceFile>[1];
  const output = `client: connect failed: Error: Unauthorized\n    at f (file:///srv/main/scorecard/node_modules/@modelcontextprotocol/client/dist/index.mjs:253:29)\n    at g (/srv/wt-feature/scorecard/clients/sdk-v2.mjs:9:1)`;
  const text = evidenceFile("sdk-v2-modern", row, [], "node bin/faultline.ts run", output, PATHS);
  assert.ok(text.includes("scorecard/node_modules/@modelcontextprotocol/client/dist/index.mjs:253:29"), text);
  assert.doesNotMatch(text, /\/srv\//);
});

/** This checkout's own paths, or any absolute path that reaches one of the repository's folders or a node_modules. */
function localPathIn(text: string): string | undefined {
  const here = [ROOT, ...[ROOT, join(ROOT, "node_modules"), join(ROOT, "scorecard", "node_modules")].filter(existsSync).map((path) => realpathSync(path))];
  const own = here.map((path) => path.replace(/\/+$/, "")).find((path) => text.includes(`${path}/`));
  return own ?? /(?<![\w.:/<>-])(?:file:\/\/)?(?:\/[\w.-]+)+?\/(?:node_modules|scorecard|src|bin|test)\//.exec(text)?.[0];
}

test("no committed evidence file names an absolute path of the machine that ran it", () => {
  const results = join(ROOT, "scorecard", "results");
  const found: string[] = [];
  for (const column of readdirSync(results)) {
    for (const file of readdirSync(join(results, column))) {
      const path = localPathIn(readFileSync(join(results, column, file), "utf8"));
      if (path) found.push(`${column}/${file}: ${path}`);
    }
  }
  assert.deepEqual(found.slice(0, 10), []);
});

test("the committed-evidence check finds another machine's checkout path in a stack trace, and passes a relative one", () => {
  assert.equal(localPathIn("at f (file:///home/ci/repo/scorecard/node_modules/x.js:1:1)"), "file:///home/ci/repo/scorecard/");
  assert.equal(localPathIn("at f (scorecard/node_modules/x.js:1:1) and ./scorecard/clients/a.mjs"), undefined);
});
