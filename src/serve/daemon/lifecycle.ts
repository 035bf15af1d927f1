import type { FileHost } from "../../platform/index.ts";
import { RETIRED_IDLE_SECONDS, type DaemonOrigin } from "../../core/wire/daemon.ts";

/** The operator file's daemon settings, as an auto-started daemon re-reads them. */
export interface AutoStartSettings {
  readonly auto_start: boolean;
  readonly idle_exit_seconds: number;
}

export interface LifecycleOptions {
  readonly origin: DaemonOrigin;
  readonly socketPath: string;
  /** --idle-exit; undefined: never (a `serve` started by a person, by default). */
  readonly idleExitSeconds: number | undefined;
  /** An auto-started daemon follows the operator file as it changes: its idle time, and whether auto-start is still on. */
  readonly settings?: () => Promise<AutoStartSettings | undefined>;
  readonly fs: Pick<FileHost, "stamp">;
  /** Called once, when the daemon should stop (it finishes what is in flight first). */
  readonly onExpired: (why: string) => void;
  readonly now?: () => number;
  readonly checkEveryMs?: number;
}

/**
 * When a daemon should go. Only events count as use (a status query or a health check does not
 * keep it alive); one in flight always does. An auto-started daemon also goes when its socket
 * is removed or replaced (nobody can reach it any more: a temporary HOME deleted, the runtime
 * directory cleaned at logout), and sooner once retired: a newer build took over, or the
 * operator turned auto-start off — "sooner" still waits for its last client to stop using it.
 */
export class Lifecycle {
  private readonly now: () => number;
  private readonly startedAt: number;
  private inFlight = 0;
  private events = 0;
  private lastEventAt: number | undefined;
  private lastActivity: number;
  private retiring: string | undefined;
  private idleSeconds: number | undefined;
  private stampAtStart: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private expired = false;

  constructor(private readonly options: LifecycleOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.lastActivity = this.startedAt;
    this.idleSeconds = options.idleExitSeconds;
  }

  /** Watch from now on (the socket is in place and answering). */
  async start(): Promise<void> {
    this.stampAtStart = await this.options.fs.stamp(this.options.socketPath);
    const every = this.options.checkEveryMs ?? Math.max(100, Math.min(2000, ((this.idleSeconds ?? 60) * 1000) / 4));
    this.timer = setInterval(() => void this.check(), every);
  }

  /** The socket's stamp when it started listening: a different one is another daemon's. */
  socketStamp(): string | undefined {
    return this.stampAtStart;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * A request that may be an event starts: the daemon does not exit while it is in flight. The
   * returned function ends it, saying whether it was one (a request refused as another hook
   * set's, say, was not: it must not keep a daemon nobody can use alive).
   */
  begin(): (wasEvent: boolean) => void {
    const started = this.now();
    this.inFlight++;
    return (wasEvent) => {
      this.inFlight--;
      if (!wasEvent) return;
      this.events++;
      this.lastEventAt = Math.max(this.lastEventAt ?? 0, started);
      this.lastActivity = this.now();
    };
  }

  retire(reason: string): void {
    this.retiring ??= reason;
  }

  /** The idle time in force: the flag's or the operator file's, shortened once retired. */
  effectiveIdleSeconds(): number | undefined {
    if (this.retiring === undefined) return this.idleSeconds;
    return Math.min(this.idleSeconds ?? RETIRED_IDLE_SECONDS, RETIRED_IDLE_SECONDS);
  }

  state(): {
    startedAt: number;
    lastEventAt: number | undefined;
    events: number;
    inFlight: number;
    retiring: string | undefined;
    idleSeconds: number | undefined;
  } {
    return {
      startedAt: this.startedAt,
      lastEventAt: this.lastEventAt,
      events: this.events,
      inFlight: this.inFlight,
      retiring: this.retiring,
      idleSeconds: this.effectiveIdleSeconds(),
    };
  }

  /** One look: expire when the socket is gone, or when idle past the idle time. */
  async check(): Promise<void> {
    if (this.expired) return;
    if (this.options.origin === "auto") {
      const stamp = await this.options.fs.stamp(this.options.socketPath).catch(() => "missing");
      if (this.stampAtStart !== undefined && stamp !== this.stampAtStart)
        return this.expire(stamp === "missing" ? "its socket was removed" : "its socket was replaced");
      const settings = await this.options.settings?.().catch(() => undefined);
      if (settings) {
        this.idleSeconds = settings.idle_exit_seconds;
        if (!settings.auto_start) this.retire("auto_start is off in the operator file");
      }
    }
    const idle = this.effectiveIdleSeconds();
    if (idle === undefined || this.inFlight > 0) return;
    const quietMs = this.now() - this.lastActivity;
    if (quietMs >= idle * 1000) this.expire(`no event for ${Math.round(quietMs / 1000)} s${this.retiring ? ` (retired: ${this.retiring})` : ""}`);
  }

  private expire(why: string): void {
    this.expired = true;
    this.stop();
    this.options.onExpired(why);
  }
}
