// hookbox:shell — a guest library for handlers: `import { shAnalyze } from "hookbox:shell";`
// It runs inside the sandbox with the handler (linked at compile time, no host access), so a
// community hook gets the same shell reading as the standard guards without shipping a copy.
//
// A best-effort reading of a shell command line, as bash would split it: words with quotes
// removed ($'…' decoded), redirections, pipelines, `cd` tracked along a sequence, and the
// scripts that run inside it ($(…), `…`, <(…), sh -c '…', eval …) read the same way. It never
// executes anything; what only the shell can know ($VAR, globs against the disk) stays as
// written and is marked `dynamic` / `glob`.

export interface ShWord {
  /** The value after quote removal; expansions ($HOME, $(…)) kept as written. */
  text: string;
  /** Part of it is only known when the shell runs it ($VAR, ${…}, $(…), `…`). */
  dynamic: boolean;
  /** An unquoted * ? or [ : the shell would expand it against the disk. */
  glob: boolean;
  /** An unquoted { : brace expansion may apply. */
  braces: boolean;
  /** Scripts inside the word that run too: $(…), `…`, <(…), >(…). */
  subs: string[];
}

export interface ShRedir {
  /** >, >>, >|, &>, &>>, <>, >&, <, <<, <<-, <<<, <& */
  op: string;
  fd: string;
  target: ShWord | undefined;
}

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
  /** Its arguments come from stdin (xargs): they are unknown. */
  viaXargs: boolean;
}

export interface ShPipeline {
  commands: ShCommand[];
  raw: string;
}

interface ShToken {
  kind: "word" | "op" | "redir";
  word?: ShWord;
  op?: string;
  fd?: string;
  start: number;
  end: number;
}

/** Bounds: a hostile command must not make the analysis itself the problem. */
const SH_MAX_TOKENS = 50_000;
const SH_MAX_DEPTH = 4;
const SH_MAX_COMMANDS = 5_000;
const SH_MAX_BRACE_WORDS = 64;

const SH_OPS = ["&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "\n"];
const SH_REDIRS = ["<<<", "<<-", "&>>", "<<", ">>", ">|", "&>", "<>", ">&", "<&", ">", "<"];
const SH_BREAK = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** Runs of characters with no meaning to the shell, consumed at once (QuickJS is an interpreter). */
const SH_PLAIN = /[^\s;&|()<>'"\\$`*?[{]+/y;
const SH_BLANK = /[ \t\r]+/y;
/** Characters that may start an operator or a redirection ([0-9] for 2>). */
const SH_OP_START = /[0-9<>&|;()\n]/;

/** Read from just after an opening `(` or `{` to its match; quotes and nesting respected. */
function shBalanced(src: string, from: number, open: string, close: string): { inner: string; end: number } {
  let depth = 1;
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "'") {
      const q = src.indexOf("'", i + 1);
      i = q < 0 ? src.length : q + 1;
      continue;
    }
    if (c === '"' || c === "`") {
      i = shSkipQuoted(src, i + 1, c);
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return { inner: src.slice(from, i), end: i + 1 };
    i++;
  }
  return { inner: src.slice(from), end: src.length };
}

function shSkipQuoted(src: string, from: number, quote: string): number {
  let i = from;
  while (i < src.length && src[i] !== quote) i += src[i] === "\\" ? 2 : 1;
  return Math.min(src.length, i + 1);
}

const SH_ESCAPES: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/** $'…' (ANSI-C quoting): `rm -rf $'\x2f'` is `rm -rf /`. */
function shAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const e = body[++i] as string;
    let m: RegExpExecArray | null;
    if (SH_ESCAPES[e] !== undefined) out += SH_ESCAPES[e];
    else if ((m = /^[0-7]{1,3}/.exec(body.slice(i)))) {
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (e === "x" && (m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1)))) {
      out += String.fromCharCode(parseInt(m[0], 16));
      i += m[0].length;
    } else if ((e === "u" || e === "U") && (m = /^[0-9a-fA-F]{1,8}/.exec(body.slice(i + 1)))) {
      const code = parseInt(m[0].slice(0, e === "u" ? 4 : 8), 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      i += Math.min(m[0].length, e === "u" ? 4 : 8);
    } else if (e === "c" && i + 1 < body.length) {
      out += String.fromCharCode((body.charCodeAt(++i) & 0x1f) >>> 0);
    } else out += `\\${e}`;
  }
  return out;
}

function shReadWord(src: string, start: number): { word: ShWord; end: number } {
  const word: ShWord = { text: "", dynamic: false, glob: false, braces: false, subs: [] };
  let i = start;
  // <(…) and >(…): process substitution, a word of its own.
  if ((src[i] === "<" || src[i] === ">") && src[i + 1] === "(") {
    const b = shBalanced(src, i + 2, "(", ")");
    word.subs.push(b.inner);
    word.dynamic = true;
    word.text = src.slice(i, b.end);
    return { word, end: b.end };
  }
  while (i < src.length) {
    SH_PLAIN.lastIndex = i;
    const run = SH_PLAIN.exec(src);
    if (run) {
      word.text += run[0];
      i += run[0].length;
      continue;
    }
    const c = src[i] as string;
    if (SH_BREAK.has(c)) break;
    if (c === "\\") {
      if (src[i + 1] !== "\n") word.text += src[i + 1] ?? "";
      i += 2;
    } else if (c === "'") {
      const q = src.indexOf("'", i + 1);
      word.text += src.slice(i + 1, q < 0 ? src.length : q);
      i = q < 0 ? src.length : q + 1;
    } else if (c === "$" && src[i + 1] === "'") {
      let j = i + 2;
      while (j < src.length && src[j] !== "'") j += src[j] === "\\" ? 2 : 1;
      word.text += shAnsiC(src.slice(i + 2, Math.min(j, src.length)));
      i = j + 1;
    } else if (c === '"' || (c === "$" && src[i + 1] === '"')) {
      i = shReadDouble(src, c === "$" ? i + 2 : i + 1, word);
    } else if (c === "$" || c === "`") {
      i = shReadExpansion(src, i, word);
    } else {
      if (c === "*" || c === "?" || c === "[") word.glob = true;
      if (c === "{") word.braces = true;
      word.text += c;
      i++;
    }
  }
  return { word, end: i };
}

/** Inside "…": only \ $ ` and " are special. */
function shReadDouble(src: string, from: number, word: ShWord): number {
  let i = from;
  while (i < src.length && src[i] !== '"') {
    const c = src[i] as string;
    if (c === "\\" && '$`"\\\n'.includes(src[i + 1] ?? "")) {
      if (src[i + 1] !== "\n") word.text += src[i + 1];
      i += 2;
    } else if (c === "$" || c === "`") {
      i = shReadExpansion(src, i, word);
    } else {
      word.text += c;
      i++;
    }
  }
  return i + 1;
}

/** $name, ${…}, $(…), $((…)), `…`: kept as written, marked dynamic; command substitutions kept to read. */
function shReadExpansion(src: string, i: number, word: ShWord): number {
  if (src[i] === "`") {
    const end = shSkipQuoted(src, i + 1, "`");
    word.subs.push(src.slice(i + 1, end - 1).replace(/\\([`\\$])/g, "$1"));
    word.dynamic = true;
    word.text += src.slice(i, end);
    return end;
  }
  const next = src[i + 1] ?? "";
  if (next === "(") {
    const arithmetic = src[i + 2] === "(";
    const b = shBalanced(src, i + 2, "(", ")");
    if (!arithmetic) word.subs.push(b.inner);
    word.dynamic = true;
    word.text += src.slice(i, b.end);
    return b.end;
  }
  if (next === "{") {
    const b = shBalanced(src, i + 2, "{", "}");
    word.dynamic = true;
    word.text += src.slice(i, b.end);
    return b.end;
  }
  const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(i + 1, i + 130));
  if (!m) {
    word.text += "$";
    return i + 1;
  }
  word.dynamic = true;
  word.text += `$${m[0]}`;
  return i + 1 + m[0].length;
}

/** Skip the bodies of pending here-documents, which start on the line after their operator. */
function shSkipHeredocs(src: string, from: number, pending: { delim: string; strip: boolean }[]): number {
  let i = from;
  for (const doc of pending) {
    while (i < src.length) {
      const nl = src.indexOf("\n", i);
      const line = src.slice(i, nl < 0 ? src.length : nl);
      i = nl < 0 ? src.length : nl + 1;
      if ((doc.strip ? line.replace(/^\t+/, "") : line) === doc.delim) break;
    }
  }
  pending.length = 0;
  return i;
}

function shLex(src: string): ShToken[] {
  const tokens: ShToken[] = [];
  const heredocs: { delim: string; strip: boolean }[] = [];
  let i = 0;
  while (i < src.length && tokens.length < SH_MAX_TOKENS) {
    const c = src[i] as string;
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      SH_BLANK.lastIndex = i;
      i += SH_BLANK.exec(src)?.[0].length ?? 1;
      continue;
    }
    if (c === "#") {
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    if (!SH_OP_START.test(c)) {
      const { word, end } = shReadWord(src, i);
      tokens.push({ kind: "word", word, start: i, end: Math.max(end, i + 1) });
      i = Math.max(end, i + 1);
      continue;
    }
    if (c === "\n") {
      tokens.push({ kind: "op", op: "\n", start: i, end: i + 1 });
      i = heredocs.length > 0 ? shSkipHeredocs(src, i + 1, heredocs) : i + 1;
      continue;
    }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      const { word, end } = shReadWord(src, i);
      tokens.push({ kind: "word", word, start: i, end });
      i = end;
      continue;
    }
    const fd = /^\d{1,3}(?=[<>])/.exec(src.slice(i, i + 4))?.[0] ?? "";
    const at = i + fd.length;
    const redir = SH_REDIRS.find((r) => src.startsWith(r, at));
    if (redir && !(src[at + redir.length] === "(" && redir.length === 1)) {
      tokens.push({ kind: "redir", op: redir, fd, start: i, end: at + redir.length });
      i = at + redir.length;
      if (redir === "<<" || redir === "<<-") {
        while (src[i] === " " || src[i] === "\t") i++;
        const { word, end } = shReadWord(src, i);
        tokens.push({ kind: "word", word, start: i, end });
        heredocs.push({ delim: word.text, strip: redir === "<<-" });
        i = end;
      }
      continue;
    }
    const op = SH_OPS.find((o) => src.startsWith(o, i));
    if (op) {
      tokens.push({ kind: "op", op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    const { word, end } = shReadWord(src, i);
    tokens.push({ kind: "word", word, start: i, end: Math.max(end, i + 1) });
    i = Math.max(end, i + 1);
  }
  return tokens;
}

/** {a,b}c → ac bc (comma lists only, nested, bounded); `rm -rf /{etc,usr}` names /etc and /usr. */
export function shExpandBraces(text: string): string[] {
  // Only small words are expanded: a hostile {a,b}{a,b}… must not cost time, memory or stack.
  if (text.length > 512 || (text.match(/\{/g) ?? []).length > 8) return [text];
  const out: string[] = [];
  const walk = (s: string): void => {
    if (out.length >= SH_MAX_BRACE_WORDS) return;
    const open = s.indexOf("{");
    if (open < 0) return void out.push(s);
    let depth = 0;
    const commas: number[] = [];
    for (let j = open; j < s.length; j++) {
      if (s[j] === "{") depth++;
      else if (s[j] === "}" && --depth === 0) {
        if (commas.length === 0) return void out.push(s);
        const parts: string[] = [];
        let from = open + 1;
        for (const k of commas) {
          parts.push(s.slice(from, k));
          from = k + 1;
        }
        parts.push(s.slice(from, j));
        for (const part of parts) walk(s.slice(0, open) + part + s.slice(j + 1));
        return;
      } else if (s[j] === "," && depth === 1) commas.push(j);
    }
    out.push(s);
  };
  walk(text);
  return out;
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
};

/** Shells and the options after which the next operand is their script. */
const SH_SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "busybox"]);

export function shBase(text: string): string {
  return text.slice(text.lastIndexOf("/") + 1).toLowerCase();
}

export function shUnwrap(words: ShWord[]): { argv: ShWord[]; viaXargs: boolean } {
  let argv = words;
  let viaXargs = false;
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
    if (name === "xargs") viaXargs = true;
    const [valued, operands] = wrapper;
    let j = 1;
    while (j < argv.length) {
      const t = (argv[j] as ShWord).text;
      if (t === "--") {
        j++;
        break;
      }
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) j++;
      else if (t.startsWith("-") && t.length > 1) j += valued.includes(t) ? 2 : 1;
      else break;
    }
    argv = argv.slice(j + operands);
  }
  return { argv, viaXargs };
}

/** The script a command runs from a string: sh -c '…', su -c '…', eval …; undefined when none. */
export function shInlineScript(cmd: ShCommand): string | undefined {
  if (cmd.name === "eval") return cmd.argv.slice(1).map((w) => w.text).join(" ");
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
export function shAnalyze(src: string, cwd: string | undefined, depth = 0, out: ShPipeline[] = []): ShPipeline[] {
  if (depth > SH_MAX_DEPTH) return out;
  if (depth === 0) shCounted.n = 0;
  const tokens = shLex(src);
  let here = cwd;
  let pipeline: ShCommand[] = [];
  let words: ShWord[] = [];
  let redirs: ShRedir[] = [];
  let cmdStart = -1;
  let cmdEnd = -1;
  let pipeStart = -1;
  const nested: string[] = [];
  const countCommands = (): number => shCounted.n;

  const endCommand = (): void => {
    if (words.length > 0 || redirs.length > 0) {
      const { argv, viaXargs } = shUnwrap(words);
      const cmd: ShCommand = { argv, name: argv[0] ? shBase(argv[0].text) : "", redirs, raw: src.slice(cmdStart, cmdEnd), cwd: here, viaXargs };
      pipeline.push(cmd);
      shCounted.n++;
      for (const w of [...words, ...redirs.flatMap((r) => (r.target ? [r.target] : []))]) nested.push(...w.subs);
      const inline = shInlineScript(cmd);
      if (inline !== undefined) nested.push(inline);
    }
    words = [];
    redirs = [];
    cmdStart = -1;
  };
  const endPipeline = (): void => {
    endCommand();
    if (pipeline.length > 0) {
      const first = pipeline[0] as ShCommand;
      out.push({ commands: pipeline, raw: src.slice(pipeStart, cmdEnd) });
      // Follow `cd DIR` / `pushd DIR` so later relative paths resolve where they would.
      if (pipeline.length === 1 && (first.name === "cd" || first.name === "pushd")) {
        const arg = first.argv.slice(1).find((w) => !w.text.startsWith("-") || w.text === "-");
        here = !arg ? "~" : arg.dynamic || arg.text === "-" ? undefined : shResolve(here, arg.text);
      }
    }
    for (const script of nested.splice(0)) {
      if (countCommands() < SH_MAX_COMMANDS) shAnalyze(script, here, depth + 1, out);
    }
    pipeline = [];
    pipeStart = -1;
  };

  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t] as ShToken;
    if (countCommands() >= SH_MAX_COMMANDS) break;
    if (tok.kind === "op") {
      if (tok.op === "|" || tok.op === "|&") endCommand();
      else endPipeline();
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
      redirs.push({ op: tok.op as string, fd: tok.fd ?? "", target });
    } else if (tok.word) words.push(tok.word);
  }
  endPipeline();
  return out;
}

/** Options (per program) whose value is the next argument, so it is not taken for a file. */
const SH_VALUED: Record<string, string[]> = {
  cp: ["-t", "-S", "--target-directory", "--suffix"],
  mv: ["-t", "-S", "--target-directory", "--suffix"],
  install: ["-t", "-m", "-o", "-g", "-S", "--target-directory", "--mode", "--owner", "--group", "--suffix"],
  ln: ["-t", "-S", "--target-directory", "--suffix"],
  rsync: ["-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chmod", "--rsync-path", "--log-file", "--backup-dir", "--suffix", "-T", "--temp-dir", "--partial-dir", "--files-from", "--exclude-from", "--include-from"],
  sed: ["-e", "-f", "-l", "--expression", "--file", "--line-length"],
  perl: ["-e", "-E", "-M", "-I", "-m"],
  truncate: ["-s", "-r", "--size", "--reference"],
  touch: ["-d", "-t", "-r", "--date", "--reference"],
  tee: [],
  shred: ["-n", "-s", "--iterations", "--size"],
  mkdir: ["-m", "--mode"],
};

/** Split argv (after the program) into operands and the options seen, honouring `--`. */
export function shOperands(cmd: ShCommand): { operands: ShWord[]; options: string[] } {
  const valued = SH_VALUED[cmd.name] ?? [];
  const operands: ShWord[] = [];
  const options: string[] = [];
  let onlyOperands = false;
  for (let j = 1; j < cmd.argv.length; j++) {
    const w = cmd.argv[j] as ShWord;
    if (!onlyOperands && w.text === "--") onlyOperands = true;
    else if (!onlyOperands && w.text.startsWith("-") && w.text.length > 1) {
      options.push(w.text);
      if (valued.includes(w.text)) options.push(`=${cmd.argv[++j]?.text ?? ""}`);
    } else operands.push(w);
  }
  return { operands, options };
}

const SH_REDIR_WRITES = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/**
 * The files a simple command writes, creates, truncates, moves or removes, as written (relative
 * paths not resolved): redirections, tee, cp/mv/install/ln/rsync destinations (and the file each
 * source would become there), mv sources, sed -i / perl -i files, truncate, touch, rm, unlink,
 * shred, mkdir, dd of=, curl -o, wget -O. Best effort: interpreters (python -c …), editors, git,
 * archives and patch are not followed.
 */
export function shWriteTargets(cmd: ShCommand): string[] {
  const targets: string[] = [];
  const add = (w: ShWord | string | undefined): void => {
    if (w === undefined) return;
    if (typeof w === "string") targets.push(w);
    else targets.push(...shValues(w));
  };
  for (const r of cmd.redirs) {
    if (!r.target) continue;
    if (SH_REDIR_WRITES.has(r.op) || (r.op === ">&" && !/^(\d+|-)$/.test(r.target.text))) add(r.target);
  }
  if (cmd.viaXargs) return targets;
  const { operands, options } = shOperands(cmd);
  const optionValue = (long: string, short: string): string | undefined => {
    for (let k = 0; k < options.length; k++) {
      const o = options[k] as string;
      if (o === long || o === short) return options[k + 1]?.slice(1);
      if (o.startsWith(`${long}=`)) return o.slice(long.length + 1);
    }
    return undefined;
  };
  const base = (p: string): string => p.replace(/\/+$/, "").slice(p.replace(/\/+$/, "").lastIndexOf("/") + 1);
  switch (cmd.name) {
    case "tee":
    case "truncate":
    case "touch":
    case "rm":
    case "unlink":
    case "shred":
    case "mkdir":
    case "srm":
      operands.forEach(add);
      break;
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
    case "scp": {
      const dir = optionValue("--target-directory", "-t");
      const sources = dir !== undefined ? operands : operands.slice(0, -1);
      const dest = dir ?? (operands.length >= 2 ? operands[operands.length - 1]?.text : undefined);
      if (dest === undefined) break;
      if (cmd.name === "scp" || cmd.name === "rsync") {
        if (/^[^/]*:/.test(dest)) break; // a remote destination
      }
      add(dest);
      for (const s of sources) for (const v of shValues(s)) add(`${dest.replace(/\/+$/, "")}/${base(v)}`);
      if (cmd.name === "mv") sources.forEach(add);
      break;
    }
    case "sed":
    case "perl": {
      const inPlace = options.some((o) => o === "--in-place" || o.startsWith("--in-place=") || /^-[a-zA-Z0-9]*i/.test(o));
      if (!inPlace) break;
      const scripts = cmd.name === "sed" ? ["-e", "-f", "--expression", "--file"] : ["-e", "-E"];
      const scriptGiven = options.some((o) => scripts.includes(o) || o.startsWith("--expression=") || o.startsWith("--file="));
      (scriptGiven ? operands : operands.slice(1)).forEach(add);
      break;
    }
    case "dd":
      for (const w of cmd.argv.slice(1)) if (w.text.startsWith("of=")) add(w.text.slice(3));
      break;
    case "curl":
    case "wget": {
      const flags = cmd.name === "curl" ? ["-o", "--output"] : ["-O", "--output-document"];
      for (let j = 1; j < cmd.argv.length; j++) {
        const t = (cmd.argv[j] as ShWord).text;
        if (flags.includes(t)) add(cmd.argv[j + 1]?.text);
        else if (t.startsWith(`${flags[1]}=`)) add(t.slice((flags[1] as string).length + 1));
        else if (t.length > 2 && t.startsWith(flags[0] as string) && !t.startsWith("--")) add(t.slice(2));
      }
      break;
    }
  }
  return targets.filter((t) => t !== "" && t !== "-");
}

/** The command line a tool call runs: a string, or an argv array (quoted back into one line). */
export function shCommandText(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value
    .filter((w): w is string => typeof w === "string")
    .map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`))
    .join(" ");
}

/** a/./b/../c → a/c; a leading ".." is kept (it climbs out of wherever this is relative to). */
export function shNormalizeRelative(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(seg);
  }
  return (p.startsWith("/") ? "/" : "") + parts.join("/");
}
