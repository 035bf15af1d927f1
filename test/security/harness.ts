import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { stringify } from "yaml";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld, type Reply } from "../helpers/daemon.ts";

/**
 * A daemon (the built binary) with canaries around it: secrets in its environment and files
 * outside every grant. Hostile hooks run in it; after each one the suite checks the run was
 * contained with the expected code, that the daemon still answers, that the audit log has the
 * record, and that no canary was read, changed, or shown anywhere.
 */

/** In the daemon's environment: a hook must never see them (docs/permissions.md, env and run). */
export const SECRET_ENV = {
  ANTHROPIC_API_KEY: `canary-${randomUUID()}`,
  GITHUB_TOKEN: `canary-gh-${randomUUID()}`,
  AWS_SECRET_ACCESS_KEY: `canary-aws-${randomUUID()}`,
} as const;

/** Content of the canary files (outside every grant). */
export const FILE_CANARY = `canary-file-${randomUUID()}`;
export const HOME_CANARY = `canary-home-${randomUUID()}`;

export const NEEDLES: readonly string[] = [...Object.values(SECRET_ENV), FILE_CANARY, HOME_CANARY];

export interface HookDef {
  readonly id: string;
  /** Default: [`sec.<id>`]. */
  readonly events?: readonly string[];
  /** The handler's TypeScript source (inline `handler: { code }`). */
  readonly source: string;
  readonly permissions?: Record<string, unknown>;
  readonly limits?: Record<string, number>;
  readonly isolation?: "warm" | "fresh";
  readonly on_error?: "continue" | "deny";
  readonly match?: Record<string, unknown>;
  /** Raw YAML instead of the above (for hooks that must not load). */
  readonly yaml?: string;
}

export interface RunSummary {
  readonly hook_id: string;
  readonly status: string;
  readonly reason?: string;
  readonly error_code?: string;
}

export interface Decision {
  readonly event_id: string;
  readonly decision: string;
  readonly reason?: string;
  readonly data?: Record<string, unknown>;
  readonly context_injections: readonly { hook_id: string; role: string; content: string }[];
  readonly user_messages: readonly { hook_id: string; message: string }[];
  readonly runs: readonly RunSummary[];
}

export interface AuditRecord {
  readonly v: number;
  readonly id: string;
  readonly event_id: string;
  readonly hook_id: string;
  readonly status: string;
  readonly reason?: string;
  readonly error_code?: string;
  readonly host_calls: readonly { capability: string; target: string; outcome: string; detail?: string }[];
  readonly logs: readonly { level: string; message: string }[];
  readonly injections: readonly { role: string; content: string }[];
  readonly notes?: readonly string[];
}

export interface Fired extends Reply {
  readonly decision: Decision;
  run(hookId: string): RunSummary;
}

export interface Mark {
  readonly auditBytes: number;
  readonly stderrChars: number;
}

interface CanaryStat {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly atimeMs: number;
  readonly ctimeMs: number;
}

const OLD_ATIME = new Date("2000-01-01T00:00:00Z");
const OLD_MTIME = new Date("2001-01-01T00:00:00Z");

const BENIGN: HookDef = { id: "benign", source: `export default (e: { n: string }) => ({ action: "deny", reason: "benign:" + e.n })` };
/** Returns nothing but a reason: if anything had polluted the daemon's prototypes with an action, this would stop being a plain allow. */
const PLAIN: HookDef = { id: "plain", source: `export default () => ({ reason: "plain" })` };

/** Whether reading a file updates its access time here (relatime with atime <= mtime): then "unread" is checkable. */
function atimeTracksReads(dir: string): boolean {
  const probe = join(dir, "atime-probe");
  writeFileSync(probe, "probe");
  utimesSync(probe, OLD_ATIME, OLD_MTIME);
  const fd = openSync(probe, "r");
  readSync(fd, Buffer.alloc(5), 0, 5, 0);
  closeSync(fd);
  return statSync(probe).atimeMs !== OLD_ATIME.getTime();
}

export interface FortressOptions {
  readonly workers?: number;
  /** hookbox.yaml (the operator file), as an object. */
  readonly operator?: Record<string, unknown>;
  /** Extra daemon arguments. */
  readonly args?: readonly string[];
  /** Prefix the daemon's command (e.g. ["unshare", "-rn"]). */
  readonly wrap?: readonly string[];
  /** Build workspace fixtures before the daemon starts. */
  readonly prepare?: (fortress: Fortress) => void | Promise<void>;
}

export class Fortress {
  readonly world = new DaemonWorld();
  /** The event's cwd: `${workspace}` in grants. Real path (no symlink above it). */
  readonly workspace: string;
  /** Outside every grant: holds the canary file. */
  readonly outside: string;
  readonly canaryFile: string;
  readonly homeCanary: string;
  readonly atimeTracked: boolean;
  daemon!: DaemonProcess;
  private canaries: CanaryStat[] = [];
  private canaryPaths: string[] = [];
  private counter = 0;

  private constructor() {
    const dir = realpathSync(this.world.dir);
    this.workspace = join(dir, "workspace");
    this.outside = join(dir, "outside");
    mkdirSync(this.workspace, { recursive: true });
    mkdirSync(this.outside, { recursive: true });
    this.canaryFile = join(this.outside, "canary.txt");
    writeFileSync(this.canaryFile, `${FILE_CANARY}\n`);
    mkdirSync(join(this.world.home, ".ssh"), { recursive: true, mode: 0o700 });
    this.homeCanary = join(this.world.home, ".ssh", "id_ed25519");
    writeFileSync(this.homeCanary, `-----BEGIN OPENSSH PRIVATE KEY-----\n${HOME_CANARY}\n`, { mode: 0o600 });
    this.atimeTracked = atimeTracksReads(dir);
    writeFileSync(join(this.workspace, "a.txt"), "workspace file a\n");
  }

  static async start(hooks: readonly HookDef[], options: FortressOptions = {}): Promise<Fortress> {
    const fortress = new Fortress();
    try {
      for (const hook of [BENIGN, PLAIN, ...hooks]) writeFileSync(join(fortress.world.hooks, `${hook.id}.yaml`), hookYaml(hook));
      if (options.operator) {
        const configDir = join(fortress.world.home, ".config", "hookbox");
        mkdirSync(configDir, { recursive: true });
        writeFileSync(join(configDir, "hookbox.yaml"), stringify(options.operator));
      }
      await options.prepare?.(fortress);
      fortress.sealCanaries();
      fortress.daemon = await DaemonProcess.start(
        [...(options.wrap ?? []), BUILT_BINARY],
        fortress.world,
        ["--workers", String(options.workers ?? 2), ...(options.args ?? [])],
        { ...SECRET_ENV },
      );
      return fortress;
    } catch (error) {
      fortress.world.cleanup();
      throw error;
    }
  }

  /** Old access times on the canaries: any read of them moves atime (relatime), so "unread" can be checked. */
  private sealCanaries(): void {
    const paths = [this.canaryFile, this.outside, this.homeCanary, join(this.world.home, ".ssh"), ...this.canaryPaths];
    for (const path of paths) utimesSync(path, OLD_ATIME, OLD_MTIME);
    this.canaries = paths.map((path) => {
      const s = statSync(path);
      return { path, size: s.size, mtimeMs: s.mtimeMs, atimeMs: s.atimeMs, ctimeMs: s.ctimeMs };
    });
  }

  /** Another file outside every grant, holding the file canary (call from `prepare`). */
  addCanary(path: string): void {
    writeFileSync(path, `${FILE_CANARY}\n`);
    this.canaryPaths.push(path);
  }

  /** An event no hook objects to: still a plain allow (nothing polluted the daemon's objects). */
  async plain(): Promise<Fired> {
    const fired = await this.post("sec.plain", { cwd: this.workspace });
    expect(fired.status, fired.text.slice(0, 500)).toBe(200);
    expect(fired.decision).toMatchObject({
      decision: "allow",
      runs: [{ hook_id: "plain", status: "completed", reason: "plain", action: "continue" }],
    });
    expect(fired.decision).not.toHaveProperty("decided_by");
    return fired;
  }

  get socket(): string {
    return this.world.socket;
  }

  async post(eventType: string, body: Record<string, unknown>, timeoutMs = 60_000): Promise<Fired> {
    const reply = await call(this.socket, "POST", `/v1/events/${eventType}`, body, {}, timeoutMs);
    const decision = reply.json as Decision;
    return {
      ...reply,
      decision,
      run: (hookId: string) => {
        const found = decision?.runs?.find((r) => r.hook_id === hookId);
        if (!found) throw new Error(`no run of ${hookId} in ${reply.status} ${reply.text.slice(0, 500)}`);
        return found;
      },
    };
  }

  /** A benign event through the sandbox: proves the daemon still evaluates hooks correctly. */
  async benign(tag = String(++this.counter)): Promise<Fired> {
    const fired = await this.post("sec.benign", { n: tag, cwd: this.workspace });
    expect(fired.status, fired.text.slice(0, 500)).toBe(200);
    expect(fired.decision).toMatchObject({ decision: "deny", reason: `benign:${tag}`, runs: [{ hook_id: "benign", status: "denied" }] });
    return fired;
  }

  mark(): Mark {
    return { auditBytes: statSync(this.world.auditFile, { throwIfNoEntry: false })?.size ?? 0, stderrChars: this.daemon.stderr.length };
  }

  auditText(mark?: Mark): string {
    let text: string;
    try {
      text = readFileSync(this.world.auditFile, "utf8");
    } catch {
      return "";
    }
    return mark ? Buffer.from(text).subarray(mark.auditBytes).toString("utf8") : text;
  }

  /** Every record written since `mark`; every line must parse (a forged or torn line fails here). */
  auditSince(mark?: Mark): AuditRecord[] {
    return this.auditText(mark)
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditRecord);
  }

  /** The one record of `hookId` for the event the daemon answered with `eventId`. */
  auditRecord(mark: Mark, eventId: string, hookId: string): AuditRecord {
    const records = this.auditSince(mark).filter((r) => r.event_id === eventId && r.hook_id === hookId);
    expect(records, `audit records of ${hookId} for event ${eventId}`).toHaveLength(1);
    return records[0] as AuditRecord;
  }

  /** No canary in the given texts, in the audit lines written since `mark`, nor in what the daemon printed since. */
  expectNoLeak(mark: Mark, texts: readonly string[] = []): void {
    const haystacks = [...texts, this.auditText(mark), this.daemon.stderr.slice(mark.stderrChars)];
    for (const needle of NEEDLES) {
      for (const text of haystacks) expect(text.includes(needle), `canary ${needle.slice(0, 18)}… leaked: …${around(text, needle)}…`).toBe(false);
    }
  }

  /** The canary files were neither changed nor (where the file system tracks it) read. */
  expectCanariesIntact(): void {
    for (const before of this.canaries) {
      const now = statSync(before.path);
      expect({ path: before.path, size: now.size, mtimeMs: now.mtimeMs, ctimeMs: now.ctimeMs }).toEqual({
        path: before.path,
        size: before.size,
        mtimeMs: before.mtimeMs,
        ctimeMs: before.ctimeMs,
      });
      if (this.atimeTracked) expect(now.atimeMs, `${before.path} was read (its access time moved)`).toBe(before.atimeMs);
    }
  }

  /** Kill the daemon, and any of its workers that outlive it (a guest stuck in a built-in does: finding F10). */
  async stop(): Promise<void> {
    const workers = this.daemon?.child.pid === undefined ? [] : childWorkers(this.daemon.child.pid);
    await this.daemon?.stop("SIGKILL");
    for (const pid of workers.filter(isRunning)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // exited meanwhile
      }
    }
    this.world.cleanup();
  }
}

/** The sandbox worker processes of a daemon (from /proc: Linux). */
export function childWorkers(parent: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent && readFileSync(`/proc/${name}/cmdline`, "utf8").includes("__sandbox-worker")) pids.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return pids.filter(isRunning);
}

/** The process exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

function around(text: string, needle: string): string {
  const at = text.indexOf(needle);
  return at < 0 ? "" : text.slice(Math.max(0, at - 120), at + needle.length + 40);
}

export function hookYaml(hook: HookDef): string {
  if (hook.yaml !== undefined) return hook.yaml;
  return stringify({
    id: hook.id,
    events: hook.events ?? [`sec.${hook.id}`],
    ...(hook.match ? { match: hook.match } : {}),
    handler: { code: hook.source },
    ...(hook.permissions ? { permissions: hook.permissions } : {}),
    ...(hook.limits ? { limits: hook.limits } : {}),
    ...(hook.isolation ? { isolation: hook.isolation } : {}),
    ...(hook.on_error ? { on_error: hook.on_error } : {}),
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
