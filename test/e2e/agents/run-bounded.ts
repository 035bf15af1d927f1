// Spawning an agent CLI with a wall-clock bound, probing its version, and reading its JSON-lines output.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BoundedRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Spawn in a process group of its own so a timeout kills the CLI and every hook it started, and
 * wait for exit. stdin is closed at once: both CLIs append piped stdin to a `-p` prompt.
 */
export function runBounded(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<BoundedRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const killGroup = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup(); // background hooks left behind die with the run
      resolvePromise({ code, stdout, stderr, timedOut });
    });
  });
}

/** One parsed object per JSON line; other lines (banners, warnings) are skipped. */
export function parseJsonLines<T>(text: string): T[] {
  return text.split("\n").flatMap((line) => {
    if (!line.trim().startsWith("{")) return [];
    try {
      return [JSON.parse(line) as T];
    } catch {
      return [];
    }
  });
}

/** `<command> --version` with a throwaway HOME, so probing writes nothing into a shared one. */
export function probeVersion(command: string, args: readonly string[]): SpawnSyncReturns<string> {
  const home = mkdtempSync(join(tmpdir(), "hookbox-agent-probe-"));
  try {
    return spawnSync(command, [...args, "--version"], {
      encoding: "utf8",
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    });
  } finally {
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
