/** One cell's evidence file (scorecard/results/<client>/<scenario>.md): the reasons, the checks, and the journal entries they name. */
import type { Entry } from "../src/cli/api.ts";
import type { RunReport } from "../src/cli/json-report.ts";

type Row = RunReport["scenarios"][number];

const cellText = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/**
 * Where this checkout lies on this machine: `roots`, the absolute paths that mean the repository root (the checkout,
 * and what its folders resolve to through symlinks, each with the repository path it stands for), and `temp`, the
 * temporary folders. Evidence files are committed, so none of it may appear there.
 */
export interface LocalPaths {
  roots: readonly { absolute: string; relative: string }[];
  temp: readonly string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with this machine's paths written as the repository's: `file://<root>/x` and `<root>/x` become the path
 * relative to the repository root, and a temporary folder's paths start with `<tmp>`. Longest paths first, so that a
 * folder inside another is matched whole; a path inside a URL or another path is not one of them.
 */
export function repositoryPaths(text: string, paths: LocalPaths): string {
  const prefixes = [
    ...paths.roots.map(({ absolute, relative }) => ({ absolute, to: relative === "" ? "" : `${relative}/` })),
    ...paths.temp.map((absolute) => ({ absolute, to: "<tmp>/" })),
  ]
    .map(({ absolute, to }) => ({ absolute: absolute.replace(/\/+$/, ""), to }))
    .filter(({ absolute }) => absolute !== "")
    .sort((a, b) => b.absolute.length - a.absolute.length);
  let out = text;
  for (const { absolute, to } of prefixes) {
    // The folder itself (no slash after it) is written as "." or the relative folder's name.
    const pattern = new RegExp(`(?<![\\w./:-])(?:file://)?${escapeRegExp(absolute)}(?:/|(?![\\w.-]))`, "g");
    out = out.replace(pattern, (match) => (match.endsWith("/") ? to : to.replace(/\/$/, "") || "."));
  }
  return out;
}

/** At most 40 lines of 300 characters of the client's output (mcp-remote logs every message it relays). */
function clip(output: string): string[] {
  const lines = output.replace(/\n$/, "").split("\n").map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
  return lines.length > 40 ? [...lines.slice(0, 20), `… ${lines.length - 40} lines left out …`, ...lines.slice(-20)] : lines;
}

/** Each scenario's share of `faultline run`'s stderr: what the client printed between the header and the footer. */
export function clientOutputs(log: string): Map<string, string> {
  const outputs = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  for (const line of log.split("\n")) {
    const header = /^faultline: ── (\S+) \(\d+ of \d+\), session \S+: the client's output follows$/.exec(line);
    if (header) [current, lines] = [header[1], []];
    else if (current !== undefined && line.startsWith(`faultline: ── ${current}: the client's output ends`)) {
      outputs.set(current, lines.join("\n"));
      current = undefined;
    } else if (current !== undefined) lines.push(line);
  }
  return outputs;
}

/** The journal entries as a table: what was asked, what came back, the fault, the retry it was and the verdict. */
function journalTable(entries: readonly Entry[]): string[] {
  const lines = ["| seq | HTTP | method | status | fault | retry of | verdict |", "|---|---|---|---|---|---|---|"];
  for (const entry of entries) {
    const method = entry.rpc.method ? `${entry.rpc.method}${entry.rpc.toolName ? ` ${entry.rpc.toolName}` : ""}` : "";
    const fault = entry.fault ? `${entry.fault.kind}${typeof entry.fault.rule === "string" ? `: ${entry.fault.rule}` : ""}` : "";
    const row = [entry.seq, entry.request.method, method, entry.response.status, fault, entry.retryOf ?? "", entry.verdict?.outcome ?? ""];
    lines.push(`| ${row.map((value) => cellText(String(value))).join(" | ")} |`);
  }
  return lines;
}

/** The evidence of one cell; `journal` is the session's whole journal, of which the entries the checks or the fault name are shown. */
export function evidenceFile(client: string, row: Row, journal: readonly Entry[], reproduce: string, output: string, paths: LocalPaths): string {
  const named = new Set([...row.faults.entries, ...row.checks.flatMap((check) => check.evidence)]);
  const shown = journal.filter((entry) => named.has(entry.seq));
  const lines = [
    `# ${client} × ${row.scenario}`,
    "",
    `Result: **${row.result}**. The command: ${row.command.status}, after ${(row.durationMs / 1000).toFixed(1)} s; ${row.requests} journal entries; the fault fired ${row.faults.fired} times${row.faults.entries.length ? ` (entries ${row.faults.entries.join(", ")})` : ""}.`,
    "",
    `Params: \`${JSON.stringify(row.params)}\``,
    "",
    "Reproduce (against `npm run serve` on the default port):",
    "",
    "```sh",
    reproduce,
    "```",
    "",
    "## Reasons",
    "",
    ...row.reasons.map((reason) => `- ${reason}`),
    "",
    "## Checks",
    "",
    ...(row.checks.length === 0 ? ["No check gave a result."] : row.checks.map((check) => `- **${check.status}** \`${check.id}\`: ${check.message}${check.evidence.length ? ` (evidence: ${check.evidence.map((seq) => `#${seq}`).join(", ")})` : ""}`)),
    "",
    "## Journal entries",
    "",
    ...(shown.length === 0 ? ["No entry is named by a check or carries the fault; the session's first entries:", "", ...journalTable(journal.slice(0, 12))] : journalTable(shown)),
    "",
    "## What the adapter printed",
    "",
    "```text",
    ...clip(repositoryPaths(output, paths)),
    "```",
    "",
  ];
  return repositoryPaths(lines.join("\n"), paths);
}
