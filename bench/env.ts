// What the suites share: the built binary, daemons with N copies of the benchmark hook, compiled
// helper binaries, one request over a unix socket, one whole process run, and process memory.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");
export const BINARY = join(ROOT, "dist/hookbox");
const BUILD_DIR = join(ROOT, "bench/.build");
const BUN = join(ROOT, "node_modules/.bin/bun");

export const CLAUDE_PAYLOAD = JSON.parse(readFileSync(join(ROOT, "test/fixtures/agents/claude-code/PreToolUse-5.json"), "utf8")) as Record<
  string,
  unknown
>;
/** A Write to an ordinary file: every contender runs its whole check and allows it. */
export const WRITE_EVENT = {
  ...CLAUDE_PAYLOAD,
  tool_name: "Write",
  tool_input: { file_path: "/home/dev/project/src/app.ts", content: "export const x = 1;\n" },
};

export function ensureBinary(): void {
  if (!existsSync(BINARY) || process.env.BENCH_REBUILD === "1") spawnSync(BUN, ["build.ts"], { cwd: ROOT, stdio: "inherit" });
}

/** bun build --compile of a small file, cached in bench/.build (rebuilt when the source is newer). */
export function compiled(name: string, entry: string): string {
  mkdirSync(BUILD_DIR, { recursive: true });
  const out = join(BUILD_DIR, name);
  if (!existsSync(out) || statSync(join(ROOT, entry)).mtimeMs > statSync(out).mtimeMs) {
    const result = spawnSync(BUN, ["build", "--compile", "--minify", entry, "--outfile", out], { cwd: ROOT, stdio: "pipe" });
    if (result.status !== 0) throw new Error(`could not compile ${entry}: ${result.stderr}`);
  }
  return out;
}

const HOOK_SOURCE = readFileSync(join(ROOT, "bench/hooks/secret-check.ts"), "utf8");

export interface Daemon {
  readonly socket: string;
  readonly home: string;
  readonly process: ChildProcess;
  pids(): number[];
  stop(): Promise<void>;
}

/** A hook directory holding `hooks` copies of the secret-path hook, all matching Write|Edit. */
export function writeHooks(hooksDir: string, hooks: number): void {
  mkdirSync(hooksDir, { recursive: true });
  for (let i = 0; i < hooks; i++) {
    const dir = join(hooksDir, `secret-path-${i}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, "hook.yaml"),
      `id: secret-path-${i}\nevents: [PreToolUse]\npriority: ${i}\nmatch: { tool: "Write|Edit" }\nhandler: ./handler.ts\nlimits: { cpu_ms: 50, memory_mb: 16 }\n`,
    );
    writeFileSync(join(dir, "handler.ts"), HOOK_SOURCE);
  }
}

/** `hookbox serve` with `hooks` copies of the secret-path hook, all matching Write|Edit. */
export async function startDaemon(hooks: number, extraArgs: readonly string[] = [], binary = BINARY): Promise<Daemon> {
  const home = mkdtempSync(join(tmpdir(), "hookbox-bench-"));
  const hooksDir = join(home, "hooks");
  writeHooks(hooksDir, hooks);
  const socket = join(home, "run/hookbox/hookbox.sock");
  const child = spawn(binary, ["serve", "--hooks", hooksDir, ...extraArgs], {
    env: { HOME: home, XDG_RUNTIME_DIR: join(home, "run"), PATH: "/usr/bin:/bin" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr?.on("data", (c: Buffer) => (log += c.toString()));
  const deadline = Date.now() + 30_000;
  while (
    !(await post(socket, "/healthz", undefined, "GET")
      .then((r) => r.status === 200)
      .catch(() => false))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`daemon did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    socket,
    home,
    process: child,
    pids: () => [child.pid as number, ...childPids(child.pid as number)],
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface BareServer {
  readonly socket: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** bench/hooks/bare-hono.ts compiled with Bun, on a unix socket: a server that does nothing but answer. */
export async function startBareHono(): Promise<BareServer> {
  const binary = compiled("bare-hono", "bench/hooks/bare-hono.ts");
  const dir = mkdtempSync(join(tmpdir(), "hookbox-bench-bare-"));
  const socket = join(dir, "bare.sock");
  const child = spawn(binary, [socket], { env: { PATH: "/usr/bin:/bin" }, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr?.on("data", (c: Buffer) => (log += c.toString()));
  const deadline = Date.now() + 30_000;
  while (
    !(await post(socket, "/v1/events/PreToolUse", WRITE_EVENT)
      .then((r) => r.status === 200)
      .catch(() => false))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`bare-hono did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    socket,
    process: child,
    stop: async () => {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One request over a unix socket (Bun's fetch), as an orchestrator would send it. */
export async function post(socket: string, path: string, body?: unknown, method = "POST"): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://localhost${path}`, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
    unix: socket,
  } as RequestInit);
  return { status: response.status, text: await response.text() };
}

/** Run a whole process with stdin, as an agent runs a command hook. */
export function runProcess(
  command: readonly string[],
  stdin: string,
  env: Record<string, string> = { PATH: "/usr/bin:/bin" },
  cwd?: string,
): Promise<number> {
  return new Promise((done, fail) => {
    const [program, ...args] = command as [string, ...string[]];
    const child = spawn(program, args, { env, stdio: ["pipe", "ignore", "ignore"], ...(cwd ? { cwd } : {}) });
    child.on("error", fail);
    child.on("exit", (code) => done(code ?? -1));
    // A program that does not read its stdin (hello world) may exit before the payload is written.
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
  });
}

export function childPids(pid: number): number[] {
  const out = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).stdout.trim();
  return out ? out.split("\n").map(Number) : [];
}

/** Resident and proportional set size (shared binary pages divided among the processes mapping them). */
export function memory(pid: number): { rss: number; pss: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb("Rss"), pss: kb("Pss") };
}

/** The process's peak resident set size so far (VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(text)?.[1] ?? 0) * 1024;
}

/** CPU time (user + system) the process has used so far, in ms (/proc/PID/stat, 100 ticks a second). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15)
  } catch {
    return 0; // exited
  }
}

export const MiB = 1024 * 1024;
