import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const BUILT_BINARY = resolve(import.meta.dirname, "../../dist/hookbox");

export interface RunResult {
  readonly code: number | null;
  /** Set when the program had to be killed: it outlived `timeoutMs`. */
  readonly signal?: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a program to its end with `stdin`, SIGKILLed after `timeoutMs` (default 30 s). */
export function runProgram(
  command: readonly string[],
  options: { stdin?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const [program, ...args] = command as [string, ...string[]];
    const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? {}, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    // A program that exits without reading its input (refused, or done early) closes the pipe
    // under the write: that EPIPE is the program's behaviour, which the result shows, not an error here.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin ?? "");
  });
}

/** dist/hookbox copied alone into an empty directory, run with an empty environment unless given one. */
export class LoneBinary {
  readonly dir = mkdtempSync(join(tmpdir(), "hookbox-e2e-"));
  readonly path = join(this.dir, "hookbox");

  constructor() {
    copyFileSync(BUILT_BINARY, this.path);
  }

  run(args: readonly string[], options: { stdin?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<RunResult> {
    return runProgram([this.path, ...args], { cwd: this.dir, env: {}, ...options });
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
