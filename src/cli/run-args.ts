import { parseArgs } from "node:util";
import { UsageError } from "./errors.ts";
import { readRunConfig, type RunConfig } from "./run-config.ts";
import { serverUrl } from "./server-option.ts";

export const RUN_USAGE = `Usage: faultline run [--server URL] (--scenario ID[=PARAMS_JSON] ... | --all) [options] -- COMMAND...
       faultline run [--config FILE] [options]

Runs an MCP client against Faultline scenarios and judges it by the server's checks.
For each scenario: creates a session, runs COMMAND (no shell) with FAULTLINE_MCP_URL and
FAULTLINE_SESSION_ID in its environment, waits for it to exit, reads the session's checks,
and deletes the session. COMMAND's output goes to stderr; the results table to stdout.

With a faultline.json in the current folder (or --config FILE), the scenarios, the
command, the timeout, the reports and the switches below come from it; a flag given on
the command line wins over the file (see docs/cli.md).

Options:
  --config FILE               read the run from FILE (default: ./faultline.json if present)
  --server URL                the Faultline server (default: $FAULTLINE_SERVER, else
                              http://127.0.0.1:8787)
  --scenario ID[=PARAMS_JSON] a scenario to run, with its params as a JSON object
                              (default: the scenario's defaults); repeat for more
  --all                       every scenario of the server's catalogue with its example
                              params, except those that need a step outside the client
  --junit FILE                write a JUnit XML report (a test suite per scenario)
  --markdown FILE             write a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)
  --json FILE                 write every scenario's result as JSON (see docs/cli.md)
  --timeout S                 seconds COMMAND may run per scenario (default 60); then its
                              process group is killed and the scenario fails
  --ignore-exit               do not fail a scenario for COMMAND's non-zero exit status
  --allow-unexercised         do not fail the run for a scenario whose fault never fired
  --allow-unjudged            do not fail the run for a scenario whose fault fired but that
                              no check judged
  --restart-after-task        kill COMMAND (SIGKILL) once a call is answered with a task, and
                              run it again with FAULTLINE_RESTARTED=1: does it resume the task?
  --each NAME=V1,V2,...       run everything once per value, with {NAME} in COMMAND's words
                              replaced by it (repeat for every combination of several)
  --keep                      keep the sessions (to look at them in the dashboard)
  -h, --help                  print this help

Environment: FAULTLINE_ADMIN_TOKEN, when set, is sent to the server's API as a bearer token.

Each scenario's result is pass, fail, not exercised (its fault never fired) or not judged
(the fault fired, but no check judged what the client did). A scenario fails when a check
failed, or COMMAND exited non-zero, timed out or sent no request to its session.

Exit status: 0 when every scenario passed (or was allowed), 1 when one failed, was not
exercised or was not judged, 2 for usage errors and server errors.
`;

/** A scenario to run and the params to create its session with. */
export interface ScenarioChoice {
  id: string;
  params: Record<string, unknown>;
}

/** Which results fail the run: a non-zero exit status, a fault that never fired, a fault no check judged. */
export interface RunPolicy {
  ignoreExit: boolean;
  allowUnexercised: boolean;
  allowUnjudged: boolean;
}

export interface RunOptions {
  server: string;
  /** The scenarios named with --scenario; empty with --all, which takes them from the server. */
  scenarios: ScenarioChoice[];
  all: boolean;
  junit: string | undefined;
  markdown: string | undefined;
  json: string | undefined;
  timeoutMs: number;
  /** How the results count against the run. */
  policy: RunPolicy;
  keep: boolean;
  /** Kill the command once a call is answered with a task and run it again (src/cli/restart.ts). */
  restartAfterTask: boolean;
  command: string[];
  /** One run of every scenario per variant: the values of --each to put in the command; [{}] without --each. */
  variants: Variant[];
}

/** One combination of --each values, by name: {NAME} in the command's words becomes the value. */
export type Variant = Record<string, string>;
const EACH_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

const DEFAULT_TIMEOUT_S = 60;
/** A day: a longer --timeout is a typo (milliseconds given as seconds), not a plan. */
const MAX_TIMEOUT_S = 86_400;

/**
 * Parses `faultline run`'s arguments, with faultline.json (or --config) under them; undefined means --help was asked
 * for. `readConfig` and `env` are parameters for the tests.
 */
export function parseRunArgs(argv: readonly string[], readConfig: (option: string | undefined) => RunConfig | undefined = readRunConfig, env: NodeJS.ProcessEnv = process.env): RunOptions | undefined {
  const dashes = argv.indexOf("--");
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const command = dashes === -1 ? [] : argv.slice(dashes + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...own],
      allowPositionals: true,
      options: {
        config: { type: "string" },
        server: { type: "string" },
        scenario: { type: "string", multiple: true },
        all: { type: "boolean" },
        junit: { type: "string" },
        markdown: { type: "string" },
        json: { type: "string" },
        timeout: { type: "string" },
        "ignore-exit": { type: "boolean" },
        "allow-unexercised": { type: "boolean" },
        "allow-unjudged": { type: "boolean" },
        keep: { type: "boolean" },
        "restart-after-task": { type: "boolean" },
        each: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { suggestHelp: true });
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  if (positionals.length > 0) throw new UsageError(`unexpected arguments before --: ${positionals.join(" ")} (put the client command after --)`, { suggestHelp: true });
  const config = readConfig(values.config);
  const fromFlags = command.length > 0 ? command : undefined;
  const clientCommand = fromFlags ?? config?.command ?? [];
  if (clientCommand.length === 0) throw new UsageError("missing the client command: faultline run [options] -- COMMAND... (or a faultline.json)", { suggestHelp: true });
  let scenarios = (values.scenario ?? []).map(parseScenario);
  let all = values.all ?? false;
  if (all && scenarios.length > 0) throw new UsageError("give either --all or --scenario, not both", { suggestHelp: true });
  // The file's scenarios stand unless the command line names its own.
  if (!all && scenarios.length === 0 && config !== undefined) {
    all = config.scenarios === "all";
    scenarios = config.scenarios === "all" ? [] : config.scenarios.map((s) => ({ id: s.id, params: s.params ?? {} }));
  }
  if (!all && scenarios.length === 0) throw new UsageError("missing --scenario ID (or --all)", { suggestHelp: true });
  return {
    server: serverUrl(values.server ?? config?.server, env),
    scenarios,
    all,
    junit: values.junit ?? config?.reports?.junit,
    markdown: values.markdown ?? config?.reports?.markdown,
    json: values.json ?? config?.reports?.json,
    timeoutMs: (values.timeout === undefined ? (config?.timeout ?? DEFAULT_TIMEOUT_S) : parseTimeout(values.timeout)) * 1000,
    policy: {
      ignoreExit: values["ignore-exit"] ?? config?.ignoreExit ?? false,
      allowUnexercised: values["allow-unexercised"] ?? config?.allowUnexercised ?? false,
      allowUnjudged: values["allow-unjudged"] ?? config?.allowUnjudged ?? false,
    },
    keep: values.keep ?? config?.keep ?? false,
    restartAfterTask: values["restart-after-task"] ?? config?.restartAfterTask ?? false,
    command: clientCommand,
    variants: parseEach(values.each ?? [], clientCommand),
  };
}

/** --each NAME=V1,V2: every combination of the values, each name's {NAME} required somewhere in the command. */
function parseEach(options: readonly string[], command: readonly string[]): Variant[] {
  let variants: Variant[] = [{}];
  const seen = new Set<string>();
  for (const option of options) {
    const at = option.indexOf("=");
    const name = at === -1 ? option : option.slice(0, at);
    const values = at === -1 ? [] : option.slice(at + 1).split(",");
    if (!EACH_NAME.test(name)) throw new UsageError(`--each ${option}: the name must be a letter then letters, digits, _ or -, like --each era=legacy,modern`);
    if (seen.has(name)) throw new UsageError(`--each ${name}: given twice; give its values once, comma-separated`);
    if (values.length === 0 || values.some((value) => value === "")) throw new UsageError(`--each ${option}: give one or more non-empty values, comma-separated, like --each ${name}=a,b`);
    if (new Set(values).size !== values.length) throw new UsageError(`--each ${option}: a value is given twice`);
    if (!command.some((word) => word.includes(`{${name}}`))) throw new UsageError(`--each ${name}: the command has no {${name}} to put the values in, so every run would be the same`);
    seen.add(name);
    variants = variants.flatMap((variant) => values.map((value) => ({ ...variant, [name]: value })));
  }
  return variants;
}

/** The command of one variant: each {NAME} in its words replaced by the variant's value. */
export function variantCommand(command: readonly string[], variant: Variant): string[] {
  return command.map((word) => Object.entries(variant).reduce((text, [name, value]) => text.replaceAll(`{${name}}`, value), word));
}

function parseScenario(text: string): ScenarioChoice {
  const at = text.indexOf("=");
  const id = at === -1 ? text : text.slice(0, at);
  if (id === "") throw new UsageError(`--scenario ${text}: the scenario id is empty`);
  if (at === -1) return { id, params: {} };
  let params: unknown;
  try {
    params = JSON.parse(text.slice(at + 1));
  } catch (error) {
    throw new UsageError(`--scenario ${id}: the params are not valid JSON (${error instanceof Error ? error.message : String(error)}); quote them for the shell: --scenario '${id}={"key":1}'`);
  }
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new UsageError(`--scenario ${id}: the params must be a JSON object, like {"nth":2}`);
  }
  return { id, params: params as Record<string, unknown> };
}

function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(`--timeout: must be a number of seconds above 0 and at most ${MAX_TIMEOUT_S}, not ${JSON.stringify(text)}`);
  }
  return seconds;
}
