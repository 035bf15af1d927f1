/**
 * The source line a location points at, with a caret under its column, for a terminal:
 *     7 |   return { action: "dny" };
 *       |            ^
 * Empty when the line does not exist (the file changed since).
 */
export function sourceExcerpt(source: string, line: number, column: number, indent = "    "): string {
  const text = source.split("\n")[line - 1];
  return text === undefined ? "" : lineExcerpt(text, line, column, indent);
}

/** The same, from the line's text and number. */
export function lineExcerpt(text: string, line: number, column: number, indent = "    "): string {
  const number = String(line);
  const shown = text
    .replace(/\t/g, " ")
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .trimEnd();
  const caret = `${" ".repeat(Math.max(0, Math.min(column, shown.length + 1) - 1))}^`;
  return `${indent}${number} | ${shown}\n${indent}${" ".repeat(number.length)} | ${caret}\n`;
}
