/** What the scorecard's tests compare: cells of two runs, and the journal rows of two evidence files. */
import { type Cell, cellKey, type Results } from "./results.ts";

/**
 * Whether a cell of two runs can be compared: both ran it, and the client was set up alike for it. An auth.*
 * scenario is not compared where the column's OAuth set-up differs between the runs (the adapter gained or changed
 * its OAuth provider: another application, not the same one run twice).
 */
function comparable(committed: Results, other: Results, client: string, scenario: string): boolean {
  const a = committed.cells[client]?.[scenario];
  const b = other.cells[client]?.[scenario];
  if (!a || !b || a.result === "not run" || b.result === "not run") return false;
  const oauth = (run: Results) => run.clients.find((c) => c.id === client)?.oauth;
  return !scenario.startsWith("auth.") || oauth(committed) === oauth(other);
}

/**
 * The committed results with every cell that a second full run gave otherwise marked (`otherRun`: what that run gave),
 * every other cell unmarked, and `secondRun` saying which run and how many cells were compared and differed.
 */
export function markAgainst(committed: Results, other: Results, file: string): Results {
  let compared = 0;
  let differing = 0;
  const cells: Results["cells"] = {};
  for (const [client, row] of Object.entries(committed.cells)) {
    cells[client] = {};
    for (const [scenario, cell] of Object.entries(row)) {
      const { otherRun: _, ...plain } = cell;
      const there = other.cells[client]?.[scenario];
      if (!there || !comparable(committed, other, client, scenario)) {
        cells[client][scenario] = plain;
        continue;
      }
      compared++;
      const differs = cellKey(plain) !== cellKey(there);
      if (differs) differing++;
      cells[client][scenario] = differs ? { ...plain, otherRun: cellKey(there) } : plain;
    }
  }
  const notCompared = "cells not run in either, and auth.* cells of columns whose OAuth set-up differs between the two runs";
  return { ...committed, cells, secondRun: { file, commit: other.faultline.commit, compared, differing, notCompared } };
}

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
