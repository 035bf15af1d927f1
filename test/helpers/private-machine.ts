// A throwaway machine inside this one, for the system tier's tests: a private mount namespace in
// which /etc, /usr/local and /var/lib are writable overlays over the real directories. Whatever
// root does in there (hookbox install --system at the real paths, useradd) lands in the overlays'
// upper directories under a temporary directory, and goes with it: the real /etc is never touched,
// on a developer's machine or in CI. Needs root, util-linux (unshare, nsenter, setpriv) and overlayfs.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onPath } from "./tools.ts";

/** The directories overlaid: what install --system writes, and where useradd writes. */
export const OVERLAID = ["/etc", "/usr/local", "/var/lib"] as const;

export interface MachineRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

export class PrivateMachine {
  private constructor(
    /** A temporary directory (0755) for everything of this machine outside the overlays. */
    readonly dir: string,
    private readonly holder: ChildProcess,
  ) {}

  /** Why a private machine cannot be made here, or undefined. */
  static unavailable(): string | undefined {
    if (process.getuid?.() !== 0) return "needs root (a mount namespace and overlays; CI runs as root)";
    for (const tool of ["unshare", "nsenter", "setpriv", "useradd"]) if (!onPath(tool)) return `${tool} is not on PATH (util-linux, passwd)`;
    const probe = spawnSync("unshare", ["-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs none /mnt && umount /mnt"], {
      encoding: "utf8",
    });
    if (probe.status !== 0) return `this machine refuses a private mount namespace (${(probe.stderr || probe.error?.message || "").trim()})`;
    return undefined;
  }

  static async start(): Promise<PrivateMachine> {
    const dir = mkdtempSync(join(tmpdir(), "hookbox-machine-"));
    chmodSync(dir, 0o755);
    const mounts = OVERLAID.map((target, index) => {
      for (const part of ["up", "work"]) mkdirSync(join(dir, "overlay", part, String(index)), { recursive: true });
      return `mount -t overlay overlay -o lowerdir=${target},upperdir=${dir}/overlay/up/${index},workdir=${dir}/overlay/work/${index} ${target}`;
    });
    const ready = join(dir, "ready");
    const holder = spawn("unshare", ["-m", "--propagation", "private", "sh", "-c", `${mounts.join(" && ")} && touch ${ready} && exec sleep 100000`], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    holder.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; i < 200 && !existsSync(ready); i++) {
      if (holder.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (!existsSync(ready)) {
      holder.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`the private machine did not start: ${stderr.trim()}`);
    }
    return new PrivateMachine(dir, holder);
  }

  private get pid(): number {
    return this.holder.pid as number;
  }

  /**
   * The argv that runs `argv` inside this machine, in `cwd` (entering a mount namespace moves a
   * process to its root), as `as` when given.
   */
  inside(argv: readonly string[], cwd: string, as?: RunAs): string[] {
    const user = as ? ["setpriv", `--reuid=${as.uid}`, `--regid=${as.gid}`, "--clear-groups", "--"] : [];
    return ["nsenter", "-t", String(this.pid), "-m", `--wd=${cwd}`, "--", ...user, ...argv];
  }

  /** Run a program inside; always resolves. */
  run(
    argv: readonly string[],
    options: { as?: RunAs; env?: Readonly<Record<string, string>>; cwd?: string; stdin?: string; timeoutMs?: number } = {},
  ): Promise<MachineRun> {
    const [file, ...args] = this.inside(argv, options.cwd ?? this.dir, options.as);
    return new Promise((resolve) => {
      const child = spawn(file as string, args, {
        cwd: this.dir,
        env: options.env ?? { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
      child.on("error", (error) => {
        clearTimeout(timer);
        resolve({ code: null, stdout, stderr: `${stderr}${error.message}` });
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      // A program that exits without reading its stdin (a refused attack) closes the pipe first.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.stdin ?? "");
    });
  }

  /** A shell script that runs `program` with its arguments inside this machine: what a harness that takes a binary's path can be given. */
  wrapper(name: string, program: readonly string[], as?: RunAs): string {
    const path = join(this.dir, `${name}-inside`);
    const quoted = this.inside(program, "@CWD@", as).map((word) => (word === "--wd=@CWD@" ? '"--wd=$PWD"' : `'${word.replaceAll("'", "'\\''")}'`));
    writeFileSync(path, `#!/bin/sh\nexec ${quoted.join(" ")} "$@"\n`, { mode: 0o755 });
    return path;
  }

  /**
   * Every file and directory under `roots`, as seen inside: kind, mode, owner and, for files, a
   * digest of the content. Two snapshots equal = nothing was added, removed or changed there
   * (directories' times aside).
   */
  async snapshot(roots: readonly string[]): Promise<Map<string, string>> {
    const script = `for root in ${roots.map((r) => `'${r}'`).join(" ")}; do [ -e "$root" ] || continue; find "$root" -xdev \\( -type f -printf 'f %p %m %U:%G ' -exec sha256sum {} \\; \\) -o \\( ! -type f -printf '%y %p %m %U:%G %l\\n' \\); done`;
    const ran = await this.run(["sh", "-c", script], { timeoutMs: 120_000 });
    if (ran.code !== 0) throw new Error(`snapshot failed: ${ran.stderr}`);
    const state = new Map<string, string>();
    for (const line of ran.stdout.split("\n").filter(Boolean)) {
      const [kind, path, ...rest] = line.split(" ");
      const value = kind === "f" ? `${kind} ${rest.slice(0, 2).join(" ")} ${rest[2]}` : `${kind} ${rest.join(" ")}`;
      state.set(path as string, value);
    }
    return state;
  }

  /** Every process still inside (a daemon an emit started, a squatter), killed; then the machine and its directory gone. */
  async stop(): Promise<void> {
    const mine = safeReadlink(`/proc/${this.pid}/ns/mnt`);
    for (let round = 0; round < 50; round++) {
      const inside = readdirSync("/proc").filter(
        (name) => /^\d+$/.test(name) && Number(name) !== this.pid && safeReadlink(`/proc/${name}/ns/mnt`) === mine,
      );
      if (inside.length === 0) break;
      for (const pid of inside) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.holder.kill("SIGKILL");
    await new Promise((resolve) => (this.holder.exitCode !== null ? resolve(undefined) : this.holder.once("exit", resolve)));
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

function safeReadlink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
