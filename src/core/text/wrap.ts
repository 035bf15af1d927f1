/** The widest a line of Hookbox's own prose gets, whatever the terminal: longer lines are hard to read. */
export const MAX_LINE_CHARS = 100;

/** The width to wrap prose at: the terminal's when it is narrower, never under 40 columns. */
export function lineWidth(columns: number | undefined): number {
  return columns === undefined || !Number.isFinite(columns) || columns <= 0
    ? MAX_LINE_CHARS
    : Math.max(40, Math.min(MAX_LINE_CHARS, Math.floor(columns)));
}

/**
 * `text` as lines of at most `width` characters, breaking at spaces only: the first line starts
 * with `first`, the others with `rest` (a hanging indent). A word longer than a line (a path, a
 * URL) stays whole on a line of its own: cut, it could not be copied.
 */
export function wrap(text: string, width: number, first = "", rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/ +/).filter((w) => w !== "")) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += empty ? word : ` ${word}`;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}
