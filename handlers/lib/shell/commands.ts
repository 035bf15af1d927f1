// The files a simple command writes, read program by program beyond shWriteWords: git's
// checkout/restore/stash/rm/mv, find -delete / -exec, xargs fed by a listing, sed's `w`,
// editors and sponge, ln (a link to a file), and interpreter one-liners (python -c, node -e,
// perl -e, ruby -e, awk …) by the paths their code names. Part of hookbox:shell (./index.ts).
import type { ShCommand } from "./analyze.ts";
import { shBase, shValues } from "./analyze.ts";
import type { ShPart, ShWord } from "./lex.ts";
import { type ShPattern, shAnyPattern, shGlobPatterns, shGlobTokens, shLiteralPattern } from "./pattern.ts";
import { shArchiveWrites } from "./archives.ts";
import { shJoin, shLiteral, shOperands, shWordBase, shWriteWords } from "./targets.ts";

/** One file a command may write, as the word that names it. */
export interface ShWritten {
  word: ShWord;
  /** What writes it, for messages: "a redirection", "cp", "git checkout", "python3 -c" … */
  by: string;
  /**
   * Set when the file is only named in code an interpreter runs (`python3 -c "open('.env','w')"`):
   * "writes" when the code looks like it writes files, "mentions" otherwise. A guard may judge
   * these by name only.
   */
  named?: "writes" | "mentions";
  /** Where a relative word is relative to when the command says so itself (git -C dir). */
  cwd?: string | undefined;
  /** Values of the placeholders in `word` (find's {} and xargs' arguments), as patterns. */
  bind?: Record<string, ShPattern[]>;
  /**
   * The command writes files only it knows below `word` (an archive's members, what rsync
   * copies in): a guard judges the directory as a whole, as it would `rm -r` of it.
   */
  contents?: true;
  /** find's selection with hidden directories entered (`bind`'s slot values otherwise skip them below a relative root). */
  bindHidden?: ShPattern[];
}

/** A placeholder for what find or xargs substitutes: a variable no shell can name. */
export const SH_SLOT = "\u0000slot";

function shSlot(): ShWord {
  return { text: "{}", dynamic: true, glob: false, braces: false, subs: [], parts: [{ kind: "var", text: "{}", name: SH_SLOT }] };
}

/** parallel's replacement strings: {} and its variants ({.} {/} {//} {/.} {#} {%}), each standing for (part of) the input. */
const SH_PARALLEL_SLOT = /\{(?:[./#%]|\/\/|\/\.)?\}/g;

/**
 * A template word with the input put in: each occurrence of `placeholder` in its literal text
 * becomes the slot (`mv {} {}.bak` → the input, the input + ".bak"), as find -exec, xargs -I and
 * parallel substitute it anywhere in a word. A word without it is kept as it is.
 */
export function shFillSlot(word: ShWord, placeholder: string | RegExp): ShWord {
  const split = (text: string): string[] => (typeof placeholder === "string" ? text.split(placeholder) : text.split(placeholder));
  if (!word.parts.some((p) => (p.kind === "lit" || p.kind === "glob") && split(p.text).length > 1)) return word;
  const parts: ShPart[] = [];
  for (const part of word.parts) {
    if (part.kind !== "lit" && part.kind !== "glob") {
      parts.push(part);
      continue;
    }
    split(part.text).forEach((piece, k) => {
      if (k > 0) parts.push(...shSlot().parts);
      if (piece !== "") parts.push({ ...part, text: piece });
    });
  }
  return { ...word, dynamic: true, parts, text: parts.map((p) => p.text).join("") };
}

function shUsesSlot(word: ShWord): boolean {
  return word.parts.some((p) => p.name === SH_SLOT);
}

const SH_INTERPRETERS: Record<string, string[]> = {
  python: ["-c"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
  node: ["-e", "--eval", "-p", "--print"],
  deno: ["eval"],
  bun: ["-e", "--eval", "-p", "--print"],
  php: ["-r"],
  lua: ["-e"],
  rscript: ["-e"],
  osascript: ["-e"],
  pwsh: ["-c", "-command"],
  powershell: ["-c", "-command"],
  awk: [],
};
/** Programs that change a file's mode, owner, flags or name, or remove a directory: shWrites with `attributes`. Every operand counts (a mode or owner names no file anyone protects). */
const SH_ATTRIBUTE_PROGRAMS = new Set([
  "chmod",
  "chown",
  "chgrp",
  "chattr",
  "chflags",
  "setfacl",
  "setfattr",
  "xattr",
  "rmdir",
  "rename",
  "mkfifo",
  "mknod",
]);
const SH_EDITORS = new Set(["vi", "vim", "nvim", "ex", "ed", "nano", "pico", "emacs", "joe", "micro", "sponge", "kak", "hx"]);
/** String literals in code: '…', "…", `…` (escapes kept as written, short ones only). */
const SH_CODE_STRING = /'((?:[^'\\\n]|\\.){1,4096})'|"((?:[^"\\\n]|\\.){1,4096})"|`((?:[^`\\]|\\.){1,4096})`/g;
/** Code that looks like it writes: a write mode, a write or delete call, a redirection inside awk/perl. */
const SH_CODE_WRITES =
  /['"](?:[wax]b?\+?|r\+b?|[wa]t|>{1,2}[^'"]*|\+<[^'"]*)['"]|\b(?:write\w*|append\w*|unlink\w*|remove|rmtree|rename\w*|replace|copy\w*|move|truncate|mkdir\w*|symlink\w*|chmod|touch|dump|save\w*|put\w*|rm\w*|cp|mv|system|exec\w*|spawn\w*)\s*\(|\bprint[f]?\b[^;\n]*>|\bopen\s*\([^)]*,\s*['"]?(?:>|O_W|O_CREAT|O_APPEND)/;

function shInterpreter(name: string): string | undefined {
  if (/^python[0-9.]*$/.test(name) || name === "pypy3" || name === "pypy") return "python";
  if (/^(g|m|n)?awk$/.test(name) || name === "busybox-awk") return "awk";
  if (name === "nodejs") return "node";
  if (/^ruby[0-9.]*$/.test(name)) return "ruby";
  if (/^perl[0-9.]*$/.test(name)) return "perl";
  if (/^php[0-9.]*$/.test(name)) return "php";
  return Object.hasOwn(SH_INTERPRETERS, name) ? name : undefined;
}

/** The program an interpreter runs from the command line or stdin; undefined when it runs a file. */
function shInterpreterCode(cmd: ShCommand, kind: string, stdin: string | undefined): string[] | undefined {
  const flags = SH_INTERPRETERS[kind] as string[];
  const argv = cmd.argv;
  const code: string[] = [];
  let operand: ShWord | undefined;
  for (let j = 1; j < argv.length; j++) {
    const t = (argv[j] as ShWord).text;
    const lower = t.toLowerCase();
    if (flags.includes(lower)) {
      if (argv[j + 1]) code.push((argv[j + 1] as ShWord).text);
      j++;
    } else if (kind === "awk" && (t === "-f" || t === "-v" || t === "-F")) {
      if (t === "-f") return code.length > 0 ? code : undefined;
      j++;
    } else if (/^-[a-zA-Z]*[ceE]$/.test(t) && kind !== "awk" && kind !== "node" && argv[j + 1]) {
      // Bundled short options ending in the code flag: python3 -Ic '…', perl -ne '…'.
      if (flags.some((f) => f.length === 2 && t.endsWith(f[1] as string))) {
        code.push((argv[j + 1] as ShWord).text);
        j++;
      }
    } else if (t.startsWith("-") && t !== "-") continue;
    else {
      operand = argv[j];
      break;
    }
  }
  if (kind === "awk" && code.length === 0 && operand) return [operand.text];
  if (code.length > 0) return code;
  // No inline program: it reads its program from stdin (`python3 -`, `node < <<EOF`) or runs a file.
  if ((operand === undefined || operand.text === "-") && stdin !== undefined) return [stdin];
  return undefined;
}

/** Paths named in an interpreter's code: its string literals, perl's open modes removed. */
export function shCodePaths(code: string): string[] {
  const found: string[] = [];
  for (const m of code.slice(0, 200_000).matchAll(SH_CODE_STRING)) {
    const literal = (m[1] ?? m[2] ?? m[3] ?? "")
      .replace(/^\s*(?:\+?[<>]{1,2}|\|)\s*/, "")
      .replace(/\s*\|$/, "")
      .trim();
    if (literal !== "" && !/[\n\r]/.test(literal) && found.length < 256) found.push(literal);
  }
  return [...new Set(found)];
}

/** The files sed's script writes: `w file`, `W file`, `s/…/…/w file`. */
function shSedWrites(script: string): string[] {
  const out: string[] = [];
  for (const m of script.matchAll(/(?:^|[;\n{}])\s*(?:[0-9$,/\\!][^;\n{}wW]*)?[wW][ \t]+([^\n;}]+)/g)) out.push((m[1] as string).trim());
  for (const m of script.matchAll(/s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImMeE0-9]*w[ \t]+([^\n;}]+)/g)) out.push((m[2] as string).trim());
  return out.filter((p) => p !== "/dev/stdout" && p !== "/dev/stderr");
}

const SH_GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);
const SH_GIT_SUB_VALUED: Record<string, string[]> = {
  checkout: ["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"],
  restore: ["-s", "--source", "--pathspec-from-file"],
  stash: ["-m", "--message", "--pathspec-from-file"],
  rm: ["--pathspec-from-file"],
  mv: [],
};

/** git pathspecs as patterns: magic prefixes removed, * matching across "/" and dotfiles as git's wildmatch does. */
function shPathspec(text: string): ShWord | undefined {
  if (/^:(?:\([^)]*\bexclude\b[^)]*\)|[!^])/.test(text)) return undefined;
  const spec = text.replace(/^:\([^)]*\)/, "").replace(/^:[/]?/, "");
  return { text: spec, dynamic: false, glob: true, braces: false, subs: [], parts: [{ kind: "glob", text: spec.replace(/\*+/g, "**") }] };
}

function shGit(cmd: ShCommand): ShWritten[] {
  const argv = cmd.argv.map((w) => w.text);
  let i = 1;
  let cwd = cmd.cwd;
  while (i < argv.length && (argv[i] as string).startsWith("-")) {
    if (argv[i] === "-C") cwd = shJoinPath(cwd, argv[i + 1] ?? "");
    else if (argv[i] === "--work-tree" || (argv[i] as string).startsWith("--work-tree=")) cwd = undefined;
    i += SH_GIT_VALUED.has(argv[i] as string) ? 2 : 1;
  }
  const sub = argv[i];
  if (sub === undefined || !Object.hasOwn(SH_GIT_SUB_VALUED, sub)) return [];
  const valued = SH_GIT_SUB_VALUED[sub] as string[];
  const before: ShWord[] = [];
  const after: ShWord[] = [];
  let dashdash = false;
  let cached = false;
  let unknownList = false;
  for (let j = i + 1; j < cmd.argv.length; j++) {
    const w = cmd.argv[j] as ShWord;
    if (!dashdash && w.text === "--") dashdash = true;
    else if (!dashdash && w.text.startsWith("-") && w.text.length > 1) {
      if (w.text === "--cached") cached = true;
      if (w.text.startsWith("--pathspec-from-file")) unknownList = true;
      if (valued.includes(w.text)) j++;
    } else (dashdash ? after : before).push(w);
  }
  const by = `git ${sub}`;
  const spec = (words: ShWord[]): ShWritten[] =>
    words.flatMap((w) => {
      const word = shPathspec(w.text);
      return word ? [{ word: w.dynamic ? w : word, by, cwd }] : [];
    });
  const out: ShWritten[] = unknownList ? [{ word: shSlot(), by: `${by} --pathspec-from-file`, cwd, bind: {} }] : [];
  switch (sub) {
    case "checkout":
      // Without "--", `git checkout <tree-ish> <paths>`: the first of several is the tree; a lone one may be a file.
      return [...out, ...spec(dashdash ? after : before.length > 1 ? before.slice(1) : before)];
    case "restore":
      return [...out, ...spec([...before, ...after])];
    case "stash": {
      // `git stash push [--] <paths>` and `git stash -- <paths>` name files; pop, apply, save … do not.
      const action = before[0]?.text;
      if (action === "push") return [...out, ...spec([...before.slice(1), ...after])];
      return action === undefined ? [...out, ...spec(after)] : out;
    }
    case "rm":
      return cached ? out : [...out, ...spec([...before, ...after])];
    case "mv": {
      const operands = [...before, ...after];
      const dest = operands[operands.length - 1];
      if (!dest || operands.length < 2) return out;
      const sources = operands.slice(0, -1);
      return [
        ...out,
        { word: dest, by, cwd },
        ...sources.map((s) => ({ word: shJoin(dest, "/", shWordBase(s)), by, cwd })),
        ...sources.map((s) => ({ word: s, by, cwd })),
      ];
    }
  }
  return out;
}

function shJoinPath(base: string | undefined, path: string): string | undefined {
  return path.startsWith("/") ? path : base === undefined ? undefined : `${base}/${path}`;
}

/** What find selects: its roots, and for each name test the files of that name below them. */
function shFindSelection(cmd: ShCommand): { roots: ShWord[]; patterns: ShPattern[] | undefined; hidden: ShPattern[] | undefined } {
  const argv = cmd.argv;
  const roots: ShWord[] = [];
  let j = 1;
  for (; j < argv.length && !/^[-(!]/.test((argv[j] as ShWord).text); j++) roots.push(argv[j] as ShWord);
  if (roots.length === 0) roots.push(shLiteral("."));
  const names: string[] = [];
  const paths: string[] = [];
  let negated = false;
  let filtered = true;
  for (; j < argv.length; j++) {
    const t = (argv[j] as ShWord).text;
    if (t === "!" || t === "-not") negated = true;
    else if (/^-i?(name|path|wholename|regex)$/.test(t)) {
      const value = (argv[j + 1] as ShWord | undefined)?.text ?? "*";
      // A regex is not read: as if there were no name test at all.
      if (t.endsWith("regex")) filtered = false;
      else if (!negated) (t.endsWith("name") && !t.endsWith("wholename") ? names : paths).push(value);
      negated = false;
      j++;
    } else if (t === "-o" || t === "-or" || t === "-a" || t === "-and" || t === "(" || t === ")") negated = false;
    else if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") break;
  }
  if (!filtered || (names.length === 0 && paths.length === 0)) return { roots, patterns: undefined, hidden: undefined };
  const patterns: ShPattern[] = [];
  const hiddenToo: ShPattern[] = [];
  for (const root of roots) {
    const base = root.text.replace(/\/+$/, "") || "/";
    // find descends into hidden directories too; below a project directory (a relative root) those
    // are .git, .venv …, not credential stores, so only a root at / or ~ reaches them here.
    const hidden = base.startsWith("/") || base.startsWith("~");
    const dir = shLiteralPattern(`${base}/`);
    for (const n of names) {
      // Read as bash reads a glob: a leading * is not a leading "." (find's own -name would match .env.log for *.log).
      const name = shGlobTokens(n, true);
      patterns.push([...dir, ...name], [...dir, { k: "deep", dot: hidden }, { k: "c", c: "/" }, ...name]);
      hiddenToo.push([...dir, ...name], [...dir, { k: "deep", dot: true }, { k: "c", c: "/" }, ...name]);
    }
    for (const p of paths) {
      patterns.push(...shGlobPatterns(p.replace(/\*+/g, "**")));
      hiddenToo.push(...shGlobPatterns(p.replace(/\*+/g, "**")));
    }
  }
  return { roots, patterns, hidden: hiddenToo };
}

function shFind(cmd: ShCommand, attributes: boolean): ShWritten[] {
  const { roots, patterns, hidden } = shFindSelection(cmd);
  const out: ShWritten[] = [];
  const texts = cmd.argv.map((w) => w.text);
  // Without a name test it touches whatever is below its roots: judged as the roots, as rm -r is.
  const selected = (by: string): ShWritten[] =>
    patterns
      ? [{ word: shSlot(), by, bind: { [SH_SLOT]: patterns }, ...(hidden ? { bindHidden: hidden } : {}) }]
      : roots.map((word) => ({ word, by }));
  if (texts.includes("-delete")) out.push(...selected("find -delete"));
  for (let j = 1; j < texts.length; j++) {
    const t = texts[j] as string;
    if ((t === "-fprint" || t === "-fprint0" || t === "-fprintf" || t === "-fls") && cmd.argv[j + 1])
      out.push({ word: cmd.argv[j + 1] as ShWord, by: `find ${t}` });
    if (t !== "-exec" && t !== "-execdir" && t !== "-ok" && t !== "-okdir") continue;
    const end = texts.findIndex((x, k) => k > j && (x === ";" || x === "+"));
    const inner = cmd.argv.slice(j + 1, end < 0 ? undefined : end).map((w) => shFillSlot(w, "{}"));
    const name = inner[0] ? shBase(inner[0].text) : "";
    const virtual: ShCommand = { ...cmd, argv: inner, name, redirs: [], words: inner, viaXargs: false };
    for (const written of shCommandWrites(virtual, undefined, attributes)) {
      const usesSlot = shUsesSlot(written.word);
      if (!usesSlot) out.push({ ...written, by: `find -exec ${written.by}` });
      else if (patterns)
        out.push({ ...written, by: `find -exec ${written.by}`, bind: { [SH_SLOT]: patterns }, ...(hidden ? { bindHidden: hidden } : {}) });
      else out.push(...roots.map((word) => ({ word, by: `find -exec ${written.by}` })));
    }
    if (end > j) j = end;
  }
  return out;
}

/** What a listing command feeding xargs names: find's selection, ls / echo / git ls-files / grep -l operands; undefined when unknown. */
export function shListed(cmd: ShCommand): { words: ShWord[]; patterns?: ShPattern[] } | undefined {
  const { operands } = shOperands(cmd);
  if (cmd.name === "find") {
    const { roots, patterns } = shFindSelection(cmd);
    return patterns ? { words: [], patterns } : { words: roots };
  }
  if (cmd.name === "ls" || cmd.name === "echo" || cmd.name === "printf") return { words: operands.length > 0 ? operands : [shLiteral(".")] };
  if (cmd.name === "git" && cmd.argv[1]?.text === "ls-files")
    return {
      words: operands
        .slice(1)
        .flatMap((w) => shPathspec(w.text) ?? [])
        .concat(operands.length > 1 ? [] : [shLiteral(".")]),
    };
  if (
    (cmd.name === "grep" || cmd.name === "rg" || cmd.name === "ag" || cmd.name === "egrep" || cmd.name === "fgrep") &&
    cmd.argv.some((w) => /^-[a-zA-Z]*l/.test(w.text) || w.text === "--files-with-matches")
  ) {
    const files = operands.slice(1);
    return { words: files.length > 0 ? files : [shLiteral(".")] };
  }
  return undefined;
}

/**
 * The files one command writes, with what writes them. `feeding` is the command before it in
 * its pipeline (what xargs reads, what an interpreter reads as its program). `attributes`: also
 * the files whose mode, owner, flags or name it changes (SH_ATTRIBUTE_PROGRAMS).
 */
export function shCommandWrites(cmd: ShCommand, feeding: ShCommand | undefined, attributes = false): ShWritten[] {
  const by = cmd.name || "a redirection";
  const out: ShWritten[] = shWriteWords(cmd).map((word) => ({ word, by: cmd.redirs.some((r) => r.target === word) ? "a redirection" : by }));
  if (attributes && SH_ATTRIBUTE_PROGRAMS.has(cmd.name)) for (const word of shOperands(cmd).operands) out.push({ word, by });
  if (cmd.viaXargs) {
    // The template runs once per input (xargs: from stdin, what the command before it lists;
    // parallel: its ::: words, else stdin): the input goes where the placeholder is, or at the end.
    const runner = shBase(
      cmd.words.find((w) => {
        const b = shBase(w.text);
        return b === "xargs" || b === "parallel";
      })?.text ?? "xargs",
    );
    const listed = cmd.inputs ? { words: cmd.inputs } : feeding ? shListed(feeding) : undefined;
    const slot = runner === "parallel" && cmd.placeholder === "{}" ? SH_PARALLEL_SLOT : cmd.placeholder;
    const template = slot !== undefined ? cmd.argv.map((w) => shFillSlot(w, slot)) : cmd.argv;
    const argv = slot !== undefined && template.some(shUsesSlot) ? template : [...template, shSlot()];
    const virtual: ShCommand = { ...cmd, argv, name: argv[0] ? shBase(argv[0].text) : "", redirs: [], viaXargs: false, words: argv };
    for (const written of shCommandWrites(virtual, undefined, attributes)) {
      const by = `${runner} ${written.by}`;
      // What the template names itself (`xargs rm -rf ~/.config/hookbox`, `xargs -I{} mv {} dest/`) is written as it is.
      if (!shUsesSlot(written.word)) out.push({ ...written, by });
      else if (!listed) out.push({ ...written, by, bind: {} });
      else if (listed.patterns) out.push({ ...written, by, bind: { [SH_SLOT]: listed.patterns } });
      else if (written.word.parts.length === 1) out.push(...listed.words.map((word) => ({ word, by })));
      // Inside a longer word (`/tmp/h/{}`, `{}.bak`), a listing's entry is only known as a word: ls lists what is in a directory.
      else if (feeding?.name === "ls" && !cmd.inputs) out.push({ ...written, by, bind: {} });
      else
        out.push({
          ...written,
          by,
          bind: {
            [SH_SLOT]: listed.words.flatMap((w) =>
              shValues(w).map((text) => (w.dynamic ? shAnyPattern() : w.glob ? shGlobTokens(text, true) : shLiteralPattern(text))),
            ),
          },
        });
    }
    return out;
  }
  const stdin =
    cmd.redirs.find((r) => r.body !== undefined)?.body ??
    (feeding && (feeding.name === "echo" || feeding.name === "printf")
      ? feeding.argv
          .slice(1)
          .map((w) => w.text)
          .join(" ")
      : feeding?.name === "cat"
        ? feeding.redirs.find((r) => r.body !== undefined)?.body
        : undefined);
  const interpreter = shInterpreter(cmd.name);
  if (interpreter) {
    const code = shInterpreterCode(cmd, interpreter, stdin);
    if (code) {
      const text = code.join("\n");
      const named = SH_CODE_WRITES.test(text) || (interpreter === "awk" && />/.test(text)) ? "writes" : "mentions";
      const label = `${cmd.name} ${interpreter === "awk" ? "program" : "code"}`;
      // awk names files unquoted too (print > out): its words count as well as its strings.
      const paths =
        interpreter === "awk"
          ? [...shCodePaths(text), ...[...text.matchAll(/>{1,2}\s*([^\s;}"'()]+)/g)].map((m) => m[1] as string)]
          : shCodePaths(text);
      for (const p of paths) out.push({ word: shLiteral(p), by: label, named });
    }
  }
  out.push(...shArchiveWrites(cmd));
  switch (cmd.name) {
    case "rsync": {
      // What it copies in is below its destination (a source ending in "/" copies its contents there).
      const dest = shOperands(cmd).operands.slice(1).pop();
      if (dest && !/^[^/]*:/.test(dest.text))
        out.push({ word: dest, by: cmd.argv.some((w) => w.text.startsWith("--delete")) ? "rsync --delete" : "rsync", contents: true });
      break;
    }
    case "git":
      out.push(...shGit(cmd));
      break;
    case "find":
      out.push(...shFind(cmd, attributes));
      break;
    case "sed": {
      const scripts: string[] = [];
      const argv = cmd.argv;
      let scriptFlag = false;
      for (let j = 1; j < argv.length; j++) {
        const t = (argv[j] as ShWord).text;
        if (t === "-e" || t === "--expression") {
          scriptFlag = true;
          if (argv[j + 1]) scripts.push((argv[++j] as ShWord).text);
        } else if (t.startsWith("--expression=")) {
          scriptFlag = true;
          scripts.push(t.slice(13));
        } else if (t === "-f" || t === "--file") {
          scriptFlag = true;
          j++;
        }
      }
      if (!scriptFlag) {
        const first = shOperands(cmd).operands[0];
        if (first) scripts.push(first.text);
      }
      for (const script of scripts) for (const p of shSedWrites(script)) out.push({ word: shLiteral(p), by: "sed w" });
      // sed -i.bak keeps a backup next to each file: `sed -i.env … x` writes x.env.
      const suffix = argv
        .map((w) => w.text)
        .find((t) => /^-i\S+$/.test(t) || t.startsWith("--in-place="))
        ?.replace(/^-i|^--in-place=/, "");
      if (suffix && !suffix.includes("*"))
        for (const w of shWriteWords(cmd).filter((w) => !cmd.redirs.some((r) => r.target === w)))
          out.push({ word: shJoin(w, suffix), by: "sed -i (its backup)" });
      break;
    }
    case "ln":
      // A link is a second name for its target: writing through it writes the target.
      for (const s of shOperands(cmd).operands.slice(0, -1)) out.push({ word: s, by: "ln (a link to it)", named: "mentions" });
      break;
  }
  if (SH_EDITORS.has(cmd.name)) for (const w of shOperands(cmd).operands) if (!w.text.startsWith("+")) out.push({ word: w, by: cmd.name });
  return out;
}
