// bash-guard: refuse shell commands that destroy what cannot be restored: recursive deletes of
// /, ~ or the workspace, force-pushes to main/master, remote scripts piped into a shell,
// recursive chmod 777, writes to disk devices, mkfs, fork bombs, shutdown. It reads only the
// event (no capabilities). The command is read the way bash would split it (hookbox:shell) —
// best effort: what only the running shell knows ($VAR, aliases, globs against the disk) cannot
// be seen here.
import {
  SH_MAX_COMMANDS,
  type ShCommand,
  type ShPipeline,
  type ShTarget,
  type ShWord,
  shAnalyze,
  shCommandText,
  shBase,
  shInlineScript,
  shMayMatchGlob,
  shNormalize,
  shOperands,
  shPatternText,
  shResolve,
  shValues,
  shWrites,
} from "hookbox:shell";

type RuleId =
  | "rm-root"
  | "rm-home"
  | "rm-workspace"
  | "rm-no-preserve-root"
  | "rm-unset-var"
  | "find-delete-root"
  | "git-force-push"
  | "pipe-to-shell"
  | "decode-to-shell"
  | "download-exec"
  | "computed-shell"
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
  /** Rules that ask the user (ask_user) instead of refusing. */
  ask: Set<string>;
  /** Programs whose output eval, source and sh -c may run without asking (ssh-agent, direnv …). */
  generators: Set<string>;
  exceptions: RegExp[];
  extraPatterns: { re: RegExp; source: string }[];
  disabled: Set<string>;
  protectedBranches: RegExp[];
  protectWorkspace: boolean;
  maxCommandChars: number;
  problems: string[];
}

const DOWNLOADERS = new Set([
  "curl",
  "wget",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "lwp-request",
  "lwp-download",
  "iwr",
  "irm",
  "invoke-webrequest",
  "invoke-restmethod",
]);
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
    return deny(
      {
        rule: "too-long",
        segment: `${command.slice(0, 80)}…`,
        why: `the command is ${command.length} characters long, more than max_command_chars (${cfg.maxCommandChars}): too long to check`,
        hint: "Split it into smaller commands, or put it in a script file.",
      },
      command,
    );
  }
  const workspace = typeof event.cwd === "string" && event.cwd.startsWith("/") && event.cwd !== "/" ? shNormalize(event.cwd) : undefined;
  // The reader stops at SH_MAX_COMMANDS simple commands: what lies beyond would go unread.
  const pipelines = shAnalyze(command, workspace);
  if (pipelines.reduce((n, p) => n + p.commands.length, 0) >= SH_MAX_COMMANDS) {
    return deny(
      {
        rule: "too-long",
        segment: `${command.slice(0, 80)}…`,
        why: `the command holds more than ${SH_MAX_COMMANDS} simple commands, more than the shell reader reads: too complex to check`,
        hint: "Split it into smaller commands, or put it in a script file.",
      },
      command,
    );
  }

  const findings: Finding[] = [];
  findings.push(...forkBombs(command));
  // What variables and substitutions the line itself sets hold: `T=/; rm -rf $T` is rm -rf /.
  const writes = shWrites(command, workspace);
  const resolved = new Map<string, string[]>();
  for (const t of writes) if (t.path !== undefined && t.raw !== t.path) resolved.set(t.raw, [...(resolved.get(t.raw) ?? []), t.path]);
  for (const pipeline of pipelines) {
    findings.push(...pipeToShell(pipeline));
    findings.push(...decodeToShell(pipeline));
    for (const cmd of pipeline.commands) findings.push(...commandFindings(cmd, workspace, cfg, resolved), ...computedShell(cmd, cfg));
  }
  findings.push(...downloadThenRun(pipelines));
  findings.push(...deviceWrites(writes));
  for (const { re, source } of cfg.extraPatterns) {
    if (!re.test(command)) continue;
    // The segment an exception judges is the offending command, never the whole line: an
    // exception for `terraform plan` must not let `terraform plan && terraform destroy` through.
    const commands = pipelines.flatMap((p) => p.commands.map((c) => c.raw)).filter((raw) => re.test(raw));
    const piped = commands.length > 0 ? [] : pipelines.map((p) => p.raw).filter((raw) => re.test(raw));
    const segments = commands.length > 0 ? commands : piped.length > 0 ? piped : [command];
    for (const segment of segments)
      findings.push({
        rule: "extra-pattern",
        segment,
        why: `it matches the configured pattern /${source}/`,
        hint: "The operator listed this pattern in bash-guard's extra_patterns.",
      });
  }

  for (const f of findings) {
    if (cfg.disabled.has(f.rule)) continue;
    const exception = cfg.exceptions.find((re) => re.test(f.segment.trim()));
    if (exception) {
      hook.log("info", `${f.rule} allowed by exception /${exception.source}/: ${clip(f.segment, 200)}`);
      continue;
    }
    hook.log("info", `${f.rule}: ${clip(f.segment, 200)}`);
    return cfg.ask.has(f.rule) ? ask(f, command) : deny(f, command);
  }
  return { action: "continue" };
}

function ask(f: Finding, command: string): HookResult {
  const shown = clip(f.segment.trim() || command, 300);
  return {
    action: "ask_user",
    reason: `bash-guard asks before \`${shown}\` (${f.rule}): ${f.why}. ${f.hint}`,
    approval_prompt: `bash-guard (${f.rule}): \`${clip(shown, 200)}\` — ${f.why}. ${f.hint} Run it anyway?`,
    user_message: `bash-guard asks about a command (${f.rule}): ${clip(shown, 120)}`,
    user_message_level: "warning",
  };
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
      if (options.includes("--no-preserve-root"))
        out.push({
          rule: "rm-no-preserve-root",
          segment: seg,
          why: "--no-preserve-root lets rm delete the filesystem root",
          hint: "Never needed for project work.",
        });
      const recursive = options.includes("--recursive") || shortFlag(/[rR]/);
      if (!recursive || cmd.viaXargs) break;
      for (const w of operands)
        for (const value of [...shValues(w), ...(w.dynamic ? (resolved.get(w.text) ?? []) : [])]) {
          const danger = classify(value, w.dynamic && resolved.get(w.text)?.includes(value) ? { ...w, dynamic: false } : w, cmd.cwd, workspace, cfg);
          if (danger)
            out.push({
              rule: danger.rule,
              segment: seg,
              why: `rm -r ${value} deletes ${danger.what}`,
              hint: "Delete the specific directories you mean instead (for example rm -rf ./build).",
            });
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
        if (danger && danger.rule !== "rm-workspace")
          out.push({
            rule: "find-delete-root",
            segment: seg,
            why: `find ${w.text} … deletes matching files anywhere in ${danger.what}`,
            hint: "Search the project's own directories instead.",
          });
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
        out.push({
          rule: "chmod-777-recursive",
          segment: seg,
          why: `chmod -R ${first.text} makes every file below writable by every user`,
          hint: "Use a narrower mode (for example chmod -R u+rwX,go+rX) on the files that need it.",
        });
      }
      for (const w of targets)
        for (const value of shValues(w)) {
          const danger = classify(value, w, cmd.cwd, workspace, cfg);
          if (danger && danger.rule !== "rm-workspace")
            out.push({
              rule: "recursive-root",
              segment: seg,
              why: `${cmd.name} -R ${value} changes ${danger.what} and everything below it`,
              hint: "Change the ownership or mode of the project's own files only.",
            });
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
      out.push({
        rule: "shutdown",
        segment: seg,
        why: `${cmd.name} stops the machine the agent and the user are working on`,
        hint: "Ask the user to do it.",
      });
      break;
    case "init":
    case "telinit":
      if (operands.some((w) => w.text === "0" || w.text === "6"))
        out.push({
          rule: "shutdown",
          segment: seg,
          why: `${cmd.name} ${operands[0]?.text ?? ""} stops or restarts the machine`,
          hint: "Ask the user to do it.",
        });
      break;
    case "systemctl":
      if (operands.some((w) => ["poweroff", "reboot", "halt", "kexec", "emergency", "rescue"].includes(w.text)))
        out.push({ rule: "shutdown", segment: seg, why: "systemctl would stop or restart the machine", hint: "Ask the user to do it." });
      break;
  }
  if (MKFS.test(cmd.name))
    out.push({ rule: "mkfs", segment: seg, why: `${cmd.name} formats a filesystem, erasing what was on it`, hint: "Ask the user to do it." });
  return out;
}

/** Disk devices under /dev that a write destroys (the rest of /dev is SAFE_DEVICES or not a disk). */
const DISK_DEVICES = [
  "/dev/sd*",
  "/dev/hd*",
  "/dev/vd*",
  "/dev/xvd*",
  "/dev/nvme*",
  "/dev/mmcblk*",
  "/dev/disk*",
  "/dev/rdisk*",
  "/dev/dm-*",
  "/dev/md*",
  "/dev/loop*",
  "/dev/mapper/**",
  "/dev/block/**",
  "/dev/by-*/**",
  "/dev/disk/**",
  "/dev/mem",
  "/dev/kmem",
  "/dev/port",
];

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
      if (t.path.startsWith("/dev/") && !SAFE_DEVICES.test(path))
        out.push({
          rule,
          segment: t.command,
          why: `it writes to the device ${t.path}, destroying the data on it`,
          hint: "Write to a regular file instead.",
        });
    } else if (t.patterns.some((p) => DISK_DEVICES.some((glob) => shMayMatchGlob(p, glob)))) {
      out.push({
        rule,
        segment: t.command,
        why: `${t.raw} may name a disk device (${t.patterns.map(shPatternText).join(", ")}), and writing to it destroys the data on it`,
        hint: "Write to a regular file instead.",
      });
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
  if (dir.startsWith("/") && dir.split("/").length === 2)
    return { rule: "rm-root", what: `${all}${dir}, a top-level directory${/[*?[]/.test(dir) ? " (a glob at the root)" : ""}` };
  if (HOME_ROOTS.some((r) => dir.split("/").length === 3 && dir.startsWith(`${r}/`)))
    return { rule: "rm-home", what: `${all}${dir}, a home directory` };
  if (cfg.protectWorkspace && workspace !== undefined && (dir === workspace || workspace.startsWith(`${dir}/`))) {
    return { rule: "rm-workspace", what: dir === workspace ? `${all}the whole project (${workspace})` : `${all}${dir}, which holds the project` };
  }
  return undefined;
}

function worldWritable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (Number(mode[mode.length - 1]) & 2) !== 0;
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
      out.push({
        rule: "git-force-push",
        segment: seg,
        why: `it deletes the protected branch ${dst} on the remote`,
        hint: `Protected branches: ${list}.`,
      });
    } else if ((force || plus) && (isProtected(dst) || dst === "HEAD")) {
      out.push({
        rule: "git-force-push",
        segment: seg,
        why:
          dst === "HEAD"
            ? "it force-pushes HEAD, which may be a protected branch"
            : `it force-pushes to the protected branch ${dst}, rewriting its shared history`,
        hint: "Push to a feature branch, or push without --force.",
      });
    }
  }
  if ((force || del) && all)
    out.push({
      rule: "git-force-push",
      segment: seg,
      why: "it force-pushes every branch, protected ones included",
      hint: "Push the one feature branch you mean.",
    });
  else if (force && refspecs.length === 0) {
    out.push({
      rule: "git-force-push",
      segment: seg,
      why: "a force-push without a branch name pushes the current branch, which may be a protected one",
      hint: "Name the branch: git push --force-with-lease origin <feature-branch>.",
    });
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
    if (runner)
      out.push({
        rule: "pipe-to-shell",
        segment: pipeline.raw,
        why: `it pipes a download (${pipeline.commands[first]?.name}) straight into ${runner.name}, running remote code unseen`,
        hint,
      });
  }
  for (const cmd of pipeline.commands) {
    const downloader = executesSubstitution(cmd);
    if (downloader)
      out.push({
        rule: "pipe-to-shell",
        segment: pipeline.raw,
        why: `${cmd.name} runs the output of \`${clip(downloader, 80)}\`, remote code unseen`,
        hint,
      });
  }
  return out;
}

// ---- shell that runs data ----

/** Programs that turn data into other text: what comes out of them cannot be read in the command. */
function decoderOf(cmd: ShCommand): string | undefined {
  const { options, operands } = shOperands(cmd);
  const words = cmd.argv.slice(1).map((w) => w.text);
  const flag = (short: string, long: string): boolean =>
    options.some((o) => o === long || (!o.startsWith("--") && o.length > 1 && o.slice(1).includes(short)));
  switch (cmd.name) {
    case "base64":
    case "base32":
    case "basenc":
    case "gbase64":
      return flag("d", "--decode") || options.includes("-D") ? `${cmd.name} -d` : undefined;
    case "xxd":
      return flag("r", "--revert") ? "xxd -r" : undefined;
    case "openssl":
      // openssl enc -d, openssl base64 -d, openssl aes-256-cbc -d …
      return words.includes("-d") ? `openssl ${words[0] ?? ""} -d` : undefined;
    case "gpg":
    case "gpg2":
      return words.some((w) => w === "-d" || w === "--decrypt") ? `${cmd.name} --decrypt` : undefined;
    case "uudecode":
    case "rev":
    case "zcat":
    case "bzcat":
    case "xzcat":
    case "zstdcat":
    case "lz4cat":
    case "gunzip":
    case "bunzip2":
    case "unxz":
    case "unzstd":
      return cmd.name;
    case "gzip":
    case "bzip2":
    case "xz":
    case "zstd":
      return flag("d", "--decompress") ? `${cmd.name} -d` : undefined;
    case "tr":
      // tr with two sets maps characters (rot13 and the like); tr -d removes them.
      return operands.length >= 2 ? "tr (a character mapping)" : undefined;
    case "printf":
    case "echo":
      // Escapes the shell reader does not decode: printf '\x72\x6d …', echo -e '\162\155 …'.
      return (cmd.name === "printf" || options.some((o) => /^-[neE]*e[neE]*$/.test(o))) &&
        cmd.argv.slice(1).some((w) => /\\(x[0-9a-fA-F]|[0-7]{1,3}|u[0-9a-fA-F])/.test(w.text))
        ? `${cmd.name} with escapes`
        : undefined;
  }
  return undefined;
}

/** Code in an interpreter's one-liner that runs what it decodes: exec(b64decode(…)), eval(Buffer.from(…, 'base64')), eval(atob(…)). */
const RUNS_DECODED =
  /\b(exec|eval|system|spawn\w*|execSync|Function|popen|subprocess\.\w+|os\.system)\s*\(?[^;\n]{0,200}?\b(b64decode|b32decode|a85decode|unhexlify|decodebytes|fromhex|atob|decode_base64|decode64|unpack1?\s*\(\s*["']m|Buffer\.from\s*\([^)]*["'](base64|hex)["']|fromCharCode|codecs\.decode|zlib\.decompress|gzip\.decompress)/i;

/**
 * Decoded text run as code: `… | base64 -d | sh`, `xxd -r -p | bash`, `openssl enc -d … | sh`,
 * `… | gunzip | python3 -`, `printf '\x…' | sh`, and interpreter one-liners that exec what they decode.
 */
function decodeToShell(pipeline: ShPipeline): Finding[] {
  const out: Finding[] = [];
  const hint = "Decode it to a file, read it, and run it only if it is what you mean (base64 -d in > script.sh && less script.sh).";
  const first = pipeline.commands.findIndex((c) => decoderOf(c) !== undefined);
  if (first >= 0) {
    const runner = pipeline.commands.slice(first + 1).find(runsStdin);
    if (runner)
      out.push({
        rule: "decode-to-shell",
        segment: pipeline.raw,
        why: `it pipes decoded text (${decoderOf(pipeline.commands[first] as ShCommand)}) into ${runner.name}: what runs cannot be read before it runs`,
        hint,
      });
  }
  for (const cmd of pipeline.commands) {
    const name = /^python[0-9.]*$/.test(cmd.name) ? "python" : cmd.name;
    const flags = INTERPRETERS[name];
    if (!flags) continue;
    const code = cmd.argv
      .slice(1)
      .map((w) => w.text)
      .join(" ");
    if (RUNS_DECODED.test(code))
      out.push({
        rule: "decode-to-shell",
        segment: cmd.raw,
        why: `its ${cmd.name} code runs text it decodes (${RUNS_DECODED.exec(code)?.[0].slice(0, 60) ?? ""}…): what runs cannot be read before it runs`,
        hint,
      });
  }
  return out;
}

/** Well-known variables whose value is not the agent's data (a script may name them). */
const PLAIN_VARS = new Set([
  "HOME",
  "PWD",
  "OLDPWD",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "PATH",
  "LANG",
  "TERM",
  "HOSTNAME",
  "UID",
  "CLAUDE_PROJECT_DIR",
  "GEMINI_PROJECT_DIR",
  "CURSOR_PROJECT_DIR",
  "QWEN_PROJECT_DIR",
  "COPILOT_PROJECT_DIR",
]);

/** Why a script's text is computed at run time (a substitution, a variable with data), or undefined when it is written out. */
function computedText(words: readonly ShWord[], cfg: Config): string | undefined {
  for (const w of words) {
    for (const part of w.parts) {
      if (part.kind === "sub") {
        const inner = shAnalyze(part.script ?? "", undefined).flatMap((p) => p.commands);
        const decoder = inner.map(decoderOf).find((d) => d !== undefined);
        if (decoder) return `decoded:${decoder}`;
        // One command of a known generator (ssh-agent -s, direnv export bash, brew shellenv …) prints setup code for the shell.
        if (inner.length === 1 && cfg.generators.has((inner[0] as ShCommand).name) && (inner[0] as ShCommand).argv.every((a) => !a.dynamic)) continue;
        return `the output of \`${clip(part.script ?? part.text, 80)}\``;
      }
      if (part.kind === "var" && !(part.name !== undefined && PLAIN_VARS.has(part.name))) return `the value of ${part.text}`;
    }
  }
  return undefined;
}

/**
 * Text computed at run time and run as a script: `eval "$(…)"`, `sh -c "$X"`, `bash -c "$(…)"`,
 * `source <(…)`, `bash <(…)`, and shells that xargs, parallel or find -exec feed their input to
 * (`… | xargs sh -c …`, `find … -exec sh -c '… {} …'`). The reader cannot see what runs.
 */
function computedShell(cmd: ShCommand, cfg: Config): Finding[] {
  const hint = "Write the commands out in the command itself (the shell reader checks them), or put them in a script file and run it.";
  const name = cmd.name;
  const finding = (why: string): Finding[] => {
    if (why.startsWith("decoded:"))
      return [
        {
          rule: "decode-to-shell",
          segment: cmd.raw,
          why: `${name} runs decoded text (${why.slice(8)}): what runs cannot be read before it runs`,
          hint: "Decode it to a file, read it, and run it only if it is what you mean.",
        },
      ];
    return [{ rule: "computed-shell", segment: cmd.raw, why: `${name} runs ${why} as shell code, text the command computes when it runs`, hint }];
  };
  if (cmd.viaXargs && cmd.argv.length === 0 && cmd.inputs === undefined && cmd.words.some((w) => /(^|\/)parallel$/.test(w.text))) {
    return [
      {
        rule: "computed-shell",
        segment: cmd.raw,
        why: "parallel without a command runs each line it reads as a command: what runs cannot be read before it runs",
        hint,
      },
    ];
  }
  if (cmd.viaXargs && (SHELL_RUNNERS.has(name) || name === "eval" || EVALUATORS.has(name))) {
    const runner = cmd.words.find((w) => /(^|\/)(xargs|parallel)$/.test(w.text))?.text.replace(/^.*\//, "") ?? "xargs";
    return [
      {
        rule: "computed-shell",
        segment: cmd.raw,
        why: `${runner} runs ${name} with text it reads from its input: what runs cannot be read before it runs`,
        hint,
      },
    ];
  }
  if (name === "find") {
    const texts = cmd.argv.map((w) => w.text);
    for (let j = 1; j < texts.length; j++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(texts[j] as string)) continue;
      const shell = texts[j + 1];
      const dashC = texts.indexOf("-c", j + 2);
      if (shell !== undefined && SHELL_RUNNERS.has(shell.replace(/^.*\//, "")) && dashC > 0 && (texts[dashC + 1] ?? "").includes("{}")) {
        return [
          {
            rule: "computed-shell",
            segment: cmd.raw,
            why: "find puts each file name into the shell script it runs ({} inside sh -c '…'), so a file's name becomes code",
            hint: "Pass the name as an argument instead: find … -exec sh -c '… \"$1\" …' sh {} \\;",
          },
        ];
      }
    }
  }
  if (name === "eval") {
    const why = computedText(cmd.argv.slice(1), cfg);
    return why ? finding(why) : [];
  }
  if (EVALUATORS.has(name) || SHELL_RUNNERS.has(name)) {
    // source <(…), bash <(…), . /dev/fd/… : a script file the command computes.
    const script = cmd.argv.slice(1).find((w) => !w.text.startsWith("-"));
    if (script && script.parts.length === 1 && script.parts[0]?.kind === "sub" && /^<\(/.test(script.text)) {
      const why = computedText([{ ...script, parts: [{ kind: "sub", text: script.text, script: script.subs[0] ?? "" }] }], cfg);
      if (why) return finding(why);
    }
  }
  if (SHELL_RUNNERS.has(name)) {
    const at = cmd.argv.findIndex((w, k) => k > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text) && !w.text.startsWith("--"));
    const script = at > 0 ? cmd.argv[at + 1] : undefined;
    const why = script ? computedText([script], cfg) : undefined;
    if (why) return finding(why);
  }
  return [];
}

/** The file a downloader writes: -o/--output/-O (curl: the URL's name), wget's -O, -P and the URL's name; "?" when not known. */
function downloadedFiles(cmd: ShCommand): string[] {
  const argv = cmd.argv.map((w) => w.text);
  const urls = argv.filter((t) => /^[a-z][a-z0-9+.-]*:\/\//i.test(t));
  const urlName = (): string => {
    const url = urls[urls.length - 1];
    if (url === undefined || cmd.argv.some((w) => w.dynamic && /:\/\//.test(w.text) === false && urls.length === 0)) return "?";
    const path = url.replace(/[?#].*$/, "").replace(/^[a-z]+:\/\/[^/]*/i, "");
    const name = path.slice(path.lastIndexOf("/") + 1);
    return name === "" ? "index.html" : name;
  };
  const value = (names: string[]): string | undefined => {
    for (let j = 1; j < argv.length; j++) {
      const t = argv[j] as string;
      for (const n of names) {
        if (t === n) return argv[j + 1];
        if (n.startsWith("--") && t.startsWith(`${n}=`)) return t.slice(n.length + 1);
        if (!n.startsWith("--") && t.startsWith(n) && t.length > n.length && !t.startsWith("--")) return t.slice(n.length);
      }
    }
    return undefined;
  };
  const out: string[] = [];
  for (const r of cmd.redirs) if ((r.op === ">" || r.op === ">>" || r.op === ">|") && r.target) out.push(r.target.dynamic ? "?" : r.target.text);
  if (cmd.name === "curl") {
    const o = value(["--output", "-o"]);
    if (o !== undefined && o !== "-") out.push(o);
    if (argv.some((t) => t === "-O" || t === "--remote-name" || t === "--remote-name-all" || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(t))) out.push(urlName());
  } else if (cmd.name === "wget") {
    const o = value(["--output-document", "-O"]);
    if (o === "-") return out;
    const dir = value(["--directory-prefix", "-P"]);
    out.push(o ?? (dir !== undefined ? `${dir}/${urlName()}` : urlName()));
  } else if (cmd.name === "aria2c") {
    out.push(value(["--out", "-o"]) ?? urlName());
  }
  return out;
}

/** A file a command runs: the script a shell or interpreter is given, or the program itself when it is a path. */
function executedFile(cmd: ShCommand): string | undefined {
  const name = /^python[0-9.]*$/.test(cmd.name) ? "python" : cmd.name;
  const program = cmd.argv[0]?.text ?? "";
  if (SHELL_RUNNERS.has(name) || INTERPRETERS[name] || name === "source" || name === "." || name === "ruby" || name === "deno" || name === "bun") {
    if (shInlineScript(cmd) !== undefined) return undefined;
    const inline = INTERPRETERS[name] ?? [];
    const { options, operands } = shOperands(cmd);
    if (options.some((o) => inline.includes(o.toLowerCase()))) return undefined;
    const script = name === "deno" || name === "bun" ? operands.find((w) => w.text !== "run") : operands[0];
    return script?.text;
  }
  return program.includes("/") ? program : undefined;
}

/**
 * Download, then run what was downloaded, in one command: `curl -o f URL && bash f`,
 * `curl -o f URL; chmod +x f; ./f`, `wget URL/x.sh && sh x.sh`. A download whose file name the
 * command does not give (curl -O "$URL") counts against any local script run after it.
 */
function downloadThenRun(pipelines: readonly ShPipeline[]): Finding[] {
  const downloads: { file: string; cwd: string | undefined; raw: string }[] = [];
  for (const pipeline of pipelines) {
    for (const cmd of pipeline.commands) {
      const file = executedFile(cmd);
      if (file !== undefined && downloads.length > 0) {
        const here = shResolve(cmd.cwd, file);
        const hit = downloads.find((d) =>
          d.file === "?"
            ? !/^\/(usr|bin|sbin|opt|etc)\//.test(here ?? file)
            : (shResolve(d.cwd, d.file) ?? d.file) === (here ?? file) || d.file.replace(/^.*\//, "") === file.replace(/^.*\//, ""),
        );
        if (hit) {
          return [
            {
              rule: "download-exec",
              segment: `${hit.raw} … ${cmd.raw}`,
              why: `it downloads ${hit.file === "?" ? "a file" : hit.file} and runs ${file} in the same command: remote code runs unseen`,
              hint: "Download it first, read it, then run it in a separate command (curl -fsSLo install.sh URL, then less install.sh, then sh install.sh).",
            },
          ];
        }
      }
      if (DOWNLOADERS.has(cmd.name)) for (const f of downloadedFiles(cmd)) downloads.push({ file: f, cwd: cmd.cwd, raw: cmd.raw });
    }
  }
  return [];
}

/** :(){ :|:& };:  and its spelled-out variants. Read on the text: a definition is not a simple command. */
function forkBombs(command: string): Finding[] {
  const text = command.length > 20_000 ? command.slice(0, 20_000) : command;
  const fn = /(?:^|[\s;&|(){}])(?:function\s+)?([A-Za-z_:.][\w:.-]*)\s*(?:\(\s*\))?\s*\{[^{}]*?\1\s*\|\s*&?\s*\1[^{}]*?&[^{}]*\}/;
  const loops =
    /\bfork\s*(?:\(\s*\))?\s*while\s+fork\b|\bwhile\s*\(\s*(?:1|true)\s*\)\s*\{?\s*fork\s*\(|\bfor\s*\(\s*;\s*;\s*\)\s*\{?\s*fork\s*\(|while\s+True\s*:\s*os\.fork\s*\(/;
  const m = fn.exec(text) ?? loops.exec(text);
  return m
    ? [{ rule: "fork-bomb", segment: command, why: "it is a fork bomb: it multiplies processes until the machine stops responding", hint: "" }]
    : [];
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

/** Programs that print setup code for the shell to eval or source: their output is theirs, not the agent's data. */
const DEFAULT_GENERATORS = [
  "ssh-agent",
  "direnv",
  "pyenv",
  "rbenv",
  "nodenv",
  "jenv",
  "goenv",
  "plenv",
  "fnm",
  "starship",
  "zoxide",
  "conda",
  "mamba",
  "micromamba",
  "brew",
  "mise",
  "rtx",
  "asdf",
  "opam",
  "dircolors",
  "thefuck",
  "keychain",
  "gpgconf",
  "kubectl",
  "helm",
  "gh",
  "docker",
  "npm",
  "pnpm",
  "rustup",
  "poetry",
  "pip",
  "uv",
  "deno",
  "bun",
  "atuin",
  "fzf",
  "mcfly",
  "navi",
  "register-python-argcomplete",
  "aws_completer",
  "terraform",
  "minikube",
  "kind",
  "oc",
  "glab",
  "git-lfs",
  "ng",
  "nx",
];

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
  const generators = Array.isArray(c.shell_generators) ? strings(c.shell_generators) : DEFAULT_GENERATORS;
  const max = typeof c.max_command_chars === "number" && c.max_command_chars > 0 ? c.max_command_chars : 50_000;
  return {
    ask: new Set(Array.isArray(c.ask_rules) ? strings(c.ask_rules) : ["computed-shell"]),
    generators: new Set(generators.map((g) => g.toLowerCase())),
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
