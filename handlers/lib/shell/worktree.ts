// git commands that delete or revert work-tree files without naming them: git clean, git stash
// (-u, -a), git checkout/restore of pathspecs, git checkout -f, git switch --discard-changes,
// git reset --hard. What they touch depends on the repository's state (what is untracked,
// ignored or modified), which no reading of the line can know: shGitWorktree says what to ask
// git. Part of hookbox:shell (./index.ts).
import type { ShCommand } from "./analyze.ts";
import type { ShWord } from "./lex.ts";

/** What a git command does to the work tree, in terms of what to ask git about it. */
export interface ShGitWorktree {
  /** "git clean -fdx", "git stash -u", "git reset --hard", … as written, for messages. */
  what: string;
  /** Its subcommand. */
  sub: "clean" | "stash" | "checkout" | "restore" | "reset" | "switch";
  /** Where git runs (cd and -C followed); undefined when not known (--git-dir, --work-tree, a cd the line does not give). */
  cwd: string | undefined;
  /** Modified or staged tracked files go back to `source` (undefined: the index). */
  reverts: boolean;
  /** The commit or tree they go back to: "HEAD" (stash, reset --hard, checkout -f), a named one, or undefined (the index). */
  source: string | undefined;
  /** Untracked files are removed (clean, stash -u/-a). */
  untracked: boolean;
  /** Ignored files are removed (clean -x, clean -X, stash -a). */
  ignored: boolean;
  /** Only ignored files (clean -X). */
  onlyIgnored: boolean;
  /** git clean -d: untracked directories too. */
  directories: boolean;
  /** The pathspecs it was given, relative to `cwd`; empty: all (the whole repository, or for clean the cwd). */
  pathspecs: ShWord[];
  /** Its pathspecs come from elsewhere (--pathspec-from-file): not known here. */
  unknownPathspecs: boolean;
}

const SH_GIT_GLOBAL_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);
const SH_GIT_WORKTREE_VALUED: Record<string, string[]> = {
  clean: ["-e", "--exclude"],
  stash: ["-m", "--message"],
  checkout: ["-b", "-B", "--orphan", "--conflict"],
  restore: ["-s", "--source"],
  reset: [],
  switch: ["-c", "-C", "--create", "--force-create", "--orphan", "--conflict"],
};

/**
 * The work-tree effect of a git command that deletes or reverts files it does not name; undefined
 * for every other git command (and for these when they only look: clean -n, stash list, restore
 * --staged, a branch switch that keeps local changes).
 */
export function shGitWorktree(cmd: ShCommand): ShGitWorktree | undefined {
  if (cmd.name !== "git") return undefined;
  const argv = cmd.argv;
  let i = 1;
  let cwd = cmd.cwd;
  while (i < argv.length && (argv[i] as ShWord).text.startsWith("-")) {
    const t = (argv[i] as ShWord).text;
    if (t === "-C") {
      const dir = argv[i + 1];
      cwd = dir === undefined || dir.dynamic ? undefined : dir.text.startsWith("/") ? dir.text : cwd === undefined ? undefined : `${cwd}/${dir.text}`;
    } else if (/^--(git-dir|work-tree)(=|$)/.test(t)) cwd = undefined;
    i += SH_GIT_GLOBAL_VALUED.has(t) ? 2 : 1;
  }
  const sub = argv[i]?.text;
  if (sub === undefined || !Object.hasOwn(SH_GIT_WORKTREE_VALUED, sub)) return undefined;
  const valued = SH_GIT_WORKTREE_VALUED[sub] as string[];
  const flags: string[] = [];
  const values = new Map<string, string>();
  const operands: ShWord[] = [];
  const after: ShWord[] = [];
  let dashdash = false;
  for (let j = i + 1; j < argv.length; j++) {
    const w = argv[j] as ShWord;
    if (dashdash) after.push(w);
    else if (w.text === "--") dashdash = true;
    else if (w.text.startsWith("-") && w.text.length > 1) {
      const eq = w.text.indexOf("=");
      const name = w.text.startsWith("--") && eq > 0 ? w.text.slice(0, eq) : w.text;
      if (valued.includes(name)) values.set(name, eq > 0 ? w.text.slice(eq + 1) : (argv[++j]?.text ?? ""));
      else if (/^-[a-zA-Z]{2,}$/.test(name)) for (const c of name.slice(1)) flags.push(`-${c}`);
      else flags.push(name);
    } else operands.push(w);
  }
  const has = (...names: string[]): boolean => names.some((n) => flags.includes(n));
  const unknownPathspecs = flags.some((f) => f.startsWith("--pathspec-from-file"));
  const base = {
    what: `git ${[sub, ...flags].join(" ")}`.trim(),
    cwd,
    unknownPathspecs,
    untracked: false,
    ignored: false,
    onlyIgnored: false,
    directories: false,
  };
  switch (sub) {
    case "clean": {
      if (has("-n", "--dry-run")) return undefined;
      const onlyIgnored = has("-X");
      return {
        ...base,
        sub,
        reverts: false,
        source: undefined,
        untracked: !onlyIgnored,
        ignored: onlyIgnored || has("-x"),
        onlyIgnored,
        directories: has("-d"),
        pathspecs: [...operands, ...after],
      };
    }
    case "stash": {
      // push, save and a bare `git stash` stash and revert; list, show, pop, apply, drop … do not remove anything.
      const action = operands[0]?.text;
      if (action !== undefined && action !== "push" && action !== "save") return undefined;
      const all = has("-a", "--all");
      const pathspecs = action === "push" ? [...operands.slice(1), ...after] : after;
      return { ...base, sub, reverts: true, source: "HEAD", untracked: all || has("-u", "--include-untracked"), ignored: all, pathspecs };
    }
    case "checkout": {
      if (values.has("-b") || values.has("-B") || values.has("--orphan")) return undefined;
      const force = has("-f", "--force");
      // Paths mode: after "--", or the operands after a tree; a lone operand may be a path (`git checkout .`) or a branch.
      if (dashdash) return { ...base, sub, reverts: true, source: operands[0]?.text, pathspecs: after };
      if (operands.length > 1) return { ...base, sub, reverts: true, source: operands[0]?.text, pathspecs: operands.slice(1) };
      if (force) return { ...base, sub, reverts: true, source: "HEAD", pathspecs: [] };
      // A lone word that cannot be a path of Hookbox's (no ".", "/" or glob: `git checkout main`) is taken for a branch.
      if (operands.length === 1 && /[./*?[]/.test((operands[0] as ShWord).text))
        return { ...base, sub, reverts: true, source: undefined, pathspecs: operands };
      return undefined;
    }
    case "restore": {
      const worktree = has("-W", "--worktree") || !has("-S", "--staged");
      if (!worktree) return undefined;
      return {
        ...base,
        sub,
        reverts: true,
        source: values.get("-s") ?? values.get("--source") ?? (has("-S", "--staged") ? "HEAD" : undefined),
        pathspecs: [...operands, ...after],
      };
    }
    case "reset":
      return has("--hard") ? { ...base, sub, reverts: true, source: operands[0]?.text ?? "HEAD", pathspecs: [] } : undefined;
    case "switch":
      return has("--discard-changes", "-f", "--force") ? { ...base, sub, reverts: true, source: "HEAD", pathspecs: [] } : undefined;
  }
  return undefined;
}
