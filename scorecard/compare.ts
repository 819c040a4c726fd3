/** What the scorecard's tests compare: cells of two runs, and the journal rows of two evidence files. */
import { type Cell, cellKey, type Results } from "./results.ts";

/** Every cell of `fresh` that differs from the committed one (result or a check's status), one line each. */
export function cellDifferences(committed: Results, fresh: Results): string[] {
  const differences: string[] = [];
  for (const [client, cells] of Object.entries(fresh.cells)) {
    for (const [scenario, cell] of Object.entries(cells)) {
      const before: Cell | undefined = committed.cells[client]?.[scenario];
      if (before === undefined) differences.push(`${client} × ${scenario}: not in the committed results`);
      else if (cellKey(before) !== cellKey(cell)) differences.push(`${client} × ${scenario}: committed ${cellKey(before)}, this run ${cellKey(cell)}`);
    }
  }
  return differences;
}

/** The journal rows of an evidence file (seq, HTTP method, JSON-RPC method, status, fault kind), as the wire gave them. */
export function journalRows(evidence: string): string[] {
  const section = evidence.split("\n## Journal entries\n")[1] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => {
      const [seq, http, method, status, fault] = line.slice(2, -2).split(" | ");
      return [seq, http, method, status, (fault ?? "").split(":")[0]].join(" ");
    });
}

/** The journal seqs the failed and warning checks of an evidence file name as their evidence. */
export function judgedEvidence(evidence: string): number[] {
  const seqs = new Set<number>();
  for (const line of evidence.split("\n")) {
    if (!/^- \*\*(fail|warning)\*\*/.test(line)) continue;
    const named = /\(evidence: ([#\d, ]+)\)$/.exec(line)?.[1] ?? "";
    for (const seq of named.matchAll(/#(\d+)/g)) seqs.add(Number(seq[1]));
  }
  return [...seqs].sort((a, b) => a - b);
}
