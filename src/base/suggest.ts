/** Words longer than this get no suggestion: none is close, and the distance costs length × candidate length. */
const MAX_WORD = 64;

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidates closest to `word` for a "did you mean", nearest first (at most `limit`). A candidate `area.name` is
 * also compared by its name alone, so `http_status_sequence` finds `errors.http_status_sequence`. Only candidates
 * within a third of the word's length (at least 2 edits) count: beyond that a suggestion is a guess.
 */
export function closest(word: string, candidates: readonly string[], limit = 3): string[] {
  if (word.length > MAX_WORD) return [];
  const needle = word.toLowerCase();
  const within = Math.max(2, Math.floor(needle.length / 3));
  return candidates
    .map((candidate) => {
      const name = candidate.slice(candidate.indexOf(".") + 1);
      return { candidate, d: Math.min(distance(needle, candidate), distance(needle, name)) };
    })
    .filter(({ d }) => d <= within)
    .sort((x, y) => x.d - y.d || x.candidate.localeCompare(y.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
