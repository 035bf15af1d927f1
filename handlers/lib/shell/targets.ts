// The files one simple command writes, creates, truncates, moves or removes, as written.
// Part of hookbox:shell (./index.ts).
import { type ShCommand, shValues } from "./analyze.ts";
import type { ShWord } from "./lex.ts";

/** Options (per program) whose value is the next argument, so it is not taken for a file. */
const SH_VALUED: Record<string, string[]> = {
  cp: ["-t", "-S", "--target-directory", "--suffix"],
  mv: ["-t", "-S", "--target-directory", "--suffix"],
  install: ["-t", "-m", "-o", "-g", "-S", "--target-directory", "--mode", "--owner", "--group", "--suffix"],
  ln: ["-t", "-S", "--target-directory", "--suffix"],
  rsync: [
    "-e",
    "--rsh",
    "--exclude",
    "--include",
    "--filter",
    "-f",
    "--chmod",
    "--rsync-path",
    "--log-file",
    "--backup-dir",
    "--suffix",
    "-T",
    "--temp-dir",
    "--partial-dir",
    "--files-from",
    "--exclude-from",
    "--include-from",
  ],
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

/** A word made of literal text. */
export function shLiteral(text: string): ShWord {
  return { text, dynamic: false, glob: false, braces: false, subs: [], parts: [{ kind: "lit", text }] };
}

/** Characters [start, end) of a word's text, parts kept (`of=$F` from 3 → `$F`); an expansion cut in two becomes unknown. */
export function shWordSlice(word: ShWord, start: number, end: number = word.text.length): ShWord {
  const out: ShWord = { ...word, text: word.text.slice(start, end), parts: [] };
  let at = 0;
  for (const part of word.parts) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + part.text.length);
    if (to > from || (part.text === "" && at >= start && at <= end)) {
      const whole = from === at && to === at + part.text.length;
      if (whole) out.parts.push(part);
      else if (part.kind === "lit" || part.kind === "glob") out.parts.push({ ...part, text: part.text.slice(from - at, to - at) });
      else out.parts.push({ kind: "var", text: part.text.slice(from - at, to - at) });
    }
    at += part.text.length;
  }
  return out;
}

/** Words and text joined into one word (dest + "/" + the source's name). */
export function shJoin(...pieces: (ShWord | string)[]): ShWord {
  const out: ShWord = { text: "", dynamic: false, glob: false, braces: false, subs: [], parts: [] };
  for (const piece of pieces) {
    const word = typeof piece === "string" ? shLiteral(piece) : piece;
    out.text += word.text;
    out.dynamic ||= word.dynamic;
    out.glob ||= word.glob;
    out.braces ||= word.braces;
    out.parts.push(...word.parts);
  }
  return out;
}

/** The last path component of a word: after its last "/" outside expansions, trailing slashes dropped. */
export function shWordBase(word: ShWord): ShWord {
  const length = word.text.replace(/\/+$/, "").length;
  let cut = 0;
  let at = 0;
  for (const part of word.parts) {
    if (part.kind === "lit" || part.kind === "glob") {
      const slash = part.text.slice(0, Math.max(0, length - at)).lastIndexOf("/");
      if (slash >= 0) cut = at + slash + 1;
    }
    at += part.text.length;
  }
  return shWordSlice(word, cut, length);
}

/**
 * The files a simple command writes, creates, truncates, moves or removes, as the words that
 * name them (expansions unresolved): redirections, tee, cp/mv/install/ln/rsync destinations (and
 * the file each source becomes there), mv sources, sed -i / perl -i files, truncate, touch, rm,
 * unlink, shred, mkdir, dd of=, curl -o, wget -O. Interpreters, git, find and variables are read
 * across the whole command line by shWrites.
 */
export function shWriteWords(cmd: ShCommand): ShWord[] {
  const targets: ShWord[] = [];
  const add = (w: ShWord | undefined): void => {
    if (w !== undefined) targets.push(w);
  };
  for (const r of cmd.redirs) {
    if (!r.target) continue;
    if (SH_REDIR_WRITES.has(r.op) || (r.op === ">&" && !/^(\d+|-)$/.test(r.target.text))) add(r.target);
  }
  if (cmd.viaXargs) return targets;
  const { operands } = shOperands(cmd);
  const argv = cmd.argv;
  /** The word an option names (`-t DIR`, `--target-directory=DIR`, `-oFILE`). */
  const optionWord = (long: string | undefined, short: string | undefined, attached = false): ShWord | undefined => {
    for (let j = 1; j < argv.length; j++) {
      const t = (argv[j] as ShWord).text;
      if (t === "--") break;
      if (t === long || t === short) return argv[j + 1];
      if (long && t.startsWith(`${long}=`)) return shWordSlice(argv[j] as ShWord, long.length + 1);
      if (attached && short && t.length > short.length && t.startsWith(short) && !t.startsWith("--"))
        return shWordSlice(argv[j] as ShWord, short.length);
    }
    return undefined;
  };
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
      const dir = cmd.name === "rsync" || cmd.name === "scp" ? undefined : optionWord("--target-directory", "-t");
      const sources = dir !== undefined ? operands : operands.slice(0, -1);
      const dest = dir ?? (operands.length >= 2 ? operands[operands.length - 1] : undefined);
      if (dest === undefined) break;
      if ((cmd.name === "scp" || cmd.name === "rsync") && /^[^/]*:/.test(dest.text)) break; // a remote destination
      add(dest);
      const into = dest.text.endsWith("/") ? dest : shJoin(dest, "/");
      for (const s of sources) {
        const names = s.braces && !s.dynamic ? shValues(s).map(shLiteralGlob) : [s];
        for (const n of names) add(shJoin(into, shWordBase(n)));
      }
      if (cmd.name === "mv") sources.forEach(add);
      break;
    }
    case "sed":
    case "perl": {
      const { options } = shOperands(cmd);
      const inPlace = options.some((o) => o === "--in-place" || o.startsWith("--in-place=") || /^-[a-zA-Z0-9]*i/.test(o));
      if (!inPlace) break;
      const scripts = cmd.name === "sed" ? ["-e", "-f", "--expression", "--file"] : ["-e", "-E"];
      const scriptGiven = options.some((o) => scripts.includes(o) || o.startsWith("--expression=") || o.startsWith("--file="));
      (scriptGiven ? operands : operands.slice(1)).forEach(add);
      break;
    }
    case "dd":
      for (const w of argv.slice(1)) if (w.text.startsWith("of=")) add(shWordSlice(w, 3));
      break;
    case "curl":
      add(optionWord("--output", "-o", true));
      break;
    case "wget":
      add(optionWord("--output-document", "-O", true));
      break;
  }
  return targets.filter((t) => t.text !== "-");
}

/** An unquoted word of this text: its glob characters keep their meaning. */
function shLiteralGlob(text: string): ShWord {
  return { text, dynamic: false, glob: /[*?[]/.test(text), braces: false, subs: [], parts: [{ kind: "glob", text }] };
}

/**
 * The files a simple command writes, as text (brace expansion applied; expansions such as $F
 * kept as written). See shWriteWords; shWrites reads a whole command line.
 */
export function shWriteTargets(cmd: ShCommand): string[] {
  return shWriteWords(cmd)
    .flatMap((w) => shValues(w))
    .filter((t) => t !== "" && t !== "-");
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
