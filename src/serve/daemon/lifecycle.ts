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
  /** Called when the number of open agent sessions changes (the daemon holds a warm worker while any is). */
  readonly onSessions?: (open: number) => void;
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
/**
 * How long an open agent session keeps its daemon after its last event: an agent that died
 * without its SessionEnd (killed, a closed terminal) must not keep a daemon for ever, and a person
 * away for lunch, a meeting or the night should find the session's next tool call warm.
 */
export const SESSION_HOLD_SECONDS = 12 * 3600;
/** Open sessions remembered at most (the oldest beyond are forgotten): session ids come from the agent. */
const MAX_SESSIONS = 256;

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
  /** Open agent sessions (SessionStart seen, no SessionEnd yet): when each last sent an event. */
  private readonly sessions = new Map<string, number>();

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

  /**
   * An agent's event was answered: a SessionStart opens its session, a SessionEnd closes it, any
   * other event of an open session keeps it open. While any is open the daemon does not idle out
   * (SESSION_HOLD_SECONDS bounds a session that never ends). A session emit saw start before
   * this daemon ran comes as a SessionStart too (serve --session).
   */
  sessionEvent(eventType: string, sessionId: string): void {
    if (!sessionId) return;
    const before = this.sessions.size;
    if (eventType === "SessionEnd") this.sessions.delete(sessionId);
    else if (eventType === "SessionStart" || this.sessions.has(sessionId)) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, this.now());
      while (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    }
    if (this.sessions.size !== before) this.options.onSessions?.(this.sessions.size);
  }

  /** Sessions open now (those quiet past the bound are closed first). */
  openSessions(): number {
    const before = this.sessions.size;
    const cutoff = this.now() - SESSION_HOLD_SECONDS * 1000;
    for (const [id, last] of this.sessions) if (last < cutoff) this.sessions.delete(id);
    if (this.sessions.size !== before) this.options.onSessions?.(this.sessions.size);
    return this.sessions.size;
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
    sessions: number;
  } {
    return {
      startedAt: this.startedAt,
      lastEventAt: this.lastEventAt,
      events: this.events,
      inFlight: this.inFlight,
      retiring: this.retiring,
      idleSeconds: this.effectiveIdleSeconds(),
      sessions: this.sessions.size,
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
    // An open session holds the daemon (a retired one goes anyway: its agents' emits use the newer daemon).
    if (this.openSessions() > 0 && this.retiring === undefined) return;
    const quietMs = this.now() - this.lastActivity;
    if (quietMs >= idle * 1000) this.expire(`no event for ${Math.round(quietMs / 1000)} s${this.retiring ? ` (retired: ${this.retiring})` : ""}`);
  }

  private expire(why: string): void {
    this.expired = true;
    this.stop();
    this.options.onExpired(why);
  }
}
