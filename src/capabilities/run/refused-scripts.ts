/**
 * sed and awk take programs as arguments. GNU sed's `e` command and `s///e` flag run shell
 * commands, `w`/`W` and the `s///w` flag write files, `r`/`R` read any file. sed scripts are
 * parsed (GNU grammar, enough of it): anything the parser does not recognise is refused, so a
 * script it cannot read never runs. awk has system(), pipes, getline and redirections; its check
 * is a heuristic that fails closed, and awk is an interpreter besides (see allow-all.ts): it
 * needs the operator's approval first.
 */

const SED_DANGEROUS = "the sed commands e, w, W, r, R and the s///e and s///w flags run programs or reach other files";

/** The scripts in a sed argv: -e/--expression values, or the first operand when there is none. */
function sedScripts(argv: readonly string[]): { scripts: string[]; refused?: string } {
  const scripts: string[] = [];
  let operand: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const cluster = arg.startsWith("-") && !arg.startsWith("--") ? arg.slice(1) : "";
    if (arg.startsWith("--in-place") || /^[A-Za-z]*i/.test(cluster))
      return { scripts, refused: `${JSON.stringify(arg)}: it edits files in place (hooks have no write permission)` };
    if (arg.startsWith("--file") || /^[A-Za-z]*f/.test(cluster))
      return { scripts, refused: `${JSON.stringify(arg)}: a script read from a file cannot be checked` };
    if (arg === "--") {
      operand ??= argv[i + 1];
      break;
    }
    if (arg === "--expression") scripts.push(argv[++i] ?? "");
    else if (arg.startsWith("--expression=")) scripts.push(arg.slice("--expression=".length));
    else if (/^[A-Za-z]*e/.test(cluster)) {
      const attached = cluster.slice(cluster.indexOf("e") + 1);
      scripts.push(attached !== "" ? attached : (argv[++i] ?? ""));
    } else if (arg === "-l" || arg === "--line-length") i++;
    else if (!arg.startsWith("-")) operand ??= arg;
  }
  if (scripts.length === 0 && operand !== undefined) scripts.push(operand);
  return { scripts };
}

/** Commands with no argument, or a number / word argument that holds no command. */
const SED_PLAIN = new Set("=dDgGhHlLnNpPqQxzFv".split(""));
const SED_LABEL = new Set(":btT".split(""));
const SED_TEXT = new Set("aic".split(""));
const SED_FORBIDDEN = new Set("ewWrR".split(""));

/** A small reader over a sed script; every method returns false on something it does not expect. */
class SedReader {
  i = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.i >= this.s.length;
  }
  peek(): string {
    return this.s[this.i] ?? "";
  }
  skip(chars: RegExp): void {
    while (!this.done && chars.test(this.peek())) this.i++;
  }
  /** Up to (and over) an unescaped `delim`; false when it never comes or a newline comes first. */
  delimited(delim: string): boolean {
    while (!this.done) {
      const c = this.s[this.i++];
      if (c === "\\") this.i++;
      else if (c === delim) return true;
      else if (c === "\n") return false;
    }
    return false;
  }
  toLineEnd(): void {
    while (!this.done && this.peek() !== "\n") this.i += this.peek() === "\\" ? 2 : 1;
  }
  toCommandEnd(): void {
    while (!this.done && !/[;\n}]/.test(this.peek())) this.i++;
  }
  address(): boolean {
    const c = this.peek();
    if (/[0-9$]/.test(c)) this.skip(/[0-9$]/);
    else if (c === "/" || c === "\\") {
      this.i += c === "\\" ? 2 : 1;
      if (!this.delimited(c === "\\" ? (this.s[this.i - 1] ?? "") : "/")) return false;
      this.skip(/[IM]/);
    }
    if (this.peek() === "~" || this.peek() === "+") {
      this.i++;
      this.skip(/[0-9]/);
    }
    return true;
  }
}

/** True when the script uses a command that runs a program or reaches a file, or cannot be read. */
export function sedScriptIsDangerous(script: string): boolean {
  const r = new SedReader(script);
  for (;;) {
    r.skip(/[\s;]/);
    if (r.done) return false;
    if (!r.address()) return true;
    if (r.peek() === ",") {
      r.i++;
      if (!r.address()) return true;
    }
    r.skip(/[\s!]/);
    const command = r.s[r.i++] ?? "";
    if (command === "{" || command === "}") continue;
    if (command === "#") r.toLineEnd();
    else if (SED_FORBIDDEN.has(command)) return true;
    else if (SED_TEXT.has(command)) r.toLineEnd();
    else if (SED_LABEL.has(command) || SED_PLAIN.has(command)) r.toCommandEnd();
    else if (command === "s" || command === "y") {
      const delim = r.s[r.i++] ?? "";
      if (delim === "" || delim === "\\" || delim === "\n") return true;
      if (!r.delimited(delim) || !r.delimited(delim)) return true;
      const flags = /^[0-9gpiImM]*/.exec(r.s.slice(r.i))?.[0] ?? "";
      r.i += flags.length;
      r.skip(/[ \t]/);
      if (command === "s" && /[ewW]/.test(r.peek())) return true;
      if (!r.done && !/[;\n}]/.test(r.peek())) return true;
    } else return true;
  }
}

export function sedRefusal(argv: readonly string[]): string | undefined {
  const { scripts, refused } = sedScripts(argv);
  if (refused !== undefined) return refused;
  const bad = scripts.find(sedScriptIsDangerous);
  return bad === undefined ? undefined : `${JSON.stringify(bad)}: ${SED_DANGEROUS}`;
}

const AWK_DANGEROUS = /\b(system|getline|close|fflush)\b|\||@|\bprintf?\b[^;{}]*>/;

export function awkRefusal(argv: readonly string[]): string | undefined {
  for (const arg of argv) {
    if (/^(-f|--file|-E|--exec|-i|--include|-l|--load)(=|$)/.test(arg) || /^-[fEil]./.test(arg)) {
      return `${JSON.stringify(arg)}: it loads a program or extension from a file`;
    }
    if (!arg.startsWith("-") && AWK_DANGEROUS.test(arg)) {
      return `${JSON.stringify(arg)}: awk's system(), getline, pipes and output redirections run programs or reach other files`;
    }
  }
  return undefined;
}
