/** The width to wrap human output to: the terminal's; else $COLUMNS (as shells and CI runners set it); else 80. */
export function outputWidth(stream: { columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  if (typeof stream.columns === "number" && stream.columns > 0) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : 80;
}

/**
 * Wraps `text` at spaces so that no line is longer than `width`, starting the first line after `first` and the
 * following ones after `rest` (a hanging indent). A word longer than the room left stays whole on its own line:
 * URLs and ids must survive copy and paste.
 */
export function wrap(text: string, width: number, first: string, rest: string = " ".repeat(first.length)): string {
  const words = text.split(/\s+/).filter((word) => word !== "");
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join("\n");
}
