// Reading a command line into tokens as bash splits it: words (quotes removed, $'…' decoded,
// expansions kept as written and recorded part by part), operators, redirections and the bodies
// of here-documents. Part of hookbox:shell (./index.ts).

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
  /** The word piece by piece, as the shell will expand it (what shPattern reads). */
  parts: ShPart[];
}

/**
 * One piece of a word. `lit`: quoted or escaped text, taken as is; `glob`: unquoted text, where
 * * ? [ ] { } keep their meaning (and @(…) +(…) … extglob groups); `var`: $NAME or ${…} (`name`
 * when it is a plain reference, with `fallback` for ${NAME:-word}); `sub`: $(…) or `…` (`script`);
 * `arith`: $((…)), digits.
 */
export interface ShPart {
  kind: "lit" | "glob" | "var" | "sub" | "arith";
  text: string;
  name?: string;
  fallback?: string;
  script?: string;
}

export interface ShRedir {
  /** >, >>, >|, &>, &>>, <>, >&, <, <<, <<-, <<<, <& */
  op: string;
  fd: string;
  target: ShWord | undefined;
  /** A here-document's body (<<, <<-) or a here-string's text (<<<): what the command reads on stdin. */
  body?: string;
}

export interface ShToken {
  kind: "word" | "op" | "redir";
  word?: ShWord;
  op?: string;
  fd?: string;
  start: number;
  end: number;
  /** A here-document's body, for a << or <<- redirection. */
  body?: string;
}

/** Bounds: a hostile command must not make the analysis itself the problem. */
const SH_MAX_TOKENS = 50_000;
export const SH_MAX_DEPTH = 4;
export const SH_MAX_COMMANDS = 5_000;
export const SH_MAX_BRACE_WORDS = 64;

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

const SH_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

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

/** Append to a word: its text, and its parts (consecutive lit or glob text merged). */
function shPut(word: ShWord, kind: ShPart["kind"], text: string, extra?: Partial<ShPart>): void {
  word.text += text;
  const last = word.parts[word.parts.length - 1];
  if (!extra && last && last.kind === kind && (kind === "lit" || kind === "glob")) last.text += text;
  else word.parts.push({ kind, text, ...extra });
}

/** Extglob operators: @(…) ?(…) *(…) +(…) !(…) inside a word (bash with extglob, zsh with ksh_glob). */
const SH_EXTGLOB = "@?*+!";

function shReadWord(src: string, start: number): { word: ShWord; end: number } {
  const word: ShWord = { text: "", dynamic: false, glob: false, braces: false, subs: [], parts: [] };
  let i = start;
  // <(…) and >(…): process substitution, a word of its own.
  if ((src[i] === "<" || src[i] === ">") && src[i + 1] === "(") {
    const b = shBalanced(src, i + 2, "(", ")");
    word.subs.push(b.inner);
    word.dynamic = true;
    shPut(word, "sub", src.slice(i, b.end), { script: b.inner });
    return { word, end: b.end };
  }
  while (i < src.length) {
    SH_PLAIN.lastIndex = i;
    const run = SH_PLAIN.exec(src);
    if (run) {
      shPut(word, "glob", run[0]);
      i += run[0].length;
      continue;
    }
    const c = src[i] as string;
    // An extglob group: `!(` only inside a word (at its start, `!` negates a pipeline).
    const last = word.parts[word.parts.length - 1];
    if (
      c === "(" &&
      last?.kind === "glob" &&
      SH_EXTGLOB.includes(last.text[last.text.length - 1] as string) &&
      !(last.text === "!" && word.parts.length === 1)
    ) {
      const b = shBalanced(src, i + 1, "(", ")");
      word.glob = true;
      shPut(word, "glob", src.slice(i, b.end));
      i = b.end;
      continue;
    }
    if (SH_BREAK.has(c)) break;
    if (c === "\\") {
      if (src[i + 1] !== "\n") shPut(word, "lit", src[i + 1] ?? "");
      i += 2;
    } else if (c === "'") {
      const q = src.indexOf("'", i + 1);
      shPut(word, "lit", src.slice(i + 1, q < 0 ? src.length : q));
      i = q < 0 ? src.length : q + 1;
    } else if (c === "$" && src[i + 1] === "'") {
      let j = i + 2;
      while (j < src.length && src[j] !== "'") j += src[j] === "\\" ? 2 : 1;
      shPut(word, "lit", shAnsiC(src.slice(i + 2, Math.min(j, src.length))));
      i = j + 1;
    } else if (c === '"' || (c === "$" && src[i + 1] === '"')) {
      i = shReadDouble(src, c === "$" ? i + 2 : i + 1, word);
    } else if (c === "$" || c === "`") {
      i = shReadExpansion(src, i, word);
    } else {
      if (c === "*" || c === "?" || c === "[") word.glob = true;
      if (c === "{") word.braces = true;
      shPut(word, "glob", c);
      i++;
    }
  }
  return { word, end: i };
}

/** Inside "…": only \ $ ` and " are special. */
function shReadDouble(src: string, from: number, word: ShWord): number {
  let i = from;
  // "" is an empty word, not no word: `> ""` names a file.
  shPut(word, "lit", "");
  while (i < src.length && src[i] !== '"') {
    const c = src[i] as string;
    if (c === "\\" && '$`"\\\n'.includes(src[i + 1] ?? "")) {
      if (src[i + 1] !== "\n") shPut(word, "lit", src[i + 1] as string);
      i += 2;
    } else if (c === "$" || c === "`") {
      i = shReadExpansion(src, i, word);
    } else {
      shPut(word, "lit", c);
      i++;
    }
  }
  return i + 1;
}

/** Special parameters whose value is a number: $# $? $$ $!. */
const SH_NUMERIC_PARAMS = "#?$!";

/** $name, ${…}, $(…), $((…)), `…`: kept as written, marked dynamic; command substitutions kept to read. */
function shReadExpansion(src: string, i: number, word: ShWord): number {
  word.dynamic = true;
  if (src[i] === "`") {
    const end = shSkipQuoted(src, i + 1, "`");
    const script = src.slice(i + 1, end - 1).replace(/\\([`\\$])/g, "$1");
    word.subs.push(script);
    shPut(word, "sub", src.slice(i, end), { script });
    return end;
  }
  const next = src[i + 1] ?? "";
  if (next === "(") {
    const arithmetic = src[i + 2] === "(";
    const b = shBalanced(src, i + 2, "(", ")");
    if (arithmetic) shPut(word, "arith", src.slice(i, b.end));
    else {
      word.subs.push(b.inner);
      shPut(word, "sub", src.slice(i, b.end), { script: b.inner });
    }
    return b.end;
  }
  if (next === "{") {
    const b = shBalanced(src, i + 2, "{", "}");
    const body = b.inner;
    const plain = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:(:?[-=])([\s\S]*))?$/.exec(body);
    if (/^#[A-Za-z_0-9@*]/.test(body)) shPut(word, "arith", src.slice(i, b.end));
    else if (plain)
      shPut(word, "var", src.slice(i, b.end), { name: plain[1] as string, ...(plain[2] !== undefined ? { fallback: plain[3] as string } : {}) });
    else shPut(word, "var", src.slice(i, b.end), {});
    return b.end;
  }
  const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(i + 1, i + 130));
  if (!m) {
    shPut(word, "glob", "$");
    return i + 1;
  }
  if (SH_NUMERIC_PARAMS.includes(m[0])) shPut(word, "arith", `$${m[0]}`);
  else shPut(word, "var", `$${m[0]}`, { name: m[0] });
  return i + 1 + m[0].length;
}

interface ShPendingDoc {
  delim: string;
  strip: boolean;
  token: ShToken;
}

/** Read the bodies of pending here-documents, which start on the line after their operator; they are not commands. */
function shSkipHeredocs(src: string, from: number, pending: ShPendingDoc[]): number {
  let i = from;
  for (const doc of pending) {
    const lines: string[] = [];
    while (i < src.length) {
      const nl = src.indexOf("\n", i);
      const line = src.slice(i, nl < 0 ? src.length : nl);
      i = nl < 0 ? src.length : nl + 1;
      const stripped = doc.strip ? line.replace(/^\t+/, "") : line;
      if (stripped === doc.delim) break;
      lines.push(stripped);
    }
    doc.token.body = lines.join("\n");
  }
  pending.length = 0;
  return i;
}

export function shLex(src: string): ShToken[] {
  const tokens: ShToken[] = [];
  const heredocs: ShPendingDoc[] = [];
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
      const token: ShToken = { kind: "redir", op: redir, fd, start: i, end: at + redir.length };
      tokens.push(token);
      i = at + redir.length;
      if (redir === "<<" || redir === "<<-") {
        while (src[i] === " " || src[i] === "\t") i++;
        const { word, end } = shReadWord(src, i);
        tokens.push({ kind: "word", word, start: i, end });
        heredocs.push({ delim: word.text, strip: redir === "<<-", token });
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
