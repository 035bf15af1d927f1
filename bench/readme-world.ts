// The setup a user who follows the README has (issue 17): every standard hook enabled in the
// operator file, one project with a hook of its own, the agent's hook entries running
// `hookbox emit` with no daemon started by hand. A temporary HOME; helpers to find, wait for and
// stop the daemons emit starts there.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, CLAUDE_PAYLOAD, post, ROOT } from "./env.ts";

const SECRET_HOOK = readFileSync(join(ROOT, "bench/hooks/secret-check.ts"), "utf8");
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Every standard hook this build carries (handlers/ minus the guest library). */
export function standardHookIds(): string[] {
  return readdirSync(join(ROOT, "handlers"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, "handlers", entry.name, "hook.yaml")))
    .map((entry) => entry.name)
    .sort();
}

export interface ReadmeWorld {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  readonly env: Record<string, string>;
  readonly runDir: string;
  readonly cacheDir: string;
  /** A project of its own (a repository with one hook), for "N projects loaded". */
  addProject(name: string): string;
  cleanup(): void;
}

export function readmeWorld(): ReadmeWorld {
  const root = mkdtempSync(join(tmpdir(), "hookbox-bench-readme-"));
  const home = join(root, "home");
  const runDir = join(root, "run");
  mkdirSync(join(home, ".config", "hookbox"), { recursive: true });
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(home, ".config", "hookbox", "hookbox.yaml"), `builtin: [${standardHookIds().join(", ")}]\n`);
  const addProject = (name: string): string => {
    const project = join(root, name);
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "src", "app.ts"), "export const x = 1;\n");
    const hook = join(project, ".hookbox", "hooks", "secret-path");
    mkdirSync(hook, { recursive: true });
    writeFileSync(join(hook, "hook.yaml"), `id: secret-path\nevents: [PreToolUse]\nmatch: { tool: "Write|Edit" }\nhandler: ./handler.ts\n`);
    writeFileSync(join(hook, "handler.ts"), SECRET_HOOK);
    return project;
  };
  const project = addProject("project");
  return {
    root,
    home,
    project,
    runDir,
    env: { HOME: home, XDG_RUNTIME_DIR: runDir, PATH: "/usr/bin:/bin" },
    cacheDir: join(home, ".local", "share", "hookbox", "cache"),
    addProject,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The Claude Code payloads of one tool call in `project`: a Write to src/app.ts, before and after. */
export function toolCall(project: string, session = "bench"): { pre: string; post: string } {
  const input = { file_path: join(project, "src", "app.ts"), content: "export const x = 1;\n" };
  const base = { ...CLAUDE_PAYLOAD, session_id: session, cwd: project, tool_name: "Write", tool_input: input };
  return {
    pre: JSON.stringify({ ...base, hook_event_name: "PreToolUse" }),
    post: JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_response: { filePath: input.file_path, success: true } }),
  };
}

interface DaemonState {
  readonly socket: string;
  readonly pid: number;
  readonly events: number;
}

/** The daemons answering in the world's runtime directory. */
export async function daemonsOf(world: ReadmeWorld): Promise<DaemonState[]> {
  const dir = join(world.runDir, "hookbox");
  if (!existsSync(dir)) return [];
  const found: DaemonState[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".sock"))) {
    const socket = join(dir, name);
    const reply = await post(socket, "/v1/daemon", undefined, "GET").catch(() => undefined);
    if (reply?.status === 200) {
      const info = JSON.parse(reply.text) as { pid: number; events: number };
      found.push({ socket, pid: info.pid, events: info.events });
    }
  }
  return found;
}

/** The daemon emit started, once it answers. */
export async function waitForDaemon(world: ReadmeWorld, timeoutMs = 30_000): Promise<DaemonState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [daemon] = await daemonsOf(world);
    if (daemon) return daemon;
    if (Date.now() > deadline) throw new Error("no daemon came up");
    await sleep(20);
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stop every daemon of the world and wait until their processes (and workers) are gone. */
export async function stopDaemons(world: ReadmeWorld): Promise<void> {
  for (const daemon of await daemonsOf(world)) {
    await post(daemon.socket, "/v1/daemon/stop").catch(() => undefined);
    const deadline = Date.now() + 20_000;
    while (alive(daemon.pid) && Date.now() < deadline) await sleep(5);
  }
}

/** emit as the agent runs it, once, checked: exit 0 and no output (the Write is allowed). */
export function emitOnce(world: ReadmeWorld, payload: string, cwd = world.project): void {
  const run = spawnSync(BINARY, ["emit", "--agent", "claude"], { cwd, env: world.env, input: payload, encoding: "utf8" });
  if (run.status !== 0 || run.stdout.trim() !== "") throw new Error(`emit: exit ${run.status}, stdout ${run.stdout}, stderr ${run.stderr}`);
}
