import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../../src/cli/errors.ts";
import { RunReportSchema } from "../../src/cli/json-report.ts";
import { parseRunArgs, variantCommand } from "../../src/cli/run-args.ts";
import { useServer } from "../helpers/server.ts";
import { useBuiltCli } from "./built-cli.ts";

// `faultline run --each NAME=V1,V2`: one command run for every client configuration (a client × era pair), each
// value put into the command's {NAME}, every scenario once per combination.
const none = () => undefined;
const parse = (...argv: string[]) => parseRunArgs(argv, none, {})!;

test("--each gives one variant per value, and two --each give every combination, the first outermost", () => {
  assert.deepEqual(parse("--scenario", "baseline", "--each", "era=legacy,modern", "--", "node", "c.mjs", "--era", "{era}").variants, [{ era: "legacy" }, { era: "modern" }]);
  const both = parse("--all", "--each", "client=a,b", "--each", "era=legacy,modern", "--", "node", "{client}.mjs", "--era={era}").variants;
  assert.deepEqual(both, [
    { client: "a", era: "legacy" },
    { client: "a", era: "modern" },
    { client: "b", era: "legacy" },
    { client: "b", era: "modern" },
  ]);
});

test("without --each there is one variant with no values, and the command is run as given", () => {
  const options = parse("--scenario", "baseline", "--", "node", "c.mjs", "{era}");
  assert.deepEqual(options.variants, [{}]);
  assert.deepEqual(variantCommand(options.command, {}), ["node", "c.mjs", "{era}"]);
});

test("a variant's values replace every {NAME} in the command's words, inside a word too", () => {
  assert.deepEqual(variantCommand(["node", "{client}.mjs", "--era={era}", "{era}-{era}"], { client: "sdk", era: "legacy" }), ["node", "sdk.mjs", "--era=legacy", "legacy-legacy"]);
});

test("--each is refused, naming the rule, for a name the command never uses, no values, an empty or repeated value, a bad name or a name given twice", () => {
  const refused = (each: string[], message: RegExp) =>
    assert.throws(() => parse("--scenario", "baseline", ...each.flatMap((e) => ["--each", e]), "--", "node", "c.mjs", "{era}"), (error: unknown) => error instanceof UsageError && message.test(error.message));
  refused(["client=a,b"], /--each client: the command has no \{client\}/);
  refused(["era"], /give one or more non-empty values/);
  refused(["era=legacy,"], /give one or more non-empty values/);
  refused(["era=legacy,legacy"], /a value is given twice/);
  refused(["1era=a"], /the name must be a letter/);
  refused(["era=a", "era=b"], /--each era: given twice/);
});

const server = useServer();
const cli = useBuiltCli();
const clients = fileURLToPath(new URL("clients/", import.meta.url));

test("faultline run --each runs the command once per value, and the JSON report, the table and JUnit tell the runs apart", async () => {
  const json = join(cli.dir, "each.json");
  const junit = join(cli.dir, "each.xml");
  const args = ["run", "--server", server.url, "--scenario", "baseline", "--each", "client=calls-once,exits-1", "--json", json, "--junit", junit, "--", process.execPath, `${clients}{client}.ts`];
  const result = await cli.runAsync(args, {});
  assert.equal(result.code, 1, result.stderr);
  const report = RunReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
  assert.deepEqual(
    report.scenarios.map((row) => [row.scenario, row.variant, row.result, row.command.status]),
    [
      ["baseline", { client: "calls-once" }, "pass", "exit 0"],
      ["baseline", { client: "exits-1" }, "fail", "exit 1"],
    ],
  );
  assert.match(result.stdout, /^baseline \[client=calls-once\] +exit 0 .* pass$/m);
  assert.match(result.stdout, /^baseline \[client=exits-1\] +exit 1 .* FAIL$/m);
  assert.match(result.stderr, /faultline: ── baseline \[client=exits-1\] \(2 of 2\), session \w+: the client's output follows/);
  assert.match(readFileSync(junit, "utf8"), /<testsuite name="baseline \[client=exits-1\]"/);
});
