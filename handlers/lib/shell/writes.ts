// The files a whole command line may write, as patterns: each command's targets (commands.ts)
// with its variables resolved where the command line itself assigns them — `F=.env; > $F`,
// `for f in *.ts; do sed -i … "$f"; done`, `> $(echo .env)` — and left as "anything" where it
// does not, so a guard can refuse what it cannot know. Part of hookbox:shell (./index.ts).
import { type ShCommand, type ShPipeline, shAnalyze } from "./analyze.ts";
import { type ShWritten, SH_SLOT, shCommandWrites, shListed } from "./commands.ts";
import { type ShScope, shExpand } from "./expand.ts";
import type { ShWord } from "./lex.ts";
import { type ShPattern, type ShTok, shAnyPattern, shLiteralPattern, shPatternLiteral, shPatternText } from "./pattern.ts";
import { shLiteral, shWordBase, shWordSlice } from "./targets.ts";

/** One file a command line may write. */
export interface ShTarget {
  /** The word as written (`$F`, `.e*`, `"$OUT/x"`), for messages. */
  raw: string;
  /** What writes it: "a redirection", "cp", "git checkout", "python3 code" … */
  by: string;
  /** The simple command it comes from, as written. */
  command: string;
  /** Only named in an interpreter's code (see ShWritten.named). */
  named?: "writes" | "mentions";
  /** The path when it is one plain path (no glob, nothing unknown), as written or as its variable holds it. */
  path: string | undefined;
  /** Where `path` is relative to (cd followed); undefined when unknown. */
  cwd: string | undefined;
  /** Every path it may be: absolute where the directory is known ("." and ".." resolved), else as written. */
  patterns: ShPattern[];
  /** Expansions whose value the command line does not give ("$F", "$(cat list)"): the path may be anything there. */
  unknown: string[];
  /** It writes files it alone knows below this directory (archive members, rsync): judge the directory as a whole. */
  contents?: true;
  /** find's selection with hidden directories entered too (find descends into .git, .hookbox …; `patterns` do not). */
  hidden?: ShPattern[];
}

/** Variables whose meaning does not depend on the command line: resolved to what they stand for. */
const SH_KNOWN_VARS: Record<string, (workspace: string | undefined, cwd: string | undefined) => string | undefined> = {
  HOME: () => "~",
  PWD: (_w, cwd) => cwd,
  TMPDIR: () => "/tmp",
  TMP: () => "/tmp",
  TEMP: () => "/tmp",
  RUNNER_TEMP: () => "/tmp",
  CLAUDE_PROJECT_DIR: (w) => w,
  GEMINI_PROJECT_DIR: (w) => w,
  CURSOR_PROJECT_DIR: (w) => w,
  QWEN_PROJECT_DIR: (w) => w,
  COPILOT_PROJECT_DIR: (w) => w,
  GITHUB_WORKSPACE: (w) => w,
  GITHUB_OUTPUT: () => "/github/file_commands/output",
  GITHUB_ENV: () => "/github/file_commands/env",
  GITHUB_PATH: () => "/github/file_commands/path",
  GITHUB_STATE: () => "/github/file_commands/state",
  GITHUB_STEP_SUMMARY: () => "/github/file_commands/step_summary",
};

const SH_OPENERS = new Set(["if", "while", "until", "case", "select", "for", "{"]);
const SH_CLOSERS = new Set(["fi", "done", "esac", "}"]);
const SH_NEUTRAL = new Set(["then", "do", "else", "elif", "!", "in"]);
const SH_SEPARATORS = new Set([";", "\n", "&", ";;", ";&", ";;&"]);
const SH_DECLARERS = new Set(["export", "declare", "typeset", "local", "readonly"]);
const SH_READERS = new Set(["read", "mapfile", "readarray", "getopts", "unset"]);
const SH_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

/** Where a pipeline stands in the command line: which `;`-separated list, reached through && only, inside a compound. */
interface ShPlace {
  segment: number;
  /** Every operator from the start of its list to it is &&: when it runs, all before it in the list ran. */
  chained: boolean;
  /** The first pipeline of its list: it runs whenever the list does. */
  first: boolean;
  /** Inside if/while/for/case/{ }/( ) or a nested script: it may not run, or not in this shell. */
  nested: boolean;
}

interface ShAssignment {
  name: string;
  /** undefined: set to something unknown (read, unset, +=). */
  value: ShWord | undefined;
  index: number;
  place: ShPlace;
}

interface ShLoop {
  name: string;
  words: ShWord[] | undefined;
  level: number;
}

/** Does an assignment certainly hold when a command at `use` runs? */
function shCertain(a: ShAssignment, use: ShPlace): boolean {
  if (a.place.nested) return false;
  return a.place.first || (a.place.segment === use.segment && a.place.chained && use.chained);
}

/**
 * Every file the command line may write, with its variables, loops and substitutions resolved
 * as far as the line itself says. `cwd`: where it starts (the workspace), or undefined.
 * `attributes`: also the files whose mode, owner, flags or name a command changes (chmod, chown,
 * chattr, setfacl, rename, rmdir …): not writes of content, but changes to the file all the same.
 */
export function shWrites(command: string, cwd: string | undefined, options: { attributes?: boolean } = {}): ShTarget[] {
  const pipelines = shAnalyze(command, cwd);
  const assignments: ShAssignment[] = [];
  const loops: ShLoop[] = [];
  const targets: ShTarget[] = [];
  let place: ShPlace = { segment: 0, chained: true, first: true, nested: false };
  let level = 0;
  let parens = 0;

  pipelines.forEach((pipeline, index) => {
    if (pipeline.nest === 0) {
      const ops = pipeline.ops;
      parens += ops.filter((o) => o === "(").length - ops.filter((o) => o === ")").length;
      if (index === 0 || ops.some((o) => SH_SEPARATORS.has(o))) place = { segment: place.segment + 1, chained: true, first: true, nested: false };
      else if (ops.includes("||")) place = { ...place, chained: false, first: false };
      else if (ops.includes("&&")) place = { ...place, first: false };
    }
    for (const cmd of pipeline.commands) {
      for (const word of cmd.words) {
        const t = word.text;
        if (SH_CLOSERS.has(t)) level = Math.max(0, level - 1);
        else if (SH_OPENERS.has(t)) level++;
        else if (!SH_NEUTRAL.has(t)) break;
      }
    }
    while (loops.length > 0 && (loops[loops.length - 1] as ShLoop).level > level) loops.pop();
    const here: ShPlace = { ...place, nested: pipeline.nest > 0 || level > 0 || parens > 0 || pipeline.commands.length > 1 };
    const scope = shScope(pipeline, index, here, assignments, loops, cwd);
    pipeline.commands.forEach((cmd, k) => {
      for (const written of shCommandWrites(cmd, pipeline.commands[k - 1], options.attributes === true)) targets.push(shTarget(written, cmd, scope));
    });
    for (const cmd of pipeline.commands) shRecord(cmd, index, here, level, assignments, loops);
  });
  return targets;
}

/** Assignments, reads and loop headers of one command, recorded for the commands after it. */
function shRecord(cmd: ShCommand, index: number, place: ShPlace, level: number, assignments: ShAssignment[], loops: ShLoop[]): void {
  const lead = cmd.words.findIndex((w) => !SH_OPENERS.has(w.text) && !SH_CLOSERS.has(w.text) && !SH_NEUTRAL.has(w.text));
  const words = lead < 0 ? [] : cmd.words.slice(lead);
  const keyword = cmd.words[lead - 1]?.text;
  if ((keyword === "for" || keyword === "select") && words[0]) {
    // for NAME in WORDS: inside the loop NAME is one of WORDS (globs expanded as globs); without `in`, the arguments.
    const inAt = words.findIndex((w) => w.text === "in");
    loops.push({ name: words[0].text, words: inAt > 0 ? words.slice(inAt + 1) : undefined, level });
    return;
  }
  const assign = (word: ShWord, at: ShPlace): void => {
    const m = SH_ASSIGNMENT.exec(word.text);
    if (m) assignments.push({ name: m[1] as string, value: m[2] ? undefined : shWordSlice(word, m[0].length), index, place: at });
  };
  if (cmd.argv.length === 0) for (const w of words) assign(w, place);
  else if (SH_DECLARERS.has(cmd.name)) for (const w of cmd.argv.slice(1)) assign(w, place);
  else if (SH_READERS.has(cmd.name)) {
    for (const w of cmd.argv.slice(1))
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.text)) assignments.push({ name: w.text, value: undefined, index, place });
  }
}

/** Prefix assignments (`F=x cmd`): they hold inside the scripts that command runs (eval, sh -c), not for it. */
function shPrefixes(cmd: ShCommand | undefined): Map<string, ShWord> {
  const found = new Map<string, ShWord>();
  for (const w of cmd?.words ?? []) {
    const m = SH_ASSIGNMENT.exec(w.text);
    if (!m) break;
    if (!m[2]) found.set(m[1] as string, shWordSlice(w, m[0].length));
  }
  return found;
}

function shScope(
  pipeline: ShPipeline,
  index: number,
  use: ShPlace,
  assignments: readonly ShAssignment[],
  loops: readonly ShLoop[],
  workspace: string | undefined,
): ShScope {
  const prefixes = shPrefixes(pipeline.from);
  const cwd = pipeline.commands[0]?.cwd;
  const scope: ShScope = {
    variable(name) {
      const prefixed = prefixes.get(name);
      if (prefixed) return { words: [prefixed], unknown: false };
      const loop = [...loops].reverse().find((l) => l.name === name);
      if (loop) return loop.words ? { words: loop.words, unknown: false } : { words: [], unknown: true };
      const before = assignments.filter((a) => a.name === name && a.index < index);
      let last = -1;
      before.forEach((a, k) => {
        if (shCertain(a, use)) last = k;
      });
      const relevant = last >= 0 ? before.slice(last) : before;
      const words = relevant.flatMap((a) => (a.value ? [a.value] : []));
      let unknown = relevant.some((a) => a.value === undefined);
      if (last < 0) {
        const known = Object.hasOwn(SH_KNOWN_VARS, name)
          ? (SH_KNOWN_VARS[name] as (w: string | undefined, c: string | undefined) => string | undefined)(workspace, cwd)
          : undefined;
        if (known !== undefined) words.push(shLiteral(known));
        else unknown = true;
      }
      return { words, unknown };
    },
    substitution(script) {
      return shSubstitution(script, cwd, scope);
    },
  };
  return scope;
}

/** What a command substitution prints, when it is one simple command whose output is known. */
function shSubstitution(script: string, cwd: string | undefined, scope: ShScope): ShPattern[] | undefined {
  const pipelines = shAnalyze(script, cwd, 1);
  if (pipelines.length !== 1 || pipelines[0]?.commands.length !== 1) return undefined;
  const cmd = pipelines[0].commands[0] as ShCommand;
  const args = cmd.argv.slice(1);
  const expanded = (words: ShWord[]): ShPattern[] => words.flatMap((w) => shExpand(w, scope).patterns);
  switch (cmd.name) {
    case "echo":
      return expanded(args.filter((w) => !/^-[neE]+$/.test(w.text)));
    case "printf": {
      const format = args[0]?.text;
      if (format === undefined) return undefined;
      if (/^%s(\\n)?$/.test(format)) return expanded(args.slice(1));
      return format.includes("%") ? undefined : [shLiteralPattern(format.replace(/\\n$/, ""))];
    }
    case "pwd":
      return cwd !== undefined ? [shLiteralPattern(cwd)] : undefined;
    case "basename":
      return args[0] ? expanded([shWordBase(args[0])]) : undefined;
    case "date":
    case "whoami":
    case "hostname":
    case "uname":
    case "id":
    case "uuidgen":
    case "nproc":
      return [[{ k: "star", dot: false }]];
    case "mktemp": {
      const texts = args.map((w) => w.text);
      const dirAt = texts.findIndex((t) => t === "-p" || t === "--tmpdir");
      const dir = dirAt >= 0 ? texts[dirAt + 1] : texts.find((t) => t.startsWith("--tmpdir="))?.slice(9);
      const template = texts.filter((t, k) => !t.startsWith("-") && (dirAt < 0 || k !== dirAt + 1))[0] ?? "tmp.XXXXXXXXXX";
      const place = dir !== undefined ? `${dir}/` : template.includes("/") ? "" : "/tmp/";
      // Each X becomes a letter or a digit: tmp.XXXXXXXXXX is never tmp.pem.
      const xs = /X{3,}/.exec(template);
      const random: ShTok = { k: "set", chars: "abcdefghijklmnopqrstuvwxyz0123456789", neg: false, dot: false };
      if (!xs) return [shLiteralPattern(`${place}${template}`)];
      return [
        [
          ...shLiteralPattern(`${place}${template.slice(0, xs.index)}`),
          ...Array.from({ length: xs[0].length }, () => random),
          ...shLiteralPattern(template.slice(xs.index + xs[0].length)),
        ],
      ];
    }
  }
  const listed = shListed(cmd);
  if (!listed) return undefined;
  return listed.patterns ?? expanded(listed.words);
}

/** A written word as a target: expanded in its scope, placed under its directory. */
function shTarget(written: ShWritten, cmd: ShCommand, scope: ShScope): ShTarget {
  const cwd = "cwd" in written ? written.cwd : cmd.cwd;
  // find's {} and xargs' arguments stand for what find selects or the listing names; unknown when nothing says.
  const slot = written.bind ? written.bind[SH_SLOT] : undefined;
  const bound: ShScope = written.bind ? { ...scope, patterns: (name) => (name === SH_SLOT ? (slot ?? [shAnyPattern()]) : undefined) } : scope;
  const expansion = shExpand(written.word, bound);
  const unknown = written.bind && !slot ? [`the files ${written.by} reads from its input`, ...expansion.unknown] : expansion.unknown;
  const patterns = expansion.patterns;
  const literal = patterns.length === 1 && unknown.length === 0 ? shPatternLiteral(patterns[0] as ShPattern) : undefined;
  return {
    raw: slot ? patterns.map(shPatternText).join(", ") : written.word.text,
    by: written.by,
    command: cmd.raw,
    ...(written.named ? { named: written.named } : {}),
    ...(written.contents ? { contents: true as const } : {}),
    ...(written.bindHidden
      ? {
          hidden: shExpand(written.word, { ...bound, patterns: (name) => (name === SH_SLOT ? written.bindHidden : undefined) }).patterns.map((p) =>
            shPlace(p, cwd),
          ),
        }
      : {}),
    path: literal,
    cwd,
    patterns: patterns.map((p) => shPlace(p, cwd)),
    unknown: [...new Set(unknown)],
  };
}

/** Absolute under `cwd` unless rooted (/, ~) or led by an unknown value; "." and ".." resolved; a final bare * means its directory. */
export function shPlace(pattern: ShPattern, cwd: string | undefined): ShPattern {
  const head = pattern[0];
  const rooted =
    head !== undefined &&
    ((head.k === "c" &&
      (head.c === "/" || (head.c === "~" && (pattern.length === 1 || (pattern[1]?.k === "c" && (pattern[1] as { c: string }).c === "/"))))) ||
      head.k === "deep");
  const full: ShPattern = rooted || cwd === undefined ? pattern : [...shLiteralPattern(cwd), { k: "c", c: "/" }, ...pattern];
  const absolute = full[0]?.k === "c" && (full[0] as { c: string }).c === "/";
  const segments: ShTok[][] = [[]];
  for (const tok of absolute ? full.slice(1) : full) {
    if (tok.k === "c" && tok.c === "/") segments.push([]);
    else (segments[segments.length - 1] as ShTok[]).push(tok);
  }
  const kept: ShTok[][] = [];
  for (const seg of segments) {
    const text = shPatternLiteral(seg);
    if (text === "" || text === ".") continue;
    if (
      text === ".." &&
      kept.length > 0 &&
      shPatternLiteral(kept[kept.length - 1] as ShTok[]) !== ".." &&
      !(kept[kept.length - 1] as ShTok[]).some((t) => t.k === "deep")
    )
      kept.pop();
    else kept.push(seg);
  }
  const last = kept[kept.length - 1];
  // `rm dir/*` is judged as `rm -r dir` is: by the directory, its files not expanded.
  if (last && last.length === 1 && last[0]?.k === "star" && !last[0].dot && kept.length > 1) kept.pop();
  const out: ShPattern = [];
  kept.forEach((seg, k) => {
    if (k > 0 || absolute) out.push({ k: "c", c: "/" });
    out.push(...seg);
  });
  return out.length > 0 ? out : shLiteralPattern(absolute ? "/" : ".");
}
