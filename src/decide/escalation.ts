import { AppendLock } from "../platform/lock.ts";
import { errorMessage } from "../core/errors.ts";
import type { Decision } from "../core/events/types.ts";
import type { FileHost } from "../platform/index.ts";

/**
 * Escalation (Cupcake's alerts and timeouts): an agent that keeps hitting guards is slowed, asked
 * or stopped for the rest of its session. The operator sets it (hookbox.yaml `escalation`); no
 * hook can: after `after_denials` denied events in one session, every later tool call of that
 * session (PreToolUse) gets `answer` — `slow` waits `slow_ms` before it is evaluated, `ask` turns
 * what the hooks allow into the agent's own ask, `deny` refuses it without running a hook.
 */
export interface EscalationSettings {
  readonly after_denials: number;
  readonly answer: "slow" | "ask" | "deny";
  readonly slow_ms: number;
}

/** What the audit's decision record keeps of an escalated event. */
export interface EscalationNote {
  readonly denials: number;
  readonly after_denials: number;
  readonly answer: EscalationSettings["answer"];
}

/** The events an escalation answers: an agent's tool calls. */
export const ESCALATED_EVENTS: ReadonlySet<string> = new Set(["PreToolUse"]);

/** Denials per session, per project: a session id is the agent's, a project whose hooks denied is Hookbox's. */
export function denialKey(project: string | undefined, sessionId: string): string {
  return `${project ?? "(no project)"}#${sessionId}`;
}

/**
 * How many events of a session were denied. Never rejects: a store that cannot be used says so
 * once (`log`) and counts in this process's memory.
 */
export interface DenialStore {
  count(key: string): Promise<number>;
  /** One more denial; the new count. */
  add(key: string, now: number): Promise<number>;
}

interface Entry {
  n: number;
  at: number;
}

export class MemoryDenials implements DenialStore {
  readonly entries = new Map<string, Entry>();

  async count(key: string): Promise<number> {
    return this.entries.get(key)?.n ?? 0;
  }

  async add(key: string, now: number): Promise<number> {
    return bump(this.entries, key, now);
  }
}

function bump(entries: Map<string, Entry>, key: string, now: number): number {
  const n = (entries.get(key)?.n ?? 0) + 1;
  entries.set(key, { n, at: now });
  return n;
}

/** Sessions kept at most (the least recently denied are dropped first), and for how long. */
const MAX_SESSIONS = 5_000;
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export function denialsFilePath(dataDir: string): string {
  return `${dataDir}/state/denials.json`;
}

/**
 * The denials of a data directory, shared by the daemon and every `emit` evaluating on its own
 * (an agent whose hooks run without a daemon is escalated all the same), kept as the cooldowns
 * are: a small JSON file replaced atomically under a lock. Touched only when the operator set
 * an escalation. The agent could reset it by writing the file: self-protect guards the data
 * directory, which makes this best effort against an agent with a shell (SECURITY.md).
 */
export class FileDenials implements DenialStore {
  private readonly memory = new Map<string, Entry>();
  private readonly lock: AppendLock;
  private stamp: string | undefined;
  private warned = false;

  constructor(
    private readonly options: {
      readonly fs: Pick<FileHost, "readText" | "writeTextAtomic" | "mkdirp" | "lock">;
      readonly path: string;
      readonly pid: number;
      readonly log?: (line: string) => void;
    },
  ) {
    this.lock = new AppendLock({ io: options.fs.lock, path: `${options.path}.lock`, pid: options.pid });
  }

  async count(key: string): Promise<number> {
    try {
      await this.load();
    } catch (error) {
      this.failed(error);
    }
    return this.memory.get(key)?.n ?? 0;
  }

  async add(key: string, now: number): Promise<number> {
    try {
      await this.options.fs.mkdirp(this.options.path.slice(0, this.options.path.lastIndexOf("/")), 0o700);
      const held = await this.lock.acquire();
      try {
        await this.load();
        const n = bump(this.memory, key, now);
        if (held.stillHeld()) await this.save(now);
        return n;
      } finally {
        held.release();
      }
    } catch (error) {
      this.failed(error);
      return bump(this.memory, key, now);
    }
  }

  private async load(): Promise<void> {
    const seen = this.options.fs.lock.stamp(this.options.path);
    if (seen === undefined || seen.token === this.stamp) return;
    for (const [key, entry] of Object.entries(parseState(await this.options.fs.readText(this.options.path)))) {
      if ((this.memory.get(key)?.n ?? 0) < entry.n) this.memory.set(key, entry);
    }
    this.stamp = seen.token;
  }

  private async save(now: number): Promise<void> {
    const kept = [...this.memory.entries()]
      .filter(([, entry]) => now - entry.at <= MAX_AGE_MS)
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, MAX_SESSIONS);
    this.memory.clear();
    for (const [key, entry] of kept) this.memory.set(key, entry);
    await this.options.fs.writeTextAtomic(this.options.path, `${JSON.stringify({ v: 1, sessions: Object.fromEntries(kept) })}\n`, 0o600);
    this.stamp = this.options.fs.lock.stamp(this.options.path)?.token;
  }

  private failed(error: unknown): void {
    if (!this.warned)
      this.options.log?.(
        `the denial counts ${this.options.path} cannot be used (${errorMessage(error)}): escalation counts within this process only`,
      );
    this.warned = true;
  }
}

/** A file that is not ours counts as empty. */
function parseState(text: string): Record<string, Entry> {
  try {
    const value = JSON.parse(text) as { v?: unknown; sessions?: unknown } | null;
    if (!value || value.v !== 1 || typeof value.sessions !== "object" || value.sessions === null) return {};
    return Object.fromEntries(
      Object.entries(value.sessions as Record<string, unknown>).filter(
        (entry): entry is [string, Entry] =>
          typeof entry[1] === "object" && entry[1] !== null && Number.isInteger((entry[1] as Entry).n) && Number.isFinite((entry[1] as Entry).at),
      ),
    );
  } catch {
    return {};
  }
}

/** Why, in words the agent's user and the console both read. */
export function escalationWords(note: EscalationNote): string {
  const then =
    note.answer === "deny"
      ? "every tool call of this session is refused"
      : note.answer === "ask"
        ? "every tool call of this session needs the user's approval"
        : "every tool call of this session is slowed down";
  return `Hookbox escalation: ${note.denials} denied events in this session (the operator's escalation.after_denials is ${note.after_denials}), so ${then}. Start a new session to reset it.`;
}

/** The answer to a tool call of an escalated session set to deny: no hook runs. */
export function escalatedDenial(eventId: string, eventType: string, note: EscalationNote): Decision {
  return {
    v: 1,
    event_id: eventId,
    event_type: eventType,
    decision: "deny",
    reason: escalationWords(note),
    decided_by: "hookbox",
    context_injections: [],
    user_messages: [{ hook_id: "hookbox", level: "warning", message: escalationWords(note) }],
    continue: true,
    runs: [],
  };
}

/** What the hooks allowed, asked of the user instead (a deny or an ask of theirs stands). */
export function escalatedAsk(decision: Decision, note: EscalationNote): Decision {
  const warned = withWarning(decision, note);
  if (decision.decision !== "allow") return warned;
  const prompt = escalationWords(note);
  return {
    ...warned,
    decision: "ask",
    reason: prompt,
    decided_by: "hookbox",
    approval: { hook_id: "hookbox", prompt, options: ["allow", "deny"], timeout_ms: 60_000, default: "deny" },
  };
}

export function withWarning(decision: Decision, note: EscalationNote): Decision {
  return { ...decision, user_messages: [...decision.user_messages, { hook_id: "hookbox", level: "warning", message: escalationWords(note) }] };
}
