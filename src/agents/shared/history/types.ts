import type { AgentName } from "../protocol/types.ts";

/**
 * An agent's on-disk history (its session transcripts, rollouts, saved chats), read back as the
 * hook calls the agent made or would have made: `hookbox replay` decodes each with the agent's
 * own protocol (src/agents/<agent>/protocol.ts), exactly as `hookbox emit` decodes a live one.
 */

/** One hook call the agent would have sent, as it would have sent it. */
export interface HistoryCall {
  readonly agent: AgentName;
  /** The agent's event name, as its hook entry passes it to `hookbox emit <name>`. */
  readonly eventName: string;
  /** The hook payload (the agent's stdin JSON), rebuilt from the history. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** The file it was read from, and the line (1-based) of the entry it comes from. */
  readonly file: string;
  readonly line: number;
  /** When the agent recorded it (ISO 8601); undefined when the history says nothing. */
  readonly at: string | undefined;
  readonly session: string;
  /**
   * Set for a call that a hook blocked in the session (the history carries the block): its tool
   * never ran, so the events that follow a run (PostToolUse) are not replayed for it.
   */
  readonly blockedLive?: string;
}

/** A line that could not be read (truncated, not JSON, of a shape this reader does not know): reported, skipped. */
export interface HistoryProblem {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

export interface HistoryRead {
  readonly calls: readonly HistoryCall[];
  readonly problems: readonly HistoryProblem[];
  /** Lines read (every line of the file, blank ones aside). */
  readonly lines: number;
}

/** The file access finding and reading histories needs (the runtime's FileHost fits it). */
export interface HistoryFs {
  readText(path: string): Promise<string>;
  listDir(path: string): Promise<readonly { readonly name: string; readonly kind: string }[]>;
  kind(path: string): Promise<string>;
}

/** Where an agent keeps its history: the user's home and the variables that move it (CLAUDE_CONFIG_DIR, CODEX_HOME …). */
export interface HistoryPlaces {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One agent's history format. */
export interface HistoryFormat {
  readonly agent: AgentName;
  /** Where its sessions are, in words (for --help and the report). */
  readonly where: string;
  /** The session files of one project (sessions started in it or below it), newest first. */
  sessionsOf(project: string, places: HistoryPlaces, fs: HistoryFs): Promise<string[]>;
  /** Whether a file is this agent's history: its path and its first line decide. */
  recognizes(path: string, firstLine: string): boolean;
  /** The calls of one file. `fs` reads what lies beside it (Gemini CLI keeps the project's path there). */
  read(file: string, text: string, fs: HistoryFs): Promise<HistoryRead>;
}
