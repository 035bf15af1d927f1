import type { FileHost, NetHost, RuntimeHost } from "../../platform/index.ts";
import type { InstalledEntry } from "./install/entries.ts";
import type { InstallDirs, InstallScope } from "./install/types.ts";

/** One line of `hookbox doctor` an agent contributes (the same shape as doctor's own checks). */
export interface AgentCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export function passed(name: string, detail: string): AgentCheck {
  return { name, ok: true, detail };
}

export function failed(name: string, detail: string): AgentCheck {
  return { name, ok: false, detail };
}

/** What an agent's doctor checks may read and ask, handed in by `hookbox doctor`: agents/ does no I/O of its own. */
export interface DoctorIO {
  readonly env: RuntimeHost["env"];
  homeDir(): string;
  /** The hookbox executable running doctor (undefined from sources). */
  binaryPath(): string | undefined;
  /** The running binary's BUILD_ID. */
  readonly buildId: string;
  readonly fs: Pick<FileHost, "exists" | "readText">;
  readonly net: Pick<NetHost, "request">;
}

/** One settings file of the agent holding Hookbox's entries, as doctor found it. */
export interface DoctorTarget {
  readonly scope: InstallScope;
  readonly file: string;
  readonly text: string;
  readonly entries: readonly InstalledEntry[];
  /** Where it resolves: the project, home, environment and the agent's config directory. */
  readonly dirs: InstallDirs;
}

/** What `hookbox doctor` knows of one agent besides its installer. */
export interface AgentDoctor {
  /**
   * A harmless pre-tool call (reading the project's README) in the agent's own payload shape, and
   * the entry, by the agent's event name, doctor sends it through. `sessionId` marks it as doctor's.
   */
  readonly probe: { readonly event: string; payload(project: string, sessionId: string): Record<string, unknown> };
  /** What only this agent needs checked (Codex's trust, Claude's http hooks reaching a daemon …); none when absent. */
  checks?(io: DoctorIO, target: DoctorTarget): Promise<AgentCheck[]>;
}
