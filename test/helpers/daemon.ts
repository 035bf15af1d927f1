import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

/** One HTTP request over a unix socket (or to a TCP port), as a client would send it. */
export function call(
  socket: string | { port: number },
  method: string,
  path: string,
  body?: string | object,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const req = request(
      {
        ...(typeof socket === "string" ? { socketPath: socket } : { host: "127.0.0.1", port: socket.port }),
        method,
        path,
        headers: { "content-type": "application/json", ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolvePromise({ status: res.statusCode ?? 0, text, json });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(payload);
  });
}

/** A scratch world for a daemon: HOME, XDG dirs, a hooks directory. */
export class DaemonWorld {
  readonly dir = mkdtempSync(join(tmpdir(), "hookbox-daemon-"));
  readonly home = join(this.dir, "home");
  readonly runtimeDir = join(this.dir, "run");
  readonly hooks = join(this.dir, "hooks");
  readonly socket = join(this.runtimeDir, "hookbox", "hookbox.sock");
  readonly auditFile = join(this.home, ".local/share/hookbox/audit/hookbox-audit.jsonl");

  constructor() {
    for (const d of [this.home, this.runtimeDir, this.hooks]) mkdirSync(d, { recursive: true });
  }

  /**
   * The operator file with `daemon: { auto_start: false }`: emit evaluates in its own process
   * when no daemon answers, and starts none (suites about emit's own evaluation, or about a
   * daemon they start themselves).
   */
  withoutAutoStart(): this {
    const dir = join(this.home, ".config", "hookbox");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "hookbox.yaml"), "daemon: { auto_start: false }\n");
    return this;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { HOME: this.home, XDG_RUNTIME_DIR: this.runtimeDir, PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
  }

  cleanup(): void {
    this.stopAutoStarted();
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }

  /**
   * The daemons emit started in this world (their socket is under its runtime directory) are
   * stopped: one that served a SessionStart holds its session open and would outlive the test by
   * hours (the session bound), after its world is gone.
   */
  private stopAutoStarted(): void {
    if (!existsSync("/proc")) return;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        if (argv.includes("serve") && argv.some((arg) => arg.startsWith(`${this.runtimeDir}/`))) process.kill(Number(pid), "SIGTERM");
      } catch {
        // gone already, or not ours to read
      }
    }
  }
}

/** A running `serve` (the binary, or the sources under node or deno). */
export class DaemonProcess {
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  private constructor(readonly child: ChildProcess) {
    child.stderr?.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((r) => child.on("exit", (code, signal) => r({ code, signal })));
  }

  /**
   * `serve --hooks <world.hooks>` by default; with `{ defaultHooks: true }`, the defaults instead
   * (each event's project, the user's hooks, the operator file's): what an agent's `emit` resolves.
   */
  static async start(
    command: readonly string[],
    world: DaemonWorld,
    args: readonly string[] = [],
    env: Record<string, string> = {},
    options: { defaultHooks?: boolean } = {},
  ): Promise<DaemonProcess> {
    const [program, ...rest] = command as [string, ...string[]];
    const hooks = options.defaultHooks ? [] : ["--hooks", world.hooks];
    const child = spawn(program, [...rest, "serve", ...hooks, ...args], { cwd: world.dir, env: world.env(env), stdio: ["ignore", "pipe", "pipe"] });
    const daemon = new DaemonProcess(child);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${daemon.stderr}`);
      if (existsSync(world.socket)) {
        // Up means answering: "degraded" (a broken hook, say) is an answer too.
        const ok = await call(world.socket, "GET", "/healthz")
          .then((r) => r.status === 200 || (r.json as { status?: string } | undefined)?.status === "degraded")
          .catch(() => false);
        if (ok) return daemon;
      }
      if (Date.now() > deadline) throw new Error(`serve did not come up: ${daemon.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: string | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
