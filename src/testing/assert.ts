import { AssertionError } from "node:assert";
import type { Check } from "../checks/check.ts";

/** What holds checks: a session, or the checks themselves. */
export type ChecksSource = { checks(): Promise<Check[]> } | readonly Check[];

const describe = (c: Check) => `${c.id} (${c.status}): ${c.message}${c.evidence.length > 0 ? ` [evidence: ${c.evidence.map((seq) => `#${seq}`).join(", ")}]` : ""}`;

/**
 * Fails unless the checks judged the client and none failed; with `ids`, each named check must also be there and
 * pass. The error names each offending check with its message and evidence (the journal seqs), so a test report
 * says what the client did. No check at all fails too: a client that never reached the session proves nothing.
 */
export async function assertChecksPass(source: ChecksSource, ...ids: string[]): Promise<void> {
  const checks = "checks" in source ? await source.checks() : source;
  const problems: string[] = [];
  if (checks.length === 0) problems.push("no check judged the client: did it send its requests to the session's mcpUrl?");
  for (const check of checks) if (check.status === "fail") problems.push(describe(check));
  for (const id of ids) {
    const check = checks.find((c) => c.id === id);
    if (check === undefined) problems.push(`${id}: no such check in this session (it has: ${checks.map((c) => c.id).join(", ") || "none"})`);
    else if (check.status !== "pass" && check.status !== "fail") problems.push(`${describe(check)} (expected pass)`);
  }
  if (problems.length > 0) {
    throw new AssertionError({ message: `Faultline checks failed:\n  ${problems.join("\n  ")}`, actual: checks, expected: ids.length > 0 ? ids : "no failed check", operator: "assertChecksPass" });
  }
}
