/**
 * The shell reader against real bash. Each generated command (commands.ts) runs in bash in a
 * fresh copy of a scratch workspace — no network, a read-only file system outside the scratch
 * directory (unshare: user, mount and network namespaces), a stub PATH holding only the
 * programs the cases use — and the files bash really created, changed or removed are compared
 * with what hookbox:shell's shWrites says the command writes. Alongside, guard-secrets itself
 * (compiled as it ships, run in the QuickJS sandbox) judges the command; a protected file that
 * bash wrote while the reader missed it, or while the guard let the command through, is a miss.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { compileHandler, createHandlerSpec, type HandlerSpec, type SandboxEngine } from "../../sandbox/index.ts";
import { guestModuleSources } from "../../src/hooks/builtin/index.ts";
import { shLiteralPattern, shPatternMatches, shPatternText, shWrites } from "../../handlers/lib/shell/index.ts";
import { withLinkTargets } from "../../src/hooks/registry/link-targets.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { createEngine, limits, noHost } from "../helpers/sandbox.ts";
import { generateCases, slugOf, TARGETS, type ShellCase } from "./commands.ts";

const HANDLERS = resolve(import.meta.dirname, "../../handlers");
/** Programs the cases may run; the stub PATH links each to the real one. */
const PROGRAMS = [
  "bash",
  "sh",
  "cat",
  "cp",
  "mv",
  "rm",
  "ln",
  "mkdir",
  "touch",
  "tee",
  "dd",
  "truncate",
  "install",
  "sed",
  "awk",
  "perl",
  "python3",
  "node",
  "git",
  "find",
  "xargs",
  "ls",
  "mktemp",
  "env",
  "true",
  "false",
  "tar",
  "gzip",
  "unzip",
];

export type Coverage = "file" | "directory" | "missed";

export interface CaseResult {
  readonly form: string;
  readonly command: string;
  /** Files bash created, changed or removed (workspace-relative, ~/… for the home directory). */
  readonly written: readonly { path: string; protected: boolean; coverage: Coverage }[];
  /** What the reader said the command writes (patterns as text). */
  readonly predicted: readonly string[];
  /** Predicted paths nothing was written to (over-approximation: not a failure). */
  readonly extra: number;
  /** The form writes what only it knows below a directory (archives): the directory is what the reader can name. */
  readonly contents?: boolean;
  readonly guard: "deny" | "allow";
  readonly skipped?: string;
}

export interface Differential {
  readonly results: readonly CaseResult[];
  /** Why the run could not happen at all (no unshare …), or undefined. */
  readonly unavailable?: string;
}

/** Can the cases run here: bash, and unshare with user, mount and network namespaces? */
export function sandboxUnavailable(): string | undefined {
  if (process.platform !== "linux") return `the differential test needs Linux namespaces (this is ${process.platform})`;
  const probe = spawnSync(UNSHARE, ["-rmn", "true"], { stdio: "ignore" });
  if (probe.error) return "unshare (util-linux) is not installed";
  if (probe.status !== 0) return "unshare -rmn is refused here (unprivileged user namespaces are disabled)";
  if (spawnSync("bash", ["-c", "true"]).status !== 0) return "bash is not installed";
  return undefined;
}

/** The real program behind a name on this machine's PATH (pyenv shims resolved to the interpreter). */
function realProgram(name: string): string | undefined {
  if (name === "python3") {
    const found = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
    return found.status === 0 ? found.stdout.trim() : undefined;
  }
  const found = spawnSync("bash", ["-c", `command -v ${name}`], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path.startsWith("/") ? realpathSync(path) : undefined;
}

/** The scratch template: a workspace with secrets, sources and a git repository; a home with ~/.ssh; the stub PATH. */
function makeTemplate(root: string): { template: string; available: Set<string> } {
  const template = join(root, "template");
  const w = join(template, "w");
  for (const dir of ["w/src", "w/config", "w/certs", "w/build", "home/.ssh", "tmp", "bin"]) mkdirSync(join(template, dir), { recursive: true });
  const files: Record<string, string> = {
    ".env": "K=1\n",
    ".env.example": "K=\n",
    id_rsa: "KEY\n",
    "server.key": "KEY\n",
    "certs/site.pem": "PEM\n",
    "config/.env.production": "K=2\n",
    "a.txt": "x\n",
    "notes.txt": "n\n",
    "src/app.ts": "export {}\n",
    "build/out.js": "1\n",
  };
  for (const [path, content] of Object.entries(files)) writeFileSync(join(w, path), content);
  writeFileSync(join(template, "home/.ssh/authorized_keys"), "ssh-ed25519 A\n");
  const git = (...args: string[]): void =>
    void execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd: w, stdio: "ignore" });
  const available = new Set<string>();
  for (const name of PROGRAMS) {
    const real = realProgram(name);
    if (!real) continue;
    symlinkSync(real, join(template, "bin", name));
    available.add(name);
  }
  // Issue 27: a symbolic link to each target (w/links/<slug>), and an archive of each (w/arch/<slug>.tar,
  // .tgz, .zip) holding it under its own path (below the workspace, or below home for ~/…).
  mkdirSync(join(w, "links"));
  mkdirSync(join(template, "arch-src"));
  for (const target of TARGETS) {
    const slug = slugOf(target.path);
    const inHome = target.path.startsWith("~/");
    const relative = inHome ? target.path.slice(2) : target.path;
    symlinkSync(inHome ? `../../home/${relative}` : `../${relative}`, join(w, "links", slug));
    const src = join(template, "arch-src", slug);
    mkdirSync(join(src, relative, ".."), { recursive: true });
    writeFileSync(join(src, relative), `from an archive: ${target.path}\n`);
  }
  mkdirSync(join(w, "arch"));
  for (const target of TARGETS) {
    const slug = slugOf(target.path);
    const relative = target.path.replace(/^~\//, "");
    const src = join(template, "arch-src", slug);
    spawnSync("tar", ["-cf", join(w, "arch", `${slug}.tar`), "-C", src, relative]);
    spawnSync("tar", ["-czf", join(w, "arch", `${slug}.tgz`), "-C", src, relative]);
    // The unzip cases need zip to make their archives.
    if (spawnSync("zip", ["-qr", join(w, "arch", `${slug}.zip`), relative], { cwd: src }).status !== 0) available.delete("unzip");
  }
  rmSync(join(template, "arch-src"), { recursive: true, force: true });
  if (available.has("git")) {
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "one");
    git("checkout", "-qb", "other");
    for (const path of [".env", "id_rsa", "config/.env.production", "notes.txt"]) writeFileSync(join(w, path), `other ${path}\n`);
    git("commit", "-qam", "two");
    git("checkout", "-q", "main");
    // Changed since the last commit: git restore/stash/checkout -- have something to do.
    for (const path of [".env", "id_rsa", "config/.env.production", "notes.txt"]) writeFileSync(join(w, path), `changed ${path}\n`);
  }
  return { template, available };
}

/**
 * What is on disk below `dir`, by path relative to it: type, size, modification time (ns) and
 * link target of every file and link, and which directories exist. A directory's own time
 * changes with its entries, so directories count only when they appear or go.
 */
function snapshot(dir: string, skip: (relative: string) => boolean, into = new Map<string, string>(), prefix = ""): Map<string, string> {
  for (const name of readdirSync(join(dir, prefix))) {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (skip(relative)) continue;
    const info = lstatSync(join(dir, relative), { bigint: true });
    if (info.isDirectory()) {
      into.set(relative, "dir");
      snapshot(dir, skip, into, relative);
    } else into.set(relative, `${info.mode}:${info.size}:${info.mtimeNs}:${info.isSymbolicLink() ? readlinkSync(join(dir, relative)) : ""}`);
  }
  return into;
}

const SKIP = (relative: string): boolean => relative === "bin" || relative === "w/.git";

/** Run one case in a fresh copy of the template (cp -a keeps every time, so the template's snapshot is the copy's); the logical paths it wrote. */
function runCase(
  template: { dir: string; before: Map<string, string> },
  root: string,
  c: ShellCase,
  n: number,
): { scratch: string; written: string[] } {
  const scratch = join(root, `case-${n}`);
  // The jail itself needs cp, mount and awk from the system; the command gets only the stub PATH.
  const env = { PATH: SYSTEM_PATH, HOME: join(scratch, "home"), TMPDIR: join(scratch, "tmp"), LANG: "C", GIT_CONFIG_NOSYSTEM: "1" };
  spawnSync(
    UNSHARE,
    [
      "-rmn",
      "/bin/sh",
      "-c",
      JAIL,
      "jail",
      template.dir,
      scratch,
      join(scratch, "w"),
      join(scratch, "bin"),
      join(scratch, "bin/bash"),
      "-c",
      c.command,
    ],
    { env, stdio: "ignore", timeout: 10_000 },
  );
  const after = snapshot(scratch, SKIP);
  const written = [...new Set([...template.before.keys(), ...after.keys()])].filter((p) => template.before.get(p) !== after.get(p));
  return { scratch, written: written.map((p) => logical(scratch, join(scratch, p))) };
}

/** Inside the namespaces: a copy of the template as the scratch directory, writable; every other mount read-only. */
const JAIL = `T="$1"; S="$2"; W="$3"; STUB="$4"; shift 4
cp -a "$T" "$S" || exit 89
mount --bind "$S" "$S" || exit 90
awk '{print $2}' /proc/self/mounts | while read -r m; do
  case "$m" in "$S"|"$S"/*) continue;; esac
  mount -o remount,bind,ro "$m" 2>/dev/null
done
cd "$W" || exit 91
PATH="$STUB" exec "$@" < /dev/null`;
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const UNSHARE = ["/usr/bin/unshare", "/bin/unshare"].find((p) => existsSync(p)) ?? "unshare";

/** Scratch paths as the reader names them: the workspace as is, the home as ~, the temporary directory as /tmp. */
function logical(scratch: string, path: string): string {
  const home = join(scratch, "home");
  const tmp = join(scratch, "tmp");
  if (path === home || path.startsWith(`${home}/`)) return `~${path.slice(home.length)}`;
  if (path === tmp || path.startsWith(`${tmp}/`)) return `/tmp${path.slice(tmp.length)}`;
  return path;
}

/** guard-secrets as it ships: its handler and config, compiled with the guest library. */
async function guardSecrets(): Promise<{ spec: HandlerSpec }> {
  const dir = join(HANDLERS, "guard-secrets");
  const yaml = parse(readFileSync(join(dir, "hook.yaml"), "utf8")) as { config: Record<string, unknown> };
  const compiled = await compileHandler(readFileSync(join(dir, "handler.ts"), "utf8"), join(dir, "handler.ts"), guestModuleSources);
  if (!compiled.ok) throw new Error(compiled.failure.message);
  return {
    spec: await createHandlerSpec({ id: "guard-secrets", handler: compiled.handler, hookData: { id: "guard-secrets", config: yaml.config } }),
  };
}

async function decide(engine: SandboxEngine, spec: HandlerSpec, event: Record<string, unknown>): Promise<"deny" | "allow"> {
  const input = event.tool_input;
  // The limits guard-secrets ships with (hook.yaml): a command it cannot judge in time fails the test, not just denies.
  const outcome = await engine.invoke(spec, event, limits({ cpuMs: 500, memoryBytes: 32 * 1024 * 1024, timeoutMs: 2000 }), noHost);
  if (!outcome.ok) throw new Error(`guard-secrets failed on ${JSON.stringify(input).slice(0, 200)}: ${outcome.failure.message}`);
  return (outcome.value as { action?: string } | undefined)?.action === "deny" ? "deny" : "allow";
}

/** Run every case (or the first `limit`); `onCase` sees each result as it comes. */
export async function runDifferential(options: { limit?: number } = {}): Promise<Differential> {
  const unavailable = sandboxUnavailable();
  if (unavailable) return { results: [], unavailable };
  const root = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-shdiff-")));
  chmodSync(root, 0o755);
  const engine = await createEngine();
  try {
    const { template, available } = makeTemplate(root);
    // Only git's cases need the repository: the others copy a template without it.
    const plain = join(root, "template-plain");
    execFileSync("/bin/cp", ["-a", template, plain]);
    rmSync(join(plain, "w/.git"), { recursive: true, force: true });
    const templates = { git: { dir: template, before: snapshot(template, SKIP) }, plain: { dir: plain, before: snapshot(plain, SKIP) } };
    const { spec } = await guardSecrets();
    const protectedCache = new Map<string, boolean>();
    const results: CaseResult[] = [];
    const cases = generateCases().slice(0, options.limit);
    for (const [n, c] of cases.entries()) {
      const missing = c.needs.filter((name) => !available.has(name));
      if (missing.length > 0) {
        results.push({
          form: c.form,
          command: c.command,
          written: [],
          predicted: [],
          extra: 0,
          guard: "allow",
          skipped: `${missing.join(", ")} not installed`,
        });
        continue;
      }
      const { scratch, written } = runCase(c.needs.includes("git") ? templates.git : templates.plain, root, c, n);
      const cwd = join(scratch, "w");
      const targets = shWrites(c.command, cwd);
      // The event as the host hands it to the guards: what the command writes through a symbolic link, resolved (link_targets).
      const event = await withLinkTargets(
        { event_type: "PreToolUse", session_id: "d", timestamp: "t", cwd, tool_name: "Bash", tool_input: { command: c.command } },
        nodeFileHost,
        join(scratch, "home"),
      );
      const linked = Object.values(event.link_targets ?? {}).map((real) => shLiteralPattern(logical(scratch, real)));
      const patterns = [...targets.flatMap((t) => t.patterns), ...linked];
      const covered = (path: string): Coverage => {
        if (patterns.some((p) => shPatternMatches(p, path))) return "file";
        const parts = path.split("/");
        for (let k = parts.length - 1; k > 0; k--) if (patterns.some((p) => shPatternMatches(p, parts.slice(0, k).join("/")))) return "directory";
        return "missed";
      };
      const isProtected = async (path: string): Promise<boolean> => {
        const key = path.replace(scratch, "");
        if (!protectedCache.has(key))
          protectedCache.set(
            key,
            (await decide(engine, spec, {
              event_type: "PreToolUse",
              session_id: "d",
              timestamp: "t",
              cwd,
              tool_name: "Write",
              tool_input: { file_path: path, content: "x" },
            })) === "deny",
          );
        return protectedCache.get(key) as boolean;
      };
      const files = [];
      for (const path of written) files.push({ path: path.replace(`${cwd}/`, ""), protected: await isProtected(path), coverage: covered(path) });
      const extra = patterns.filter((p) => !written.some((w) => shPatternMatches(p, w))).length;
      const guard = await decide(engine, spec, event as unknown as Record<string, unknown>);
      results.push({
        form: c.form,
        command: c.command,
        written: files,
        predicted: patterns.map((p) => shPatternText(p).replace(`${cwd}/`, "")),
        extra,
        guard,
        ...(c.contents ? { contents: true } : {}),
      });
      rmSync(scratch, { recursive: true, force: true });
    }
    return { results };
  } finally {
    engine.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

/** A protected file bash wrote that the reader did not name as a file, or that the guard let through. */
export function protectedMisses(results: readonly CaseResult[]): { form: string; command: string; path: string; why: string }[] {
  return results.flatMap((r) =>
    r.written
      // An archive's members are only known to it: there, naming the directory it writes into is the reader's answer.
      .filter((w) => w.protected && (w.coverage === "missed" || (w.coverage === "directory" && !r.contents) || r.guard === "allow"))
      .map((w) => ({
        form: r.form,
        command: r.command,
        path: w.path,
        why:
          w.coverage === "missed"
            ? "the reader missed it"
            : w.coverage === "directory" && !r.contents
              ? "the reader only named its directory"
              : "guard-secrets allowed the command",
      })),
  );
}
