/**
 * A command line given as a string (hook.runTests("pytest -q tests")) split into argv the way
 * a shell would split words — quotes and backslashes — and nothing more: no variables, no
 * globs, no operators. Unquoted shell syntax is an error, never silently passed on.
 */
export function splitCommandLine(line: string): { ok: true; argv: string[] } | { ok: false; error: string } {
  const argv: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && /["\\$`]/.test(line[i + 1] ?? "")) word += line[++i] ?? "";
      else word += c;
    } else if (/\s/.test(c)) {
      if (inWord) argv.push(word);
      word = "";
      inWord = false;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\") {
      word += line[++i] ?? "";
      inWord = true;
    } else if (/[;&|<>`$(){}*?[\]~#!]/.test(c)) {
      return {
        ok: false,
        error: `unquoted ${JSON.stringify(c)} at column ${i + 1}: no shell runs commands here, so shell syntax is not understood (quote it, or pass argv as an array)`,
      };
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return { ok: false, error: `unterminated ${quote} quote` };
  if (inWord) argv.push(word);
  if (argv.length === 0) return { ok: false, error: "empty command" };
  return { ok: true, argv };
}
