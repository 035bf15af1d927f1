// Tokens into pipelines of simple commands: wrappers (sudo, env, xargs …) and assignments
// removed, `cd` followed, and the scripts inside (sh -c '…', $(…), eval …) read the same way.
// Part of hookbox:shell (./index.ts).
import { type ShRedir, type ShToken, type ShWord, SH_MAX_BRACE_WORDS, SH_MAX_COMMANDS, SH_MAX_DEPTH, shLex } from "./lex.ts";
import { shBraceAlternatives } from "./pattern.ts";

export interface ShCommand {
  /** argv after wrappers (sudo, env, nohup, timeout, xargs …) and assignments are removed. */
  argv: ShWord[];
  /** The program's basename, lower-cased ("" when there is none). */
  name: string;
  redirs: ShRedir[];
  /** The command's own text, for messages and exception patterns. */
  raw: string;
  /** The working directory it runs in as far as `cd` can be followed; undefined when unknown. */
  cwd: string | undefined;
  /** Its arguments come from stdin (xargs, parallel) or from parallel's `:::` lists: see `inputs`. */
  viaXargs: boolean;
  /** xargs -I / parallel's replacement string ({} by default for parallel): where each input goes in argv. */
  placeholder?: string;
  /** parallel's `:::` arguments: the inputs it runs the template with (undefined: from stdin, unknown). */
  inputs?: ShWord[];
  /** Every word as written, before wrappers, reserved words and assignments were removed. */
  words: ShWord[];
}

export interface ShPipeline {
  commands: ShCommand[];
  raw: string;
  /** The operators between the previous pipeline of the same script and this one (";", "&&", "(" …). */
  ops: string[];
  /** 0 for the command line itself; n for a script run inside it (sh -c '…', $(…), a here-document fed to bash) n levels down. */
  nest: number;
  /** For a script run inside the command line: the command that runs it. */
  from: ShCommand | undefined;
}

/** {a,b}c → ac bc (comma lists only, nested, bounded); `rm -rf /{etc,usr}` names /etc and /usr. */
export function shExpandBraces(text: string): string[] {
  // Only small words are expanded: a hostile {a,b}{a,b}… must not cost time, memory or stack.
  if (text.length > 512 || (text.match(/\{/g) ?? []).length > 8) return [text];
  return shBraceAlternatives(text).slice(0, SH_MAX_BRACE_WORDS);
}

/** Words as the command would receive them: brace expansion applied where it can be. */
export function shValues(word: ShWord): string[] {
  return word.braces ? shExpandBraces(word.text) : [word.text];
}

const SH_RESERVED = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "coproc", "in"]);
/** Programs that run the rest of their argv as a command: [options taking a value, leading operands]. */
const SH_WRAPPERS: Record<string, [string[], number]> = {
  sudo: [["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt", "--chdir"], 0],
  doas: [["-u", "-C"], 0],
  env: [["-u", "-C", "-S", "--unset", "--chdir", "--split-string"], 0],
  nohup: [[], 0],
  command: [[], 0],
  builtin: [[], 0],
  exec: [["-a"], 0],
  time: [["-f", "-o", "--format", "--output"], 0],
  nice: [["-n", "--adjustment"], 0],
  ionice: [["-c", "-n", "-p", "--class", "--classdata"], 0],
  stdbuf: [["-i", "-o", "-e"], 0],
  timeout: [["-s", "-k", "--signal", "--kill-after"], 1],
  chrt: [[], 1],
  taskset: [[], 1],
  unbuffer: [[], 0],
  caffeinate: [["-t", "-w"], 0],
  chronic: [[], 0],
  busybox: [[], 0],
  setsid: [[], 0],
  flock: [["-w", "-E", "--timeout", "--conflict-exit-code"], 1],
  xargs: [["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-chars", "--replace"], 0],
  // GNU parallel: a command template run once per input (stdin, or the words after :::).
  parallel: [
    [
      "-j",
      "-J",
      "-P",
      "-n",
      "-N",
      "-L",
      "-l",
      "-I",
      "-S",
      "-a",
      "-d",
      "-E",
      "-C",
      "--jobs",
      "--arg-file",
      "--colsep",
      "--delimiter",
      "--sshlogin",
      "--results",
      "--joblog",
      "--halt",
      "--tmpdir",
      "--workdir",
      "--basefile",
      "--timeout",
      "--retries",
      "--delay",
      "--load",
      "--memfree",
      "--tagstring",
      "--max-args",
      "--max-replace-args",
      "--replace",
    ],
    0,
  ],
};

/** The words after parallel's `:::` separators (`::::` names files of inputs: unknown). */
function shParallelInputs(argv: ShWord[]): { argv: ShWord[]; inputs: ShWord[] | undefined } {
  const at = argv.findIndex((w) => /^:::[:+]*$/.test(w.text));
  if (at < 0) return { argv, inputs: undefined };
  const files = argv.slice(at).some((w) => /^::::\+?$/.test(w.text));
  const inputs = argv.slice(at).filter((w) => !/^:::[:+]*$/.test(w.text));
  return { argv: argv.slice(0, at), inputs: files ? undefined : inputs };
}

/** Shells and the options after which the next operand is their script. */
const SH_SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "busybox"]);

export function shBase(text: string): string {
  return text.slice(text.lastIndexOf("/") + 1).toLowerCase();
}

export function shUnwrap(words: ShWord[]): { argv: ShWord[]; viaXargs: boolean; placeholder?: string; inputs?: ShWord[] } {
  let argv = words;
  let viaXargs = false;
  let placeholder: string | undefined;
  let inputs: ShWord[] | undefined;
  for (let guard = 0; guard < 32 && argv.length > 0; guard++) {
    const first = argv[0] as ShWord;
    if (/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(first.text)) {
      argv = argv.slice(1);
      continue;
    }
    const name = shBase(first.text);
    if (SH_RESERVED.has(name)) {
      argv = argv.slice(1);
      continue;
    }
    const wrapper = SH_WRAPPERS[name];
    if (!wrapper || (name === "busybox" && argv.length < 2)) break;
    if (name === "xargs" || name === "parallel") {
      viaXargs = true;
      if (name === "parallel") placeholder = "{}";
    }
    const [valued, operands] = wrapper;
    let j = 1;
    while (j < argv.length) {
      const t = (argv[j] as ShWord).text;
      if (t === "--") {
        j++;
        break;
      }
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) j++;
      else if (t.startsWith("-") && t.length > 1) {
        // xargs -I R / -i[R] / --replace[=R]: each input replaces R in the template.
        if (name === "xargs" || name === "parallel") {
          if (t === "-I" || t === "--replace") placeholder = argv[j + 1]?.text ?? "{}";
          else if (/^-I./.test(t)) placeholder = t.slice(2);
          else if (name === "xargs" && (t === "-i" || t.startsWith("-i"))) placeholder = t.length > 2 ? t.slice(2) : "{}";
          else if (t.startsWith("--replace=")) placeholder = t.slice(10);
        }
        j += valued.includes(t) ? 2 : 1;
      } else break;
    }
    argv = argv.slice(j + operands);
    if (name === "parallel") ({ argv, inputs } = shParallelInputs(argv));
  }
  return { argv, viaXargs, ...(placeholder !== undefined ? { placeholder } : {}), ...(inputs !== undefined ? { inputs } : {}) };
}

/** A shell reading its script from stdin: `bash`, `sh -s`, `bash -` (not `bash -c …`, not `bash file.sh`). */
export function shReadsStdinScript(cmd: ShCommand): boolean {
  if (!SH_SHELLS.has(cmd.name) || cmd.name === "busybox" || shInlineScript(cmd) !== undefined) return false;
  for (const w of cmd.argv.slice(1)) {
    if (w.text === "-" || w.text === "--" || /^-[a-zA-Z]*s[a-zA-Z]*$/.test(w.text)) return true;
    if (!w.text.startsWith("-") && !w.text.startsWith("+")) return false;
  }
  return true;
}

/** What a pipeline's command feeds the next one on stdin when it is plain text: echo/printf arguments, a here-document. */
function shPipedText(cmd: ShCommand): string | undefined {
  const doc = cmd.redirs.find((r) => r.body !== undefined);
  if (cmd.name === "cat" && doc) return doc.body;
  if (cmd.name === "echo" || cmd.name === "printf")
    return cmd.argv
      .slice(1)
      .filter((w) => !/^-[neE]+$/.test(w.text))
      .map((w) => w.text)
      .join(" ");
  return undefined;
}

/** The script a command runs from a string: sh -c '…', su -c '…', eval …; undefined when none. */
export function shInlineScript(cmd: ShCommand): string | undefined {
  if (cmd.name === "eval")
    return cmd.argv
      .slice(1)
      .map((w) => w.text)
      .join(" ");
  if (!SH_SHELLS.has(cmd.name) && cmd.name !== "su" && cmd.name !== "runuser") return undefined;
  for (let j = 1; j < cmd.argv.length; j++) {
    const t = (cmd.argv[j] as ShWord).text;
    if (t === "-c" || t === "--command" || (/^-[a-zA-Z]+$/.test(t) && t.includes("c") && cmd.name !== "su")) return cmd.argv[j + 1]?.text;
    if (!t.startsWith("-")) return undefined;
  }
  return undefined;
}

/** Lexically resolve `path` against `base` ("~" and "~/…" are kept as a home-relative root). */
export function shResolve(base: string | undefined, path: string): string | undefined {
  const p = path.replace(/\\/g, "/");
  if (p === "~" || p.startsWith("~/")) return shNormalize(p);
  if (p.startsWith("/")) return shNormalize(p);
  if (/^\$\{?HOME\}?(\/|$)/.test(p)) return shNormalize(p.replace(/^\$\{?HOME\}?/, "~"));
  if (base === undefined) return undefined;
  return shNormalize(`${base}/${p}`);
}

export function shNormalize(p: string): string {
  const home = p === "~" || p.startsWith("~/");
  const parts: string[] = [];
  for (const seg of (home ? p.slice(1) : p).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return (home ? "~" : "") + "/" + parts.join("/");
}

/** Simple commands read so far in one shAnalyze call (nested scripts included). */
const shCounted = { n: 0 };

/**
 * Read a command line into pipelines of simple commands, nested scripts included (flattened,
 * after the command that holds them). `cwd` is where it starts (the workspace), or undefined.
 */
export function shAnalyze(src: string, cwd: string | undefined, depth = 0, out: ShPipeline[] = [], from?: ShCommand): ShPipeline[] {
  if (depth > SH_MAX_DEPTH) return out;
  if (depth === 0) shCounted.n = 0;
  const tokens = shLex(src);
  let here = cwd;
  let pipeline: ShCommand[] = [];
  let words: ShWord[] = [];
  let redirs: ShRedir[] = [];
  let ops: string[] = [];
  let cmdStart = -1;
  let cmdEnd = -1;
  let pipeStart = -1;
  const nested: { script: string; from: ShCommand }[] = [];
  const countCommands = (): number => shCounted.n;

  const endCommand = (): void => {
    if (words.length > 0 || redirs.length > 0) {
      const { argv, viaXargs, placeholder, inputs } = shUnwrap(words);
      const cmd: ShCommand = {
        argv,
        name: argv[0] ? shBase(argv[0].text) : "",
        redirs,
        raw: src.slice(cmdStart, cmdEnd),
        cwd: here,
        viaXargs,
        words,
        ...(placeholder !== undefined ? { placeholder } : {}),
        ...(inputs !== undefined ? { inputs } : {}),
      };
      const feeding = pipeline[pipeline.length - 1];
      pipeline.push(cmd);
      shCounted.n++;
      for (const w of [...words, ...redirs.flatMap((r) => (r.target ? [r.target] : []))])
        for (const script of w.subs) nested.push({ script, from: cmd });
      const inline = shInlineScript(cmd);
      if (inline !== undefined) nested.push({ script: inline, from: cmd });
      // parallel without a command template runs each of its ::: inputs as a command line.
      if (viaXargs && argv.length === 0 && inputs) for (const input of inputs) nested.push({ script: input.text, from: cmd });
      // A shell reading its script from stdin: a here-document, a here-string, or text piped from echo/printf/cat.
      if (shReadsStdinScript(cmd)) {
        for (const r of redirs) if (r.body !== undefined) nested.push({ script: r.body, from: cmd });
        const piped = feeding && shPipedText(feeding);
        if (piped !== undefined) nested.push({ script: piped, from: cmd });
      }
    }
    words = [];
    redirs = [];
    cmdStart = -1;
  };
  const endPipeline = (): void => {
    endCommand();
    if (pipeline.length > 0) {
      const first = pipeline[0] as ShCommand;
      out.push({ commands: pipeline, raw: src.slice(pipeStart, cmdEnd), ops, nest: depth, from });
      ops = [];
      // Follow `cd DIR` / `pushd DIR` so later relative paths resolve where they would.
      if (pipeline.length === 1 && (first.name === "cd" || first.name === "pushd")) {
        const arg = first.argv.slice(1).find((w) => !w.text.startsWith("-") || w.text === "-");
        here = !arg ? "~" : arg.dynamic || arg.text === "-" ? undefined : shResolve(here, arg.text);
      }
    }
    for (const inner of nested.splice(0)) {
      if (countCommands() < SH_MAX_COMMANDS) shAnalyze(inner.script, here, depth + 1, out, inner.from);
    }
    pipeline = [];
    pipeStart = -1;
  };

  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t] as ShToken;
    if (countCommands() >= SH_MAX_COMMANDS) break;
    if (tok.kind === "op") {
      if (tok.op === "|" || tok.op === "|&") endCommand();
      else {
        endPipeline();
        ops.push(tok.op as string);
      }
      continue;
    }
    if (cmdStart < 0) cmdStart = tok.start;
    if (pipeStart < 0) pipeStart = tok.start;
    cmdEnd = tok.end;
    if (tok.kind === "redir") {
      const next = tokens[t + 1];
      const target = next?.kind === "word" ? next.word : undefined;
      if (target && next) {
        t++;
        cmdEnd = next.end;
      }
      const body = tok.op === "<<<" ? target?.text : tok.body;
      redirs.push({ op: tok.op as string, fd: tok.fd ?? "", target, ...(body !== undefined ? { body } : {}) });
    } else if (tok.word) words.push(tok.word);
  }
  endPipeline();
  return out;
}
