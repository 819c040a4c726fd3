/** ANSI colours for a terminal only: never in a pipe or a file, and never with NO_COLOR set (no-color.org). */
export function colours(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env) {
  const on = stream.isTTY === true && !env.NO_COLOR;
  const paint = (code: number) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { red: paint(31), green: paint(32), yellow: paint(33), dim: paint(2) };
}
