import type { Finding, Verdict } from "../classify/index.ts";
import { wrap } from "./wrap.ts";

/** A verdict and how to label it (an array index, a HAR entry), or no label for a single exchange. */
export interface LabelledVerdict {
  label: string | undefined;
  verdict: Verdict;
}

const SEVERITY_ORDER: Readonly<Record<Finding["severity"], number>> = { error: 0, warning: 1, info: 2 };
/** Said once under the summaries instead of once per capture: it is about the input, not the response. */
const EXPECTED_ID_UNKNOWN = "EXPECTED_ID_UNKNOWN";
const INDENT = "  ";

/** The human summary of some verdicts, wrapped to `width` columns. */
export function summarize(verdicts: readonly LabelledVerdict[], width: number): string {
  const blocks = verdicts.map(({ label, verdict }) => summarizeOne(label, verdict, width));
  const unknownIds = verdicts.filter(({ verdict }) => verdict.findings.some((f) => f.code === EXPECTED_ID_UNKNOWN)).length;
  if (unknownIds > 0) {
    const which = unknownIds === 1 && verdicts.length === 1 ? "the response" : `${unknownIds} of ${verdicts.length} responses`;
    const note = `note: no expected JSON-RPC id was known for ${which}, so any valid id was accepted; give --expected-id (raw HTTP) or expectedId (JSON) to check it.`;
    blocks.push(`${wrap(note, width, "", "      ")}\n`);
  }
  return blocks.join("\n");
}

function summarizeOne(label: string | undefined, verdict: Verdict, width: number): string {
  const head = [verdict.outcome, `layer=${verdict.layer}`];
  if (verdict.status !== undefined) head.push(`status=${verdict.status}`);
  if (verdict.code !== undefined) head.push(`code=${verdict.code}`);
  const retry = verdict.retry;
  const lines = [`${label === undefined ? "" : `${label}  `}${head.join("  ")}`];
  // The tool's own words are what a reader needs first; --json has them too, as toolErrorText.
  if (typeof verdict.toolErrorText === "string") lines.push(wrap(verdict.toolErrorText, width, `${INDENT}tool error: `));
  lines.push(wrap(retry.reason, width, `${INDENT}retry: ${retry.decision}${retry.afterMs === undefined ? "" : ` after ${retry.afterMs} ms`}: `, INDENT.repeat(2)));
  const findings = verdict.findings
    .filter((finding) => finding.code !== EXPECTED_ID_UNKNOWN)
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]); // stable: equal severities keep the classifier's order
  for (const finding of findings) {
    lines.push(wrap(finding.message, width, `${INDENT}${finding.severity.padEnd(7)} ${finding.code}: `, INDENT.repeat(5)));
  }
  return `${lines.join("\n")}\n`;
}
