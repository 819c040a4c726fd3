import { parseArgs } from "node:util";
import type { Check } from "../checks/check.ts";
import { type Entry, FaultlineApi } from "./api.ts";
import { colours } from "./colour.ts";
import { EXIT, UsageError } from "./errors.ts";
import { serverUrl } from "./server-option.ts";

const OPTIONS = `Options:
  --server URL   the Faultline server (default: $FAULTLINE_SERVER, else http://127.0.0.1:8787)
  --json         print the server's JSON instead of lines, for scripts
  -h, --help     print this help

Environment: FAULTLINE_ADMIN_TOKEN, when set, is sent to the server's API as a bearer token.
`;

export const SESSIONS_USAGE = `Usage: faultline sessions [--server URL] [--json]

Lists the server's sessions, newest first: id, scenario, creation time and MCP URL.

${OPTIONS}`;

export const CHECKS_USAGE = `Usage: faultline checks ID [--server URL] [--json]

Prints the checks of session ID: each check's status, id and message, and the journal
seqs that prove it. Exit status 1 when a check failed, 0 otherwise, 2 for errors.

${OPTIONS}`;

export const JOURNAL_USAGE = `Usage: faultline journal ID [--server URL] [--json]

Prints the journal of session ID, oldest first: one line per exchange with its seq, time,
HTTP method, JSON-RPC method (and tool), status, the fault injected and the verdict.

${OPTIONS}`;

interface Parsed {
  api: FaultlineApi;
  json: boolean;
  id: string | undefined;
}

/** The options the three commands share; undefined means --help. */
function parse(args: string[], usage: string, wantsId: boolean): Parsed | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { server: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { suggestHelp: true });
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return undefined;
  }
  if (wantsId && positionals.length !== 1) throw new UsageError(`give one session id (${usage.split("\n")[0]})`, { suggestHelp: true });
  if (!wantsId && positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(" ")}`, { suggestHelp: true });
  return { api: new FaultlineApi(serverUrl(values.server), process.env.FAULTLINE_ADMIN_TOKEN), json: values.json ?? false, id: positionals[0] };
}

const json = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** `faultline sessions`. */
export async function sessionsCommand(args: string[]): Promise<number> {
  const p = parse(args, SESSIONS_USAGE, false);
  if (p === undefined) return EXIT.ok;
  const sessions = await p.api.sessions();
  if (p.json) json(sessions);
  else if (sessions.length === 0) process.stdout.write("no sessions\n");
  else for (const s of sessions) process.stdout.write(`${s.id}  ${s.scenario}  ${s.createdAt}  ${s.mcpUrl}\n`);
  return EXIT.ok;
}

/** One check as lines: the status (coloured on a terminal), the id, the message, then its evidence. */
export function checkLines(check: Check, paint = colours(process.stdout)): string {
  const colour = { pass: paint.green, fail: paint.red, warning: paint.yellow, info: paint.dim }[check.status];
  const evidence = check.evidence.length > 0 ? `\n        evidence: ${check.evidence.map((seq) => `#${seq}`).join(", ")}` : "";
  return `${colour(check.status.padEnd(7))} ${check.id}: ${check.message}${evidence}\n`;
}

/** `faultline checks ID`: exit 1 when a check failed, so a script can stop on it. */
export async function checksCommand(args: string[]): Promise<number> {
  const p = parse(args, CHECKS_USAGE, true);
  if (p === undefined) return EXIT.ok;
  const checks = await p.api.checks(p.id!);
  if (p.json) json(checks);
  else if (checks.length === 0) process.stdout.write("no checks yet: nothing the checks judge has happened in this session\n");
  else for (const check of checks) process.stdout.write(checkLines(check));
  return checks.some((check) => check.status === "fail") ? EXIT.failed : EXIT.ok;
}

/** One journal entry as a line. */
export function entryLine(e: Entry, paint = colours(process.stdout)): string {
  const rpc = e.rpc.method === undefined ? "-" : `${e.rpc.method}${e.rpc.toolName ? `(${e.rpc.toolName})` : ""}`;
  const status = e.response.status >= 400 ? paint.red(String(e.response.status)) : String(e.response.status);
  const extra = [e.fault ? paint.yellow(`fault=${e.fault.kind}`) : "", e.retryOf ? `retry of #${e.retryOf}` : "", e.verdict ? e.verdict.outcome : ""].filter(Boolean);
  return `#${e.seq}  ${e.time}  ${e.request.method} ${rpc}  ${status}  ${e.durationMs} ms${extra.length ? `  ${extra.join("  ")}` : ""}\n`;
}

/** `faultline journal ID`. */
export async function journalCommand(args: string[]): Promise<number> {
  const p = parse(args, JOURNAL_USAGE, true);
  if (p === undefined) return EXIT.ok;
  const entries = await p.api.entries(p.id!);
  if (p.json) json(entries);
  else if (entries.length === 0) process.stdout.write("no exchanges yet\n");
  else for (const entry of entries) process.stdout.write(entryLine(entry));
  return EXIT.ok;
}
