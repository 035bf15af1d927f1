// self-protect: refuse the agent's tool calls that would change Hookbox's own state — the
// operator file, hook directories, the audit log and data directory, the daemon's socket and
// process, the binary, each agent's hook settings, git hooks and git config — so that a guard
// cannot be switched off by the agent it guards. Reads stay allowed. It reads only the event:
// where that state lives on this machine comes in `config.locations`, set by Hookbox when it
// loads the standard hook (never by a hook file); what is protected is `config.protect`.
import {
  SH_MAX_COMMANDS,
  type ShCommand,
  type ShGitWorktree,
  type ShPattern,
  type ShTarget,
  type ShWord,
  shAnalyze,
  shBraceAlternatives,
  shCommandText,
  shGitWorktree,
  shMayMatchGlob,
  shNormalize,
  shNormalizeRelative,
  shOperands,
  shPatternLiteral,
  shPatternText,
  shResolve,
  shWrites,
} from "hookbox:shell";
import { eventPaths, globSource, patchPaths } from "hookbox:paths";

/** One protected place: a glob (absolute with the machine's locations filled in, or `**\/…` anywhere). */
interface Place {
  glob: string;
  what: string;
  /** Where a home-relative shell word (~/…) would name it; undefined when it is not under home. */
  tilde: string | undefined;
  /** Match the place, and for a `…/**` glob the directory itself. */
  res: RegExp[];
  /** Directories that hold it (`/home/dev/.config` for `/home/dev/.config/hookbox/**`, `**\/.git` for `**\/.git/hooks/**`). */
  holders: string[];
  anywhere: boolean;
}

interface Config {
  places: Place[];
  exceptions: RegExp[];
  operatorFile: string;
  home: string | undefined;
  /** Directories whose paths in a command mean "talking to the daemon" (its socket's). */
  socketDirs: string[];
  daemonPids: number[];
  binaries: string[];
  maxCommandChars: number;
  /** The event's project directory (its cwd): it holds the project's own .hookbox/ and agent settings. */
  workspace: string | undefined;
  /** What the project directory (and each directory above it) holds, for a message; undefined when no place is relative. */
  projectState: string | undefined;
  /** Why the hook cannot judge at all (no locations): every call it sees is refused. */
  broken: string | undefined;
  problems: string[];
}

/** Which directories holding a place count: all (rm, chmod), all but home and / (mv, ln), none (writes of content). */
type Holders = "all" | "below-home" | "none";

interface Finding {
  /** The path or command as the agent wrote it. */
  shown: string;
  /** What it is or does, from "is": "is Hookbox's own state (the audit log)". */
  what: string;
  /** What the agent may not do: "change it" unless said. */
  may?: string;
  /** The call that would do it: "`chmod 000 …` (chmod)", "Write call". */
  how?: string;
}

/** Names that are Hookbox's wherever they are, for paths whose directory the command does not give (`cd "$D" && > hookbox.yaml`). */
const UNROOTED: readonly [string, string][] = [
  ["**/hookbox.yaml", "Hookbox's operator file, by its name (the directory it is in is not known here)"],
  ["**/hookbox-audit.jsonl*", "Hookbox's audit log, by its name (the directory it is in is not known here)"],
  ["**/hookbox.sock", "Hookbox's daemon socket, by its name (the directory it is in is not known here)"],
];

/** Tools that write a file's content at its path: a directory above it is not theirs to change. */
const CONTENT_TOOLS = /^(Write|Edit|MultiEdit|NotebookEdit)$/;
/** What removes, moves, links or changes the mode of a directory as a whole: the directories holding a protected place count too. */
const REMOVES = /(^|\s)(rm|unlink|shred|srm|rmdir|chmod|chown|chgrp|chattr|chflags|setfacl|setfattr|xattr|rename)\b|-delete|git rm\b/;
/** Moves and links: also the directories holding a place, except home and / (moving a file into ~ is ordinary). */
const MOVES = /(^|\s)(mv|ln)\b|git mv\b/;

export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const cwd = typeof event.cwd === "string" && event.cwd.startsWith("/") ? shNormalize(event.cwd) : undefined;
  // The paths that lead to the Hookbox binary the agents' entries run, as the host found them for
  // this event (installed entries, symbolic links along them, the path emit was invoked as).
  const binaries = Array.isArray(event.hookbox_binaries)
    ? (event.hookbox_binaries as unknown[]).filter((b): b is string => typeof b === "string" && b.startsWith("/") && b.length <= 4096).slice(0, 64)
    : [];
  const cfg: Config = { ...readConfig(hook.config, binaries), workspace: cwd };
  for (const problem of cfg.problems) hook.log("warn", problem);
  const tool = typeof event.tool_name === "string" ? event.tool_name : "";
  if (cfg.broken)
    return {
      action: "deny",
      reason: `self-protect cannot judge this ${tool || "tool"} call: ${cfg.broken}`,
      user_message: "self-protect is misconfigured: see the reason",
      user_message_level: "error",
    };
  const input: Record<string, unknown> = isRecord(event.tool_input) ? event.tool_input : {};
  const finding = tool === "Bash" ? await bashFinding(shCommandText(input.command), event, cfg, hook) : toolFinding(event, tool, cwd, cfg);
  if (!finding) return { action: "continue" };
  hook.log("info", `${finding.shown} ${finding.what}`);
  return deny(finding, cfg);
}

function deny(f: Finding, cfg: Config): HookResult {
  return {
    action: "deny",
    reason:
      `self-protect: ${f.shown} ${f.what}; the agent may not ${f.may ?? "change it"}${f.how ? ` (${f.how})` : ""}. ` +
      `If this change is intended, ask the user to make it themselves, or to turn self-protection off in ${cfg.operatorFile} ` +
      `(hooks: { self-protect: { enabled: false } }).`,
    user_message: `self-protect blocked a change to Hookbox's own state: ${clip(f.shown, 120)}`,
    user_message_level: "warning",
  };
}

// ---- tool calls (Write, Edit, MCP tools, Codex apply_patch) ----

function toolFinding(event: HookEvent, tool: string, cwd: string | undefined, cfg: Config): Finding | undefined {
  const linkedFrom = new Map<string, string>();
  if (isRecord(event.link_targets))
    for (const [named, real] of Object.entries(event.link_targets)) if (typeof real === "string") linkedFrom.set(real, named);
  const holders = CONTENT_TOOLS.test(tool) ? "none" : "below-home";
  for (const path of eventPaths(event)) {
    const place = pathPlace(path, cwd, cfg, holders);
    if (!place) continue;
    const link = linkedFrom.get(path);
    const shown = link !== undefined ? `${link} (a symbolic link to ${path})` : path;
    return { shown, what: is(place), how: `${tool || "a tool"} call` };
  }
  return undefined;
}

/** A literal path: absolute (or ~/…) against every place, relative with no known directory against the anywhere ones. */
function pathPlace(raw: string, cwd: string | undefined, cfg: Config, holders: Holders): { what: string; holds: boolean } | undefined {
  if (raw.length > 4096 || raw.includes("\0")) return undefined;
  const path = raw.replace(/\\/g, "/").trim();
  const tilde = cfg.home !== undefined && (path === "~" || path.startsWith("~/")) ? cfg.home + path.slice(1) : path;
  const resolved = shResolve(cwd, tilde);
  if (resolved === undefined || resolved.startsWith("~")) return unrootedPlace(shNormalizeRelative(tilde), cfg);
  if (excepted(resolved, cfg)) return undefined;
  for (const place of cfg.places) if (place.res.some((re) => re.test(resolved))) return { what: place.what, holds: false };
  for (const place of cfg.places) if (heldBy(place, holders, cfg).some((h) => globRe(h).test(resolved))) return { what: place.what, holds: true };
  return projectHolder(resolved, cfg, holders);
}

/**
 * The project directory, and each one above it, holds the project's own places (its .hookbox/,
 * .claude/settings.json …: the `**\/…` entries, found there): removing, moving or extracting an
 * archive over it as a whole changes them. A directory below the project is judged by its name only.
 */
function projectHolder(resolved: string, cfg: Config, holders: Holders): { what: string; holds: boolean } | undefined {
  const ws = cfg.workspace;
  if (holders === "none" || ws === undefined || cfg.projectState === undefined) return undefined;
  if (resolved !== ws && !ws.startsWith(resolved === "/" ? "/" : `${resolved}/`)) return undefined;
  if (holders === "below-home" && (resolved === "/" || (cfg.home !== undefined && (resolved === cfg.home || cfg.home.startsWith(`${resolved}/`)))))
    return undefined;
  return { what: cfg.projectState, holds: true };
}

function unrootedPlace(relative: string, cfg: Config): { what: string; holds: boolean } | undefined {
  if (relative === "" || excepted(relative, cfg)) return undefined;
  for (const place of cfg.places) if (place.anywhere && place.res.some((re) => re.test(relative))) return { what: place.what, holds: false };
  for (const [glob, what] of UNROOTED) if (globRe(glob).test(relative)) return { what, holds: false };
  return undefined;
}

// ---- Bash ----

async function bashFinding(command: string, event: HookEvent, cfg: Config, hook: Hook): Promise<Finding | undefined> {
  const cwd = cfg.workspace;
  if (command.trim() === "") return undefined;
  if (command.length > cfg.maxCommandChars) {
    return {
      shown: `A ${command.length}-character command`,
      what: `is too long to check for changes to Hookbox's own state (max_command_chars: ${cfg.maxCommandChars})`,
      may: "run it unchecked: split it into shorter commands",
    };
  }
  // The reader stops at SH_MAX_COMMANDS simple commands: what lies beyond would go unread.
  const commands = shAnalyze(command, cwd).flatMap((p) => p.commands);
  if (commands.length >= SH_MAX_COMMANDS) {
    return {
      shown: `A command of more than ${SH_MAX_COMMANDS} simple commands`,
      what: "is too complex to check for changes to Hookbox's own state",
      may: "run it unchecked: split it, or put it in a script file",
    };
  }
  for (const path of patchPaths(command)) {
    const place = pathPlace(path, cwd, cfg, "none");
    if (place) return { shown: path, what: is(place), how: "a patch in the command names it" };
  }
  // A redirection or a write into a symbolic link writes where the link leads: the host resolved them (link_targets).
  if (isRecord(event.link_targets)) {
    for (const [named, real] of Object.entries(event.link_targets)) {
      const place = typeof real === "string" ? pathPlace(real, cwd, cfg, "none") : undefined;
      if (place) return { shown: `${named} (a symbolic link to ${real})`, what: is(place), how: `\`${clip(command, 160)}\` writes through it` };
    }
  }
  const seen = new Set<string>();
  for (const target of shWrites(command, cwd, { attributes: true })) {
    const key = `${target.by}\0${target.patterns.map(shPatternText).join("|")}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // What git checkout/restore/stash revert depends on the repository: gitWorktreeFinding asks git.
    if (/^git (checkout|restore|stash)$/.test(target.by)) continue;
    const finding = targetFinding(target, cfg);
    if (finding) return finding;
  }
  const namesHookbox = mentionsHookbox(commands, cfg);
  for (const cmd of commands) {
    const finding = processFinding(cmd, namesHookbox, cfg) ?? cliFinding(cmd, namesHookbox, cfg) ?? socketFinding(cmd, cfg) ?? gitFinding(cmd, cfg);
    if (finding) return finding;
  }
  for (const cmd of commands) {
    const op = shGitWorktree(cmd);
    const finding = op ? await gitWorktreeFinding(op, cmd, cfg, hook) : undefined;
    if (finding) return finding;
  }
  return undefined;
}

/** A file a command writes (or moves, removes, chmods …): protected when one of its possible paths may be. */
function targetFinding(t: ShTarget, cfg: Config): Finding | undefined {
  // Code that only mentions a path reads it; a link to it is a second name to write it through.
  if (t.named === "mentions" && !t.by.startsWith("ln")) return undefined;
  // An archive extracted, or a tree copied, into a directory replaces whatever it holds: judged as removing it.
  const holders = t.contents || REMOVES.test(t.by) ? "all" : MOVES.test(t.by) && !t.raw.endsWith("/") ? "below-home" : "none";
  const how = `\`${clip(t.command, 160)}\` (${t.by}${t.contents ? ", which writes whatever the archive or source holds below it" : ""})`;
  // `rm -rf *` is judged by its directory, but a bare * does not reach the project's hidden .hookbox/ and .claude/.
  const here = /(^|\/)\*$/.test(t.raw) ? { ...cfg, projectState: undefined } : cfg;
  for (const pattern of t.patterns) {
    const hit = patternPlace(pattern, here, holders);
    if (hit) return { shown: t.path ?? t.raw, what: is(hit), how };
  }
  // find descends into hidden directories: its name tests also select a protected file there (`find . -name '*.json' -delete`).
  for (const pattern of t.hidden ?? []) {
    const head = pattern[0];
    for (const place of cfg.places) {
      if (place.glob.endsWith("/**")) continue;
      const glob = head?.k === "c" && head.c === "~" ? (place.tilde ?? (place.anywhere ? place.glob : undefined)) : place.glob;
      if (glob !== undefined && shMayMatchGlob(pattern, glob))
        return { shown: t.raw, what: `may select ${place.what} (find descends into hidden directories)`, may: "run it", how };
    }
  }
  return undefined;
}

function patternPlace(pattern: ShPattern, cfg: Config, holders: Holders): { what: string; holds: boolean } | undefined {
  const head = pattern[0];
  const rooted = head?.k === "c" && (head.c === "/" || head.c === "~");
  if (!rooted) {
    // Led by a value the line does not give ("$D/…") or relative to a directory it does not: only what is written after it counts.
    const lastDeep = pattern.map((t) => t.k).lastIndexOf("deep");
    const tail = lastDeep < 0 ? pattern : pattern.slice(lastDeep + 1);
    const rest = tail[0]?.k === "c" && tail[0].c === "/" ? tail.slice(1) : tail;
    if (rest.length === 0) return undefined;
    const literal = shPatternLiteral(rest);
    if (literal !== undefined) return unrootedPlace(shNormalizeRelative(literal), cfg);
    for (const place of cfg.places) if (place.anywhere && mayMatch(rest, place.glob)) return { what: place.what, holds: false };
    for (const [glob, what] of UNROOTED) if (shMayMatchGlob(rest, glob)) return { what, holds: false };
    return undefined;
  }
  const literal = shPatternLiteral(pattern);
  if (literal !== undefined) return pathPlace(literal, undefined, cfg, holders);
  for (const place of cfg.places) {
    const glob = head.c === "~" ? (place.tilde ?? (place.anywhere ? place.glob : undefined)) : place.glob;
    if (glob !== undefined && mayMatch(pattern, glob)) return { what: place.what, holds: false };
  }
  if (holders === "none") return undefined;
  for (const place of cfg.places) {
    for (const holder of heldBy(place, holders, cfg)) {
      const glob = head.c === "~" ? (tildeOf(holder, cfg.home) ?? (place.anywhere ? holder : undefined)) : holder;
      if (glob !== undefined && shMayMatchGlob(pattern, glob)) return { what: place.what, holds: true };
    }
  }
  return undefined;
}

function is(hit: { what: string; holds: boolean }): string {
  return hit.holds ? `is a directory that holds ${hit.what}` : `is ${hit.what}`;
}

/** The holders of a place that count for this kind of change. */
function heldBy(place: Place, holders: Holders, cfg: Config): string[] {
  if (holders === "none") return [];
  if (holders === "all") return place.holders;
  const home = cfg.home !== undefined ? globEscape(cfg.home) : undefined;
  return place.holders.filter((h) => h !== "/" && h !== home && (home === undefined || !home.startsWith(`${h}/`)));
}

function mayMatch(pattern: ShPattern, glob: string): boolean {
  return shMayMatchGlob(pattern, glob) || (glob.endsWith("/**") && shMayMatchGlob(pattern, glob.slice(0, -3)));
}

/** Does the command line name Hookbox: its name, a process pattern that matches it, one of its places? */
function mentionsHookbox(commands: readonly ShCommand[], cfg: Config): boolean {
  const places = [...cfg.socketDirs, ...cfg.binaries];
  for (const cmd of commands) {
    for (const w of [...cmd.words, ...cmd.redirs.flatMap((r) => (r.target ? [r.target] : []))]) {
      if (/hookbox/i.test(w.text) || places.some((p) => w.text.includes(p))) return true;
    }
    if ((cmd.name === "pgrep" || cmd.name === "pkill") && selectsDaemon(cmd, cfg)) return true;
    if ((cmd.name === "pidof" || cmd.name === "killall") && shOperands(cmd).operands.some((w) => processNames(cfg).includes(w.text.toLowerCase())))
      return true;
  }
  return false;
}

/** kill, pkill, killall, fuser -k, service managers: aimed at the daemon by pid, name, pattern or a value the line says is Hookbox's. */
function processFinding(cmd: ShCommand, namesHookbox: boolean, cfg: Config): Finding | undefined {
  const daemon = (why: string): Finding => ({
    shown: `\`${clip(cmd.raw, 200)}\``,
    what: `is aimed at the Hookbox daemon (${why}), which answers every agent's hooks`,
    may: "stop it",
  });
  const name = cmd.name;
  if (name === "kill") {
    for (const pid of killPids(cmd)) {
      if (pid.text === "-1") return daemon("kill -1 signals every process the user owns");
      const number = Number(pid.text.replace(/^-/, ""));
      if (!pid.dynamic && cfg.daemonPids.includes(number)) return daemon(`pid ${number} is the daemon's`);
      if ((pid.dynamic || cmd.viaXargs) && namesHookbox) return daemon("the pid comes from a command that names Hookbox");
    }
    if (cmd.viaXargs && namesHookbox) return daemon("the pids come from a command that names Hookbox");
  }
  if (name === "pkill" || name === "skill") {
    if (selectsDaemon(cmd, cfg)) return daemon("its pattern matches the daemon's name or command line");
    if (cmd.viaXargs && namesHookbox) return daemon("its pattern comes from a command that names Hookbox");
  }
  if (name === "killall" || name === "killall5") {
    const { operands, options } = shOperands(cmd);
    if (name === "killall5" || (operands.length === 0 && options.some((o) => /^(-u|--user)/.test(o))))
      return daemon("it signals every process of a user");
    const regex = options.some((o) => o === "-r" || o === "--regexp");
    const caseless = options.some((o) => o === "-I" || o === "--ignore-case");
    for (const w of operands)
      if (regex ? regexMatches(w.text, processNames(cfg), caseless) : processNames(cfg).includes(caseless ? w.text.toLowerCase() : w.text))
        return daemon(`${w.text} is the daemon's name`);
    if ((cmd.viaXargs || operands.some((w) => w.dynamic)) && namesHookbox) return daemon("the names come from a command that names Hookbox");
  }
  if (name === "fuser") {
    const { operands, options } = shOperands(cmd);
    if (options.some((o) => /^-[a-zA-Z]*k/.test(o) || o === "--kill")) {
      for (const w of operands)
        if (pathPlace(w.text, cmd.cwd, cfg, "none") || /hookbox/i.test(w.text)) return daemon(`fuser -k kills whatever holds ${w.text}`);
    }
  }
  if (/^(systemctl|launchctl|service|sv|rc-service|supervisorctl|initctl)$/.test(name)) {
    const words = cmd.argv.slice(1).map((w) => w.text.toLowerCase());
    if (
      words.some((w) => /^(stop|kill|disable|mask|restart|try-restart|unload|bootout|remove|down|freeze)$/.test(w)) &&
      words.some((w) => w.includes("hookbox"))
    )
      return daemon(`${name} would stop or replace it`);
  }
  return undefined;
}

/** kill's pid operands: the first option is its signal (-9, -KILL, -s KILL); after it, "-N" is a process group. */
function killPids(cmd: ShCommand): ShWord[] {
  const argv = cmd.argv.slice(1);
  const pids: ShWord[] = [];
  let signal = false;
  for (let j = 0; j < argv.length; j++) {
    const w = argv[j] as ShWord;
    if (w.text === "--") {
      pids.push(...argv.slice(j + 1));
      break;
    }
    if (!signal && w.text.startsWith("-") && w.text.length > 1) {
      signal = true;
      if (/^(-s|-n|--signal)$/.test(w.text)) j++;
      if (/^-[lL]$/.test(w.text)) return [];
      continue;
    }
    // %1 is a job, $! the last one this line started in the background: neither is the daemon.
    if (!w.text.startsWith("%") && w.text !== "$!") pids.push(w);
  }
  return pids;
}

const PGREP_VALUED = new Set([
  "-u",
  "-U",
  "-g",
  "-G",
  "-P",
  "-s",
  "-t",
  "-F",
  "-c",
  "--signal",
  "--euid",
  "--uid",
  "--pgroup",
  "--group",
  "--parent",
  "--session",
  "--terminal",
  "--pidfile",
  "--ns",
  "--nslist",
  "--cgroup",
]);
const PGREP_SELECTORS = /^(-u|-U|-g|-G|-P|-s|-t|--euid|--uid|--pgroup|--group|--parent|--session|--terminal)$/;

/** Does a pgrep/pkill selection include the daemon: a pattern matching its name or command line, or everything of a user? */
function selectsDaemon(cmd: ShCommand, cfg: Config): boolean {
  const argv = cmd.argv.slice(1);
  let full = false;
  let exact = false;
  let caseless = false;
  let selectors = false;
  const patterns: ShWord[] = [];
  for (let j = 0; j < argv.length; j++) {
    const t = (argv[j] as ShWord).text;
    if (t === "--") {
      patterns.push(...argv.slice(j + 1));
      break;
    }
    if (PGREP_VALUED.has(t)) {
      if (PGREP_SELECTORS.test(t)) selectors = true;
      if (t === "-F" || t === "--pidfile") {
        const file = argv[j + 1]?.text ?? "";
        if (/hookbox/i.test(file) || pathPlace(file, cmd.cwd, cfg, "none")) return true;
      }
      j++;
    } else if (/^--(full|exact|ignore-case)$/.test(t)) {
      full ||= t === "--full";
      exact ||= t === "--exact";
      caseless ||= t === "--ignore-case";
    } else if (/^-[a-z]+$/.test(t)) {
      full ||= t.includes("f");
      exact ||= t.includes("x");
      caseless ||= t.includes("i");
    } else if (!t.startsWith("-")) patterns.push(argv[j] as ShWord);
  }
  if (patterns.length === 0) return selectors;
  const subjects = full ? commandLines(cfg) : processNames(cfg);
  return patterns.some((p) => !p.dynamic && regexMatches(exact ? `^(?:${p.text})$` : p.text, subjects, caseless));
}

function processNames(cfg: Config): string[] {
  return [...new Set(["hookbox", ...cfg.binaries.map((b) => b.slice(b.lastIndexOf("/") + 1).slice(0, 15))])];
}

function commandLines(cfg: Config): string[] {
  return ["hookbox serve", ...cfg.binaries.map((b) => `${b} serve`)];
}

/** A process pattern (POSIX ERE) against the daemon's names: the common classes translated; one that does not compile matches nothing (pkill refuses it too). */
function regexMatches(pattern: string, subjects: readonly string[], caseless: boolean): boolean {
  const classes: Record<string, string> = {
    alpha: "a-zA-Z",
    alnum: "a-zA-Z0-9",
    digit: "0-9",
    lower: "a-z",
    upper: "A-Z",
    space: "\\s",
    punct: "!-/:-@[-`{-~",
    word: "\\w",
    xdigit: "0-9a-fA-F",
  };
  const source = pattern.replace(/\[:([a-z]+):\]/g, (m, name: string) => classes[name] ?? m);
  try {
    const re = new RegExp(source, caseless ? "i" : "");
    return subjects.some((s) => re.test(s));
  } catch {
    return false;
  }
}

/**
 * Subcommands the agent may not run: each gives it a power only the operator has (a daemon, a
 * console or listener of its own, answering approvals, firing hooks, installing, trusting,
 * consenting to grants) or rewrites Hookbox's own state. README.md has the table of every
 * subcommand and the decision.
 */
const STATE_COMMAND_WHAT: Readonly<Record<string, string>> = {
  serve:
    "starts a Hookbox daemon of the agent's own: it answers for Hookbox on a socket the agent chose, and its --console or --listen hands the agent the operator's powers (a sign-in link to where approvals are answered and hooks fired, a listener with the bearer token)",
  console: "opens the web console, where approvals are answered and hooks fired: only the user may",
  approve: "answers an approval that only the user may answer",
  deny: "answers an approval that only the user may answer",
  fire: "runs a hook by hand, outside its schedule and cooldown: only the user may",
  "install-agent": "rewrites the agents' hook settings (the entries that run Hookbox)",
  "uninstall-agent": "rewrites the agents' hook settings (the entries that run Hookbox)",
  "self-install": "replaces the Hookbox installation",
  "self-uninstall": "removes the Hookbox installation and every agent's entries that run it",
  add: "installs a hook and accepts the grants it asks for: only the user may consent",
  update: "updates installed hooks and may accept wider grants: only the user may consent",
  remove: "removes an installed hook",
  trust: "gives a project's hooks the grants they declare: only the user may trust them",
  promote: "turns on a hook that runs in shadow mode (mode: monitor in the operator file): only the user may decide what blocks the agent",
  import: "turns hooks into Hookbox hooks and rewrites the agents' hook settings",
};

/** Package runners that fetch and run a package's binary: `npx hookbox …`, `pnpm dlx hookbox …`. */
const RUNNERS: Readonly<Record<string, string[]>> = { npx: [], pnpx: [], bunx: [], npm: ["exec", "x"], pnpm: ["dlx", "exec"], yarn: ["dlx", "exec"] };

/**
 * The hookbox CLI's argv in a command, however it is reached: `hookbox`, a path to it
 * (./dist/hookbox, ~/.local/bin/hookbox, the installed binary under any name), through env,
 * sudo or nohup (the reader unwraps those), npx/pnpm dlx/bunx, or a program the line computes
 * from something that names Hookbox (`$(which hookbox)`, `"$HB"` after HB=…hookbox).
 */
function hookboxArgv(cmd: ShCommand, namesHookbox: boolean, cfg: Config): { argv: ShWord[]; computed: boolean } | undefined {
  const isHookbox = (w: ShWord | undefined): boolean => {
    if (w === undefined) return false;
    const base = w.text.slice(w.text.lastIndexOf("/") + 1).toLowerCase();
    return (
      /^hookbox(\.exe)?$/.test(base) ||
      /^hookbox@/.test(base) ||
      cfg.binaries.includes(w.text) ||
      cfg.binaries.some((b) => b.slice(b.lastIndexOf("/") + 1).toLowerCase() === base && !w.dynamic && base !== "")
    );
  };
  const program = cmd.argv[0];
  if (program === undefined) return undefined;
  if (!program.dynamic && isHookbox(program)) return { argv: cmd.argv, computed: false };
  // A program the command line computes: judged as Hookbox when that computation, or the line, names it.
  if (program.dynamic && (namesHookbox || program.subs.some((sub) => /hookbox/i.test(sub)))) return { argv: cmd.argv, computed: true };
  const verbs = RUNNERS[cmd.name];
  if (verbs === undefined) return undefined;
  let j = 1;
  if (verbs.length > 0) {
    if (!verbs.includes(cmd.argv[1]?.text ?? "")) return undefined;
    j = 2;
  }
  for (; j < cmd.argv.length; j++) {
    const t = (cmd.argv[j] as ShWord).text;
    if (t === "--") continue;
    if (t === "-p" || t === "--package" || t === "-c" || t === "--call") {
      j++;
      continue;
    }
    if (t.startsWith("-")) continue;
    return isHookbox(cmd.argv[j]) || /(^|\/)hookbox(@[^/]*)?$/i.test(t)
      ? { argv: cmd.argv.slice(j).filter((w, k) => k === 0 || w.text !== "--"), computed: false }
      : undefined;
  }
  return undefined;
}

/** The hookbox CLI giving the agent the operator's powers or changing Hookbox's state; `hookbox new`/`pack` into a protected directory. */
function cliFinding(cmd: ShCommand, namesHookbox: boolean, cfg: Config): Finding | undefined {
  const found = hookboxArgv(cmd, namesHookbox, cfg);
  if (!found) return undefined;
  const sub = shOperands({ ...cmd, argv: found.argv }).operands[0]?.text;
  const shown = `\`${clip(cmd.raw, 200)}\``;
  const computed = found.computed ? " (its program is computed from something that names Hookbox, so it is taken for Hookbox)" : "";
  if (sub !== undefined && Object.hasOwn(STATE_COMMAND_WHAT, sub)) {
    const what = `${STATE_COMMAND_WHAT[sub] as string}${computed}`;
    return { shown, what, may: sub === "approve" || sub === "deny" ? "answer it" : "run it" };
  }
  if (sub === "daemon") {
    // `daemon status` only looks; stop, restart and anything else act on the daemon.
    const action = shOperands({ ...cmd, argv: found.argv }).operands[1]?.text;
    if (action !== undefined && action !== "status")
      return { shown, what: `is aimed at the Hookbox daemon${computed}`, may: action === "stop" || action === "restart" ? "stop it" : "run it" };
  }
  if (sub === "new" || sub === "pack") {
    const words = found.argv.map((w) => w.text);
    const flag = sub === "new" ? "--dir" : "--out";
    const at = words.findIndex((t) => t === flag || t.startsWith(`${flag}=`));
    const dir =
      at < 0
        ? sub === "new"
          ? ".hookbox/hooks"
          : "."
        : (words[at] as string).startsWith(`${flag}=`)
          ? (words[at] as string).slice(flag.length + 1)
          : (words[at + 1] ?? "");
    const place = pathPlace(`${dir}/x`, cmd.cwd, cfg, "none");
    if (place)
      return {
        shown,
        what: `writes ${sub === "new" ? "a hook" : "a bundle"} into ${dir}, which is ${place.what}`,
        may: `run it: write the ${sub === "new" ? "hook" : "bundle"} elsewhere and let the user move it`,
      };
  }
  return undefined;
}

const TALKERS = /^(curl|wget|socat|nc|ncat|netcat|http|https|xh|websocat|grpcurl|python[0-9.]*|node|nodejs|deno|bun|perl|ruby|php)$/;

/** A client talking to the daemon's socket or approvals API directly, around the CLI. */
function socketFinding(cmd: ShCommand, cfg: Config): Finding | undefined {
  if (!TALKERS.test(cmd.name)) return undefined;
  for (const w of cmd.argv.slice(1)) {
    const text = cfg.home !== undefined ? w.text.replace(/(^|[=\s'"])~\//g, `$1${cfg.home}/`) : w.text;
    if (cfg.socketDirs.some((dir) => text.includes(`${dir}/`) || text.endsWith(dir)) || text.includes("/v1/approvals")) {
      return {
        shown: `\`${clip(cmd.raw, 200)}\``,
        what: "talks to the Hookbox daemon's own interface (its socket, or its approvals API)",
        may: "make that request",
      };
    }
  }
  return undefined;
}

const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);
/** git config keys that make git run a program or look elsewhere for hooks: the same as writing .git/hooks. */
const GIT_RUNS_CODE =
  /^(core\.(hookspath|fsmonitor|sshcommand|editor|pager|askpass|gitproxy)|include\.path|includeif\..+\.path|alias\..+|filter\..+|diff\..+\.(textconv|command)|merge\..+\.driver|credential\.(.+\.)?helper|gpg\.(.+\.)?program|sequence\.editor|uploadpack\.packobjectshook|protocol\.(.+\.)?allow|pager\..+|(diff|merge)tool\..+\.(cmd|path)|browser\..+\.(cmd|path)|web\.browser|remote\..+\.(uploadpack|receivepack|vcs)|sendemail\.(smtpserver|tocmd|cccmd)|ssh\.variant)$/;
const GIT_CODE_SECTIONS =
  /^(core|include|includeif\..+|alias|filter\..+|diff\..+|merge\..+|credential(\..+)?|gpg(\..+)?|sequence|uploadpack|protocol(\..+)?|pager|(diff|merge)tool\..+|browser\..+|web|remote\..+|sendemail|ssh)$/;
const GIT_CONFIG_VALUED = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"]);
const GIT_CONFIG_WRITES = /^(--add|--replace-all|--unset|--unset-all|--rename-section|--remove-section|-e|--edit|--append)$/;
const GIT_CONFIG_READS = /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|-l|--list)$/;

/**
 * git itself writing git's hooks or the keys that run programs: `git config core.hooksPath …`,
 * `git config --edit`, `git init --template=…`. Other config (user.name, remotes, branches) and
 * everything git writes under .git on its own are the agent's ordinary work.
 */
function gitFinding(cmd: ShCommand, cfg: Config): Finding | undefined {
  if (cmd.name !== "git") return undefined;
  const argv = cmd.argv.map((w) => w.text);
  let i = 1;
  while (i < argv.length && (argv[i] as string).startsWith("-")) i += GIT_VALUED.has(argv[i] as string) ? 2 : 1;
  const sub = argv[i];
  const rest = argv.slice(i + 1);
  const shown = `\`${clip(cmd.raw, 200)}\``;
  if ((sub === "init" || sub === "clone") && rest.some((t) => t === "--template" || t.startsWith("--template="))) {
    return { shown, what: "copies a template's hooks into .git/hooks, and git runs them outside any agent's hooks", may: "run it" };
  }
  if (sub !== "config") return undefined;
  const operands: string[] = [];
  let write = false;
  let read = false;
  let file: string | undefined;
  for (let j = 0; j < rest.length; j++) {
    const t = rest[j] as string;
    if (GIT_CONFIG_VALUED.has(t)) {
      if (t === "-f" || t === "--file") file = rest[j + 1];
      j++;
    } else if (t.startsWith("--file=")) file = t.slice(7);
    else if (GIT_CONFIG_WRITES.test(t)) write = true;
    else if (GIT_CONFIG_READS.test(t)) read = true;
    else if (!t.startsWith("-")) operands.push(t);
  }
  // git 2.46's verbs: git config set|unset|rename-section|remove-section|edit|get|list …
  const verb = operands[0];
  if (verb === "set" || verb === "unset" || verb === "rename-section" || verb === "remove-section" || verb === "edit") {
    write = true;
    operands.shift();
  } else if (verb === "get" || verb === "list") return undefined;
  if (!write && (read || operands.length < 2)) return undefined;
  if (file !== undefined && !/(^|\/)(\.git\/config|\.gitconfig|git\/config)$/.test(file)) {
    const place = pathPlace(file, cmd.cwd, cfg, "none");
    if (place) return { shown: file, what: is(place), how: shown };
  }
  if (rest.includes("-e") || rest.includes("--edit") || verb === "edit")
    return { shown, what: "lets an editor rewrite git's configuration, core.hooksPath included", may: "run it" };
  const key = operands[0] ?? "";
  const section = rest.includes("--rename-section") || rest.includes("--remove-section") || verb === "rename-section" || verb === "remove-section";
  // An alias runs a program only when its value starts with "!" (or is not known here).
  const value = operands[1];
  if (!section && /^alias\./i.test(key) && value !== undefined && !/^\s*!|[$`]/.test(value)) return undefined;
  if (section ? GIT_CODE_SECTIONS.test(key.toLowerCase()) : GIT_RUNS_CODE.test(key.toLowerCase())) {
    return {
      shown: key,
      what: `is ${section ? "a section of " : ""}a git setting that runs programs or moves git's hooks (core.hooksPath, aliases, filters, editors …), which git runs outside any agent's hooks`,
      may: "set or remove it",
      how: shown,
    };
  }
  return undefined;
}

// ---- git commands that delete or revert files they do not name ----

/** How long one git question may take (ms): the hook's own wall clock is 5 s. */
const GIT_TIMEOUT_MS = 2500;
/** A revision git may be asked about: never an option, never shell syntax. */
const REVISION = /^[A-Za-z0-9_./~^@{}:+][A-Za-z0-9_./~^@{}:+-]{0,255}$/;

/**
 * git clean, git stash (-u/-a), git checkout/restore of pathspecs, git checkout -f, git switch
 * --discard-changes and git reset --hard touch what the repository holds: untracked, ignored or
 * modified files. self-protect asks git itself which of Hookbox's files they would touch (the
 * run grants in hook.yaml, nothing else), and refuses only when one would be; when git cannot be
 * asked, it refuses the command (fail closed) and says why.
 */
async function gitWorktreeFinding(op: ShGitWorktree, cmd: ShCommand, cfg: Config, hook: Hook): Promise<Finding | undefined> {
  const shown = `\`${clip(cmd.raw, 200)}\``;
  const cannot = (why: string): Finding => ({
    shown,
    what: `may delete or revert Hookbox's own files (its .hookbox/, the agents' hook settings …), and git could not be asked which ones it would touch (${why})`,
    may: "run it unchecked: run it where git can be asked, or name the paths it should touch",
  });
  if (op.cwd === undefined) return cannot("the directory git runs in is not known from the command");
  if (op.unknownPathspecs) return cannot("its pathspecs come from a file");
  if (op.pathspecs.some((w) => w.dynamic)) return cannot("its pathspecs hold values the command does not give");
  if (op.source !== undefined && !REVISION.test(op.source)) return cannot(`${op.source} is not a revision self-protect can ask about`);
  const git = async (args: string[]): Promise<{ ok: true; out: string } | { ok: false; why: string; stderr: string }> => {
    try {
      const result = await hook.run("git", args, { cwd: op.cwd, timeoutMs: GIT_TIMEOUT_MS });
      if (result.timedOut) return { ok: false, why: `git ${args[0]} took longer than ${GIT_TIMEOUT_MS} ms`, stderr: "" };
      if (result.truncated) return { ok: false, why: `git ${args[0]} listed more than self-protect reads`, stderr: "" };
      if (result.exitCode !== 0)
        return { ok: false, why: `git ${args[0]} exited with ${result.exitCode}: ${clip(result.stderr, 200)}`, stderr: result.stderr };
      return { ok: true, out: result.stdout };
    } catch (error) {
      return { ok: false, why: clip(error instanceof Error ? error.message : String(error), 300), stderr: "" };
    }
  };
  const cdup = await git(["rev-parse", "--show-cdup"]);
  if (!cdup.ok) return /not a git repository/i.test(cdup.stderr) ? undefined : cannot(cdup.why);
  const top = shResolve(op.cwd, cdup.out.trim() || ".") as string;
  const protectedSpecs = gitPathspecs(cfg, top);
  const agentSpecs = op.pathspecs.map((w) => w.text);
  const touched: { path: string; how: string }[] = [];
  if (op.sub === "clean") {
    const flags = [...(op.directories ? ["-d"] : []), ...(op.onlyIgnored ? ["-X"] : op.ignored ? ["-x"] : [])];
    const asked = await git(["clean", "--dry-run", ...flags, "--", ...(agentSpecs.length > 0 ? agentSpecs : protectedSpecs)]);
    if (!asked.ok) return cannot(asked.why);
    for (const line of asked.out.split("\n")) {
      const m = /^Would remove (.+)$/.exec(line);
      if (!m) continue;
      const relative = unquoteGitPath(m[1] as string);
      // Without pathspecs git clean removes only below the directory it runs in.
      if (agentSpecs.length === 0 && relative.startsWith("../")) continue;
      touched.push({ path: shResolve(op.cwd, relative) as string, how: "it would remove it" });
    }
  } else {
    if (op.reverts) {
      const specs = agentSpecs.length > 0 ? agentSpecs : protectedSpecs;
      const asked = await git(["diff", "--name-only", "-z", ...(op.source !== undefined ? [op.source] : []), "--", ...specs]);
      // A revision that does not exist (a repository without commits): the command fails the same way, touching nothing.
      if (!asked.ok && /unknown revision|bad revision|ambiguous argument/i.test(asked.stderr)) return undefined;
      if (!asked.ok) return cannot(asked.why);
      for (const path of asked.out.split("\0"))
        if (path !== "")
          touched.push({ path: `${top}/${path}`, how: `it would revert its changes${op.source !== undefined ? ` to ${op.source}` : ""}` });
    }
    if (op.untracked || op.ignored) {
      const specs =
        agentSpecs.length > 0
          ? agentSpecs.map((spec) => (spec.startsWith(":") ? spec : `:(top)${shNormalizeRelative(`${relativeTo(top, op.cwd as string)}/${spec}`)}`))
          : protectedSpecs;
      const asked = await git([
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        `--ignored=${op.ignored ? "matching" : "no"}`,
        "--",
        ...specs,
      ]);
      if (!asked.ok) return cannot(asked.why);
      for (const entry of asked.out.split("\0")) {
        if ((op.untracked && entry.startsWith("?? ")) || (op.ignored && entry.startsWith("!! ")))
          touched.push({ path: `${top}/${entry.slice(3)}`, how: "it would remove it (stashed, the file is gone from the work tree)" });
      }
    }
  }
  for (const { path, how } of touched) {
    const place = pathPlace(path, undefined, cfg, "all");
    // Named as in the project, as the agent names its files.
    const named = cfg.workspace !== undefined && path.startsWith(`${cfg.workspace}/`) ? path.slice(cfg.workspace.length + 1) : path;
    if (place) return { shown: named, what: is(place), may: "delete or revert it", how: `${shown}: ${how}` };
  }
  return undefined;
}

/** Every protected place inside the repository at `top`, as git pathspecs (from its top, glob, case-insensitive). */
function gitPathspecs(cfg: Config, top: string): string[] {
  const specs = new Set<string>();
  for (const place of cfg.places) {
    for (const glob of shBraceAlternatives(place.glob)) {
      let relative: string | undefined;
      if (!glob.startsWith("/")) relative = glob;
      else if (glob.startsWith(`${top}/`)) relative = glob.slice(top.length + 1);
      else if (top.startsWith(glob.endsWith("/**") ? `${glob.slice(0, -3)}/` : `${glob}/`) || glob.slice(0, -3) === top) relative = "**";
      if (relative !== undefined) specs.add(`:(top,glob,icase)${relative.replace(/\[([*?[{},])\]/g, "\\$1")}`);
    }
  }
  return [...specs];
}

/** `dir` relative to `base` ("." when equal), both absolute and normalized. */
function relativeTo(base: string, dir: string): string {
  if (dir === base) return ".";
  if (dir.startsWith(`${base}/`)) return dir.slice(base.length + 1);
  const up = base.split("/").filter(Boolean);
  const down = dir.split("/").filter(Boolean);
  let k = 0;
  while (k < up.length && k < down.length && up[k] === down[k]) k++;
  return [...up.slice(k).map(() => ".."), ...down.slice(k)].join("/") || ".";
}

/** A path as git prints it: "…" with C escapes (octal bytes of UTF-8) when it holds unusual characters. */
function unquoteGitPath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"')) return text;
  const body = text.slice(1, -1);
  const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", '"': '"' };
  let encoded = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\") encoded += encodeURIComponent(c);
    else if (/^[0-7]{3}$/.test(body.slice(i + 1, i + 4))) {
      encoded += `%${parseInt(body.slice(i + 1, i + 4), 8)
        .toString(16)
        .padStart(2, "0")}`;
      i += 3;
    } else encoded += encodeURIComponent(escapes[body[++i] as string] ?? body[i] ?? "");
  }
  try {
    return decodeURIComponent(encoded);
  } catch {
    return body;
  }
}

// ---- configuration ----

/** What Hookbox says about this machine (config.locations). */
interface Locations {
  [name: string]: string | string[] | number[] | undefined;
}

const compiled = new Map<string, Config>();

function readConfig(c: Readonly<Record<string, unknown>>, binaries: readonly string[]): Config {
  const key = `${JSON.stringify(c)}\0${binaries.join("\0")}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const config = buildConfig(c, binaries);
  if (compiled.size > 8) compiled.clear();
  compiled.set(key, config);
  return config;
}

function buildConfig(c: Readonly<Record<string, unknown>>, eventBinaries: readonly string[]): Config {
  const problems: string[] = [];
  const given: Locations | undefined = isRecord(c.locations) ? (c.locations as Locations) : undefined;
  // The event's binaries (the host's hookbox_binaries) join the process's own under ${binaries}.
  const own = Array.isArray(given?.binaries) ? (given.binaries as unknown[]).filter((b): b is string => typeof b === "string") : [];
  const locations: Locations | undefined =
    given && eventBinaries.length > 0 ? { ...given, binaries: [...new Set([...own, ...eventBinaries])] } : given;
  const text = (name: string): string | undefined =>
    typeof locations?.[name] === "string" && (locations[name] as string).startsWith("/") ? shNormalize(locations[name] as string) : undefined;
  const list = (name: string): string[] =>
    Array.isArray(locations?.[name])
      ? (locations[name] as unknown[]).filter((v): v is string => typeof v === "string" && v.startsWith("/")).map(shNormalize)
      : [];
  const home = text("home");
  const declared = [...entries(c.protect, "protect", problems), ...entries(c.extra_paths, "extra_paths", problems)];
  const places: Place[] = [];
  for (const { path, what } of declared) {
    for (const glob of expand(path, locations, problems)) {
      const res = glob.endsWith("/**") ? [globRe(glob), globRe(glob.slice(0, -3))] : [globRe(glob)];
      places.push({ glob, what, tilde: tildeOf(glob, home), res, holders: holdersOf(glob), anywhere: !glob.startsWith("/") });
    }
  }
  const operatorFile = text("operator_file") ?? "~/.config/hookbox/hookbox.yaml";
  const max = typeof c.max_command_chars === "number" && c.max_command_chars > 0 ? c.max_command_chars : 500_000;
  return {
    places,
    exceptions: strings(c.exceptions).map((g) => globRe(g)),
    operatorFile: home !== undefined && operatorFile.startsWith(`${home}/`) ? `~${operatorFile.slice(home.length)}` : operatorFile,
    home,
    socketDirs: [text("socket_dir")].filter((d): d is string => d !== undefined),
    daemonPids: Array.isArray(locations?.daemon_pids)
      ? (locations.daemon_pids as unknown[]).filter((p): p is number => Number.isInteger(p) && (p as number) > 1)
      : [],
    binaries: list("binaries"),
    maxCommandChars: max,
    workspace: undefined,
    projectState: places.some((p) => p.anywhere)
      ? "the project's own Hookbox state (its .hookbox/, the agents' hook settings, git hooks and config)"
      : undefined,
    broken:
      locations === undefined
        ? "config.locations is missing, so where Hookbox's state is on this machine is not known. Hookbox sets it for the standard hook self-protect; a copy of the hook under another id does not get it"
        : undefined,
    problems,
  };
}

function entries(value: unknown, field: string, problems: string[]): { path: string; what: string }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`config.${field} is not a list; ignored`);
    return [];
  }
  const out: { path: string; what: string }[] = [];
  for (const item of value.slice(0, 256)) {
    if (typeof item === "string" && item.length > 0) out.push({ path: item, what: "a path the operator protects (self-protect's extra_paths)" });
    else if (isRecord(item) && typeof item.path === "string" && item.path.length > 0)
      out.push({ path: item.path, what: typeof item.what === "string" && item.what !== "" ? item.what : "a path the operator protects" });
    else problems.push(`config.${field}: ${JSON.stringify(item)} is neither a glob nor { path, what }; ignored`);
  }
  return out;
}

/** ${name} filled in from the locations (a list gives one glob per value); a glob naming an unknown location is dropped. */
function expand(path: string, locations: Locations | undefined, problems: string[]): string[] {
  let globs = [path.replace(/\\/g, "/")];
  for (const m of path.matchAll(/\$\{([a-z_]+)\}/g)) {
    const name = m[1] as string;
    const value = locations?.[name];
    const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
      (v): v is string => typeof v === "string" && v.startsWith("/"),
    );
    if (values.length === 0) {
      if (locations !== undefined && !(Array.isArray(value) && value.length === 0))
        problems.push(`\${${name}} in ${path} is not a location Hookbox gave; that entry protects nothing`);
      return [];
    }
    globs = globs.flatMap((g) => values.map((v) => g.split(m[0]).join(globEscape(shNormalize(v)).replace(/\/$/, ""))));
  }
  return globs.map((g) => g.replace(/\/{2,}/g, "/"));
}

/** A location written into a glob: its own * ? [ { } taken literally. */
function globEscape(text: string): string {
  return text.replace(/[*?[{},]/g, (c) => `[${c}]`);
}

/** The directories that hold what a glob names: its literal leading directories (all of them up to /), or for `**\/a/b/…` the `**\/a` … */
function holdersOf(glob: string): string[] {
  const segments = glob.split("/");
  const holders: string[] = [];
  if (glob.startsWith("/")) {
    const literal = segments.findIndex((s, k) => k > 0 && /[*?[{]/.test(s.replace(/\[[*?[{},]\]/g, "")));
    const end = literal < 0 ? segments.length - 1 : literal;
    for (let k = end; k >= 1; k--) holders.push(segments.slice(0, k).join("/") || "/");
    return holders;
  }
  if (segments[0] !== "**") return holders;
  for (let k = 2; k < segments.length; k++) {
    if (/[*?[{]/.test(segments[k - 1] as string)) break;
    holders.push(segments.slice(0, k).join("/"));
  }
  return holders.filter((h) => h !== glob && `${h}/**` !== glob);
}

function tildeOf(glob: string, home: string | undefined): string | undefined {
  if (home === undefined) return undefined;
  const escaped = globEscape(home);
  if (glob === escaped) return "~";
  return glob.startsWith(`${escaped}/`) ? `~${glob.slice(escaped.length)}` : undefined;
}

const globs = new Map<string, RegExp>();

function globRe(glob: string): RegExp {
  let re = globs.get(glob);
  if (!re) {
    const source = globSource(glob);
    re = source === null ? /$^/ : new RegExp(`^${source}$`, "i");
    if (globs.size > 512) globs.clear();
    globs.set(glob, re);
  }
  return re;
}

function excepted(path: string, cfg: Config): boolean {
  return cfg.exceptions.some((re) => re.test(path));
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0 && v.length <= 1024).slice(0, 256) : [];
}
