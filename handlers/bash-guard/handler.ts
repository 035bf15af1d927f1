// bash-guard: refuse shell commands that destroy what cannot be restored: recursive deletes of
// /, ~ or the workspace, force-pushes to main/master, remote scripts piped into a shell,
// recursive chmod 777, writes to disk devices, mkfs, fork bombs, shutdown. It reads only the
// event (no capabilities). The command is read the way bash would split it (hookbox:shell) —
// best effort: what only the running shell knows ($VAR, aliases, globs against the disk) cannot
// be seen here.
import { SH_MAX_COMMANDS, type ShCommand, type ShPipeline, type ShTarget, type ShWord, shAnalyze, shCommandText, shBase, shMayMatchGlob, shNormalize, shOperands, shPatternText, shResolve, shValues, shWrites } from "hookbox:shell";

type RuleId =
  | "rm-root"
  | "rm-home"
  | "rm-workspace"
  | "rm-no-preserve-root"
  | "rm-unset-var"
  | "find-delete-root"
  | "git-force-push"
  | "pipe-to-shell"
  | "chmod-777-recursive"
  | "recursive-root"
  | "dd-device"
  | "device-write"
  | "mkfs"
  | "fork-bomb"
  | "shutdown"
  | "extra-pattern"
  | "too-long";

interface Finding {
  rule: RuleId;
  /** The part of the command at fault: what exceptions are matched against. */
  segment: string;
  why: string;
  hint: string;
}

interface Config {
  exceptions: RegExp[];
  extraPatterns: { re: RegExp; source: string }[];
  disabled: Set<string>;
  protectedBranches: RegExp[];
  protectWorkspace: boolean;
  maxCommandChars: number;
  problems: string[];
}

const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "xh", "lwp-request", "lwp-download", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"]);
const SHELL_RUNNERS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"]);
/** Interpreters, and the options that give them their program inline (then stdin is data). */
const INTERPRETERS: Record<string, string[]> = {
  python: ["-c", "-m"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
  node: ["-e", "--eval", "-p", "--print"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  php: ["-r"],
  lua: ["-e"],
  pwsh: ["-c", "-command", "-f", "-file"],
  powershell: ["-c", "-command", "-f", "-file"],
  osascript: ["-e"],
};
const EVALUATORS = new Set(["eval", "source", ".", "iex", "invoke-expression"]);
/** Character devices that are safe to write to; anything else under /dev is a device. */
const SAFE_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty\w*|pts\/.*|fd\/.*|shm\/.*|console)$/;
const MKFS = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|mkntfs|mkdosfs|mkexfatfs|newfs(_\w+)?|mkfs_\w+)$/;
const HOME_ROOTS = ["/home", "/Users"];

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const cfg = readConfig(hook.config);
  for (const problem of cfg.problems) hook.log("warn", problem);
  const input: Record<string, unknown> = isRecord(event.tool_input) ? event.tool_input : {};
  // Some agents send argv rather than a string.
  const command = shCommandText(input.command);
  if (command.trim() === "") return { action: "continue" };
  if (command.length > cfg.maxCommandChars) {
    return deny({ rule: "too-long", segment: `${command.slice(0, 80)}…`, why: `the command is ${command.length} characters long, more than max_command_chars (${cfg.maxCommandChars}): too long to check`, hint: "Split it into smaller commands, or put it in a script file." }, command);
  }
  const workspace = typeof event.cwd === "string" && event.cwd.startsWith("/") && event.cwd !== "/" ? shNormalize(event.cwd) : undefined;
  // The reader stops at SH_MAX_COMMANDS simple commands: what lies beyond would go unread.
  const pipelines = shAnalyze(command, workspace);
  if (pipelines.reduce((n, p) => n + p.commands.length, 0) >= SH_MAX_COMMANDS) {
    return deny({ rule: "too-long", segment: `${command.slice(0, 80)}…`, why: `the command holds more than ${SH_MAX_COMMANDS} simple commands, more than the shell reader reads: too complex to check`, hint: "Split it into smaller commands, or put it in a script file." }, command);
  }

  const findings: Finding[] = [];
  findings.push(...forkBombs(command));
  // What variables and substitutions the line itself sets hold: `T=/; rm -rf $T` is rm -rf /.
  const writes = shWrites(command, workspace);
  const resolved = new Map<string, string[]>();
  for (const t of writes) if (t.path !== undefined && t.raw !== t.path) resolved.set(t.raw, [...(resolved.get(t.raw) ?? []), t.path]);
  for (const pipeline of pipelines) {
    findings.push(...pipeToShell(pipeline));
    for (const cmd of pipeline.commands) findings.push(...commandFindings(cmd, workspace, cfg, resolved));
  }
  findings.push(...deviceWrites(writes));
  for (const { re, source } of cfg.extraPatterns) {
    if (re.test(command)) findings.push({ rule: "extra-pattern", segment: command, why: `it matches the configured pattern /${source}/`, hint: "The operator listed this pattern in bash-guard's extra_patterns." });
  }

  for (const f of findings) {
    if (cfg.disabled.has(f.rule)) continue;
    const exception = cfg.exceptions.find((re) => re.test(f.segment.trim()));
    if (exception) {
      hook.log("info", `${f.rule} allowed by exception /${exception.source}/: ${clip(f.segment, 200)}`);
      continue;
    }
    hook.log("info", `${f.rule}: ${clip(f.segment, 200)}`);
    return deny(f, command);
  }
  return { action: "continue" };
}

function deny(f: Finding, command: string): HookResult {
  const shown = clip(f.segment.trim() || command, 300);
  return {
    action: "deny",
    reason:
      `bash-guard blocked \`${shown}\` (${f.rule}): ${f.why}. ${f.hint} ` +
      `If it is really intended, ask the user to run it themselves; the operator can allow it in hookbox.yaml: ` +
      `hooks: { bash-guard: { config: { exceptions: ["<regex matching this command>"] } } }`,
    user_message: `bash-guard blocked a destructive command (${f.rule}): ${clip(shown, 120)}`,
    user_message_level: "warning",
  };
}

function commandFindings(cmd: ShCommand, workspace: string | undefined, cfg: Config, resolved: ReadonlyMap<string, string[]>): Finding[] {
  const out: Finding[] = [];
  const seg = cmd.raw;
  const { operands, options } = shOperands(cmd);
  const shortFlag = (letters: RegExp): boolean => options.some((o) => /^-[^-]/.test(o) && letters.test(o.slice(1)));
  switch (cmd.name) {
    case "rm": {
      if (options.includes("--no-preserve-root")) out.push({ rule: "rm-no-preserve-root", segment: seg, why: "--no-preserve-root lets rm delete the filesystem root", hint: "Never needed for project work." });
      const recursive = options.includes("--recursive") || shortFlag(/[rR]/);
      if (!recursive || cmd.viaXargs) break;
      for (const w of operands) for (const value of [...shValues(w), ...(w.dynamic ? (resolved.get(w.text) ?? []) : [])]) {
        const danger = classify(value, w.dynamic && resolved.get(w.text)?.includes(value) ? { ...w, dynamic: false } : w, cmd.cwd, workspace, cfg);
        if (danger) out.push({ rule: danger.rule, segment: seg, why: `rm -r ${value} deletes ${danger.what}`, hint: "Delete the specific directories you mean instead (for example rm -rf ./build)." });
      }
      break;
    }
    case "find": {
      const expression = cmd.argv.slice(1).findIndex((w) => /^[-(!]/.test(w.text));
      const roots = (expression < 0 ? cmd.argv.slice(1) : cmd.argv.slice(1, expression + 1)).filter((w) => !w.text.startsWith("-"));
      const texts = cmd.argv.map((w) => w.text);
      const deletes = texts.includes("-delete") || ((texts.includes("-exec") || texts.includes("-execdir")) && texts.some((t) => shBase(t) === "rm"));
      if (!deletes) break;
      for (const w of roots) {
        // Deleting matches inside the project is ordinary (find . -name '*.pyc' -delete); sweeping / or ~ is not.
        const danger = classify(w.text, w, cmd.cwd, workspace, cfg);
        if (danger && danger.rule !== "rm-workspace") out.push({ rule: "find-delete-root", segment: seg, why: `find ${w.text} … deletes matching files anywhere in ${danger.what}`, hint: "Search the project's own directories instead." });
      }
      break;
    }
    case "chmod":
    case "chown":
    case "chgrp": {
      const recursive = options.includes("--recursive") || shortFlag(/R/);
      if (!recursive) break;
      const [first, ...targets] = operands;
      if (cmd.name === "chmod" && first && worldWritable(first.text)) {
        out.push({ rule: "chmod-777-recursive", segment: seg, why: `chmod -R ${first.text} makes every file below writable by every user`, hint: "Use a narrower mode (for example chmod -R u+rwX,go+rX) on the files that need it." });
      }
      for (const w of targets) for (const value of shValues(w)) {
        const danger = classify(value, w, cmd.cwd, workspace, cfg);
        if (danger && danger.rule !== "rm-workspace") out.push({ rule: "recursive-root", segment: seg, why: `${cmd.name} -R ${value} changes ${danger.what} and everything below it`, hint: "Change the ownership or mode of the project's own files only." });
      }
      break;
    }
    case "git":
      out.push(...gitPush(cmd, cfg));
      break;
    case "shutdown":
    case "reboot":
    case "halt":
    case "poweroff":
      out.push({ rule: "shutdown", segment: seg, why: `${cmd.name} stops the machine the agent and the user are working on`, hint: "Ask the user to do it." });
      break;
    case "init":
    case "telinit":
      if (operands.some((w) => w.text === "0" || w.text === "6")) out.push({ rule: "shutdown", segment: seg, why: `${cmd.name} ${operands[0]?.text ?? ""} stops or restarts the machine`, hint: "Ask the user to do it." });
      break;
    case "systemctl":
      if (operands.some((w) => ["poweroff", "reboot", "halt", "kexec", "emergency", "rescue"].includes(w.text))) out.push({ rule: "shutdown", segment: seg, why: "systemctl would stop or restart the machine", hint: "Ask the user to do it." });
      break;
  }
  if (MKFS.test(cmd.name)) out.push({ rule: "mkfs", segment: seg, why: `${cmd.name} formats a filesystem, erasing what was on it`, hint: "Ask the user to do it." });
  return out;
}

/** Disk devices under /dev that a write destroys (the rest of /dev is SAFE_DEVICES or not a disk). */
const DISK_DEVICES = ["/dev/sd*", "/dev/hd*", "/dev/vd*", "/dev/xvd*", "/dev/nvme*", "/dev/mmcblk*", "/dev/disk*", "/dev/rdisk*", "/dev/dm-*", "/dev/md*", "/dev/loop*", "/dev/mapper/**", "/dev/block/**", "/dev/by-*/**", "/dev/disk/**", "/dev/mem", "/dev/kmem", "/dev/port"];

/**
 * Writes to a device: a plain /dev path that is not SAFE_DEVICES, or a glob or a variable the
 * line sets that may name a disk (`> /dev/sd?`, `D=/dev/sda; dd of=$D`). A value the line does
 * not give is left to guard-secrets, which refuses what it cannot know.
 */
function deviceWrites(writes: readonly ShTarget[]): Finding[] {
  const out: Finding[] = [];
  for (const t of writes) {
    if (t.named || t.unknown.length > 0) continue;
    const rule: RuleId = t.by === "dd" ? "dd-device" : "device-write";
    if (t.path !== undefined) {
      const path = shNormalize(t.path.replace(/\\/g, "/"));
      if (t.path.startsWith("/dev/") && !SAFE_DEVICES.test(path)) out.push({ rule, segment: t.command, why: `it writes to the device ${t.path}, destroying the data on it`, hint: "Write to a regular file instead." });
    } else if (t.patterns.some((p) => DISK_DEVICES.some((glob) => shMayMatchGlob(p, glob)))) {
      out.push({ rule, segment: t.command, why: `${t.raw} may name a disk device (${t.patterns.map(shPatternText).join(", ")}), and writing to it destroys the data on it`, hint: "Write to a regular file instead." });
    }
  }
  return out;
}

interface Danger {
  rule: "rm-root" | "rm-home" | "rm-workspace" | "rm-unset-var";
  /** What the path is: "the filesystem root", "/etc, a top-level system directory" … */
  what: string;
}

/** Is a path given to rm -r / find -delete / chmod -R one of the things that must never go? */
function classify(text: string, word: ShWord, cwd: string | undefined, workspace: string | undefined, cfg: Config): Danger | undefined {
  const t = text.replace(/\\/g, "/");
  // "$DIR/" and "$DIR/*" become / and /* when DIR is empty or unset (the Steam bug). ${DIR:?} guards it.
  const unset = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\/+\**$/.exec(t);
  if (unset && unset[1] !== "HOME" && !t.includes(":?")) return { rule: "rm-unset-var", what: `/ when $${unset[1]} is empty or unset` };
  if (word.dynamic && !/^(\$\{?HOME\}?)(\/|$)/.test(t)) return undefined;
  const resolved = shResolve(cwd, t);
  if (resolved === undefined) return undefined;
  // Trailing glob segments (/* , /.*) mean the contents: judge the directory they are in.
  const parts = resolved.split("/");
  let contents = false;
  while (parts.length > 1 && /^[.*?]*[*?][.*?]*$/.test(parts[parts.length - 1] as string)) {
    parts.pop();
    contents = true;
  }
  const dir = parts.join("/") || "/";
  const all = contents ? "everything in " : "";
  if (dir === "/") return { rule: "rm-root", what: `${all}the filesystem root` };
  if (dir === "~" || dir === "~/") return { rule: "rm-home", what: `${all}the home directory` };
  if (dir.startsWith("/") && dir.split("/").length === 2) return { rule: "rm-root", what: `${all}${dir}, a top-level directory${/[*?[]/.test(dir) ? " (a glob at the root)" : ""}` };
  if (HOME_ROOTS.some((r) => dir.split("/").length === 3 && dir.startsWith(`${r}/`))) return { rule: "rm-home", what: `${all}${dir}, a home directory` };
  if (cfg.protectWorkspace && workspace !== undefined && (dir === workspace || workspace.startsWith(`${dir}/`))) {
    return { rule: "rm-workspace", what: dir === workspace ? `${all}the whole project (${workspace})` : `${all}${dir}, which holds the project` };
  }
  return undefined;
}

function worldWritable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return ((Number(mode[mode.length - 1]) & 2) !== 0);
  return mode.split(",").some((clause) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    return m !== null && m[2] !== "-" && (m[3] ?? "").includes("w") && /[oa]/.test(m[1] ?? "");
  });
}

const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);
const PUSH_VALUED = new Set(["--repo", "-o", "--push-option", "--receive-pack", "--exec"]);

function gitPush(cmd: ShCommand, cfg: Config): Finding[] {
  const words = cmd.argv.map((w) => w.text);
  let i = 1;
  while (i < words.length && (words[i] as string).startsWith("-")) i += GIT_VALUED.has(words[i] as string) ? 2 : 1;
  if (words[i] !== "push") return [];
  let force = false;
  let all = false;
  let del = false;
  const positional: string[] = [];
  for (let j = i + 1; j < words.length; j++) {
    const w = words[j] as string;
    if (w === "--") {
      positional.push(...words.slice(j + 1));
      break;
    }
    if (PUSH_VALUED.has(w)) j++;
    else if (w === "--force" || w.startsWith("--force-with-lease") || (/^-[a-zA-Z]+$/.test(w) && w.includes("f"))) force = true;
    else if (w === "--all" || w === "--mirror" || w === "--branches") all = true;
    else if (w === "--delete" || (/^-[a-zA-Z]+$/.test(w) && w.includes("d"))) del = true;
    else if (!w.startsWith("-")) positional.push(w);
  }
  const refspecs = positional.slice(1);
  const isProtected = (branch: string): boolean => cfg.protectedBranches.some((re) => re.test(branch.replace(/^refs\/heads\//, "")));
  const list = cfg.protectedBranches.map((re) => re.source.replace(/^\^|\$$/g, "").replace(/\.\*/g, "*")).join(", ");
  const seg = cmd.raw;
  const out: Finding[] = [];
  for (const spec of refspecs) {
    const plus = spec.startsWith("+");
    const body = plus ? spec.slice(1) : spec;
    const colon = body.indexOf(":");
    const src = colon < 0 ? body : body.slice(0, colon);
    const dst = colon < 0 ? body : body.slice(colon + 1);
    if ((del || (colon >= 0 && src === "")) && isProtected(dst)) {
      out.push({ rule: "git-force-push", segment: seg, why: `it deletes the protected branch ${dst} on the remote`, hint: `Protected branches: ${list}.` });
    } else if ((force || plus) && (isProtected(dst) || dst === "HEAD")) {
      out.push({ rule: "git-force-push", segment: seg, why: dst === "HEAD" ? "it force-pushes HEAD, which may be a protected branch" : `it force-pushes to the protected branch ${dst}, rewriting its shared history`, hint: "Push to a feature branch, or push without --force." });
    }
  }
  if ((force || del) && all) out.push({ rule: "git-force-push", segment: seg, why: "it force-pushes every branch, protected ones included", hint: "Push the one feature branch you mean." });
  else if (force && refspecs.length === 0) {
    out.push({ rule: "git-force-push", segment: seg, why: "a force-push without a branch name pushes the current branch, which may be a protected one", hint: "Name the branch: git push --force-with-lease origin <feature-branch>." });
  }
  return out;
}

/** Does this command execute what arrives on its stdin? */
function runsStdin(cmd: ShCommand): boolean {
  const name = /^python[0-9.]*$/.test(cmd.name) ? "python" : cmd.name;
  if (name === "iex" || name === "invoke-expression") return true;
  const inline = SHELL_RUNNERS.has(name) ? ["-c"] : INTERPRETERS[name];
  if (!inline) return false;
  const { operands, options } = shOperands(cmd);
  const lowered = options.map((o) => o.toLowerCase());
  if (SHELL_RUNNERS.has(name)) {
    if (lowered.some((o) => /^-[a-z]*c[a-z]*$/.test(o) && !o.startsWith("--"))) return false;
    if (lowered.some((o) => /^-[a-z]*s[a-z]*$/.test(o) && !o.startsWith("--"))) return true;
  } else if (lowered.some((o) => inline.includes(o))) return false;
  return operands.length === 0 || operands[0]?.text === "-" || operands[0]?.text === "/dev/stdin";
}

/** The scripts a command executes from a substitution: bash <(curl …), sh -c "$(curl …)", eval "$(wget …)". */
function executesSubstitution(cmd: ShCommand): string | undefined {
  const name = /^python[0-9.]*$/.test(cmd.name) ? "python" : cmd.name;
  if (!SHELL_RUNNERS.has(name) && !INTERPRETERS[name] && !EVALUATORS.has(name)) return undefined;
  const words = [...cmd.argv.slice(1), ...cmd.redirs.flatMap((r) => (r.target ? [r.target] : []))];
  for (const w of words) {
    for (const sub of w.subs) {
      const inner = shAnalyze(sub, undefined).flatMap((p) => p.commands);
      const downloader = inner.find((c) => DOWNLOADERS.has(c.name));
      if (downloader) return downloader.raw;
    }
  }
  return undefined;
}

function pipeToShell(pipeline: ShPipeline): Finding[] {
  const out: Finding[] = [];
  const hint = "Download it to a file first, read it, then run it (curl -fsSLo install.sh URL && less install.sh && sh install.sh).";
  const first = pipeline.commands.findIndex((c) => DOWNLOADERS.has(c.name));
  if (first >= 0) {
    const runner = pipeline.commands.slice(first + 1).find(runsStdin);
    if (runner) out.push({ rule: "pipe-to-shell", segment: pipeline.raw, why: `it pipes a download (${pipeline.commands[first]?.name}) straight into ${runner.name}, running remote code unseen`, hint });
  }
  for (const cmd of pipeline.commands) {
    const downloader = executesSubstitution(cmd);
    if (downloader) out.push({ rule: "pipe-to-shell", segment: pipeline.raw, why: `${cmd.name} runs the output of \`${clip(downloader, 80)}\`, remote code unseen`, hint });
  }
  return out;
}

/** :(){ :|:& };:  and its spelled-out variants. Read on the text: a definition is not a simple command. */
function forkBombs(command: string): Finding[] {
  const text = command.length > 20_000 ? command.slice(0, 20_000) : command;
  const fn = /(?:^|[\s;&|(){}])(?:function\s+)?([A-Za-z_:.][\w:.-]*)\s*(?:\(\s*\))?\s*\{[^{}]*?\1\s*\|\s*&?\s*\1[^{}]*?&[^{}]*\}/;
  const loops = /\bfork\s*(?:\(\s*\))?\s*while\s+fork\b|\bwhile\s*\(\s*(?:1|true)\s*\)\s*\{?\s*fork\s*\(|\bfor\s*\(\s*;\s*;\s*\)\s*\{?\s*fork\s*\(|while\s+True\s*:\s*os\.fork\s*\(/;
  const m = fn.exec(text) ?? loops.exec(text);
  return m ? [{ rule: "fork-bomb", segment: command, why: "it is a fork bomb: it multiplies processes until the machine stops responding", hint: "" }] : [];
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.length > 0 && v.length <= 1024).slice(0, 256) : [];
}

function readConfig(c: Readonly<Record<string, unknown>>): Config {
  const problems: string[] = [];
  const compile = (source: string, field: string): RegExp | undefined => {
    try {
      return new RegExp(source);
    } catch (error) {
      problems.push(`config.${field}: /${source}/ is not a valid regular expression (${String(error)}); it is ignored`);
      return undefined;
    }
  };
  const branches = Array.isArray(c.protected_branches) ? strings(c.protected_branches) : ["main", "master"];
  const max = typeof c.max_command_chars === "number" && c.max_command_chars > 0 ? c.max_command_chars : 50_000;
  return {
    exceptions: strings(c.exceptions).flatMap((s) => compile(s, "exceptions") ?? []),
    extraPatterns: strings(c.extra_patterns).flatMap((s) => {
      const re = compile(s, "extra_patterns");
      return re ? [{ re, source: s }] : [];
    }),
    disabled: new Set(strings(c.disabled_rules)),
    protectedBranches: branches.map((b) => new RegExp(`^${b.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replace(/\*/g, ".*")}$`)),
    protectWorkspace: c.protect_workspace !== false,
    maxCommandChars: max,
    problems,
  };
}
