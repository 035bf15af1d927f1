import type { AgentDoctor } from "./doctor.ts";
import type { HistoryFormat } from "./history/types.ts";
import type { AgentImporter } from "./import/types.ts";
import type { ManagedSettings } from "./install/managed.ts";
import type { AgentTrust, InstallPlanner } from "./install/types.ts";
import type { AgentProtocol } from "./protocol/types.ts";

/** An agent's user config directory, where an environment variable can move it. */
export interface AgentConfigDir {
  /**
   * The variable (CLAUDE_CONFIG_DIR); a relative value is taken from the project directory. Its
   * lower-case spelling names the directory among self-protect's `${…}` locations (claude_config_dir).
   */
  readonly env: string;
  /** Its default, under the home directory (".claude"). */
  readonly home: string;
}

/**
 * A part of a row whose code lives in the agent's folder and is loaded only by what uses it:
 * `() => import("./<agent>/install.ts")`, a module exporting the part under its name. The table
 * is on `hookbox emit`'s path, whose startup is every event's cost; installers, importers, doctor
 * probes and trust steps are not, and stay out of it.
 */
export type Part<Name extends string, T> = () => Promise<{ readonly [K in Name]: T }>;

/**
 * One row of the agent table (src/agents/table.ts): everything Hookbox knows of one agent. The
 * facts are in the row; the code it names lives in the agent's own folder, src/agents/<name>/.
 */
export interface AgentRow {
  /** What the agent is called on the command line (`--agent`, install-agent), in URLs (/v1/agents/<name>) and in events' `agent`. */
  readonly name: string;
  /** The product, for people: "Claude Code". */
  readonly displayName: string;
  /** Its hook protocol: `hookbox emit --agent <name>` and POST /v1/agents/<name> speak it. Absent for an agent whose plugin speaks Hookbox's own events. */
  readonly protocol?: AgentProtocol;
  /**
   * With a protocol: when detection (an `emit` without --agent) asks this protocol, lowest first.
   * The most specific sign goes first; the shape others build on goes last.
   */
  readonly detection?: number;
  /** The dialect of a payload detection recognises as none, and of a hook settings file `import` recognises as none. One row has it. */
  readonly fallback?: boolean;
  /** Its user config directory, where a variable moves it: self-protect protects the agent's settings there. */
  readonly configDir?: AgentConfigDir;
  /** Where its hook settings are and Hookbox's entries in them: `hookbox install-agent <name>`. */
  readonly installer?: Part<"installer", InstallPlanner>;
  /** A trust it records outside its hook settings, which install-agent --trust records and doctor checks. */
  readonly trust?: Part<"trust", AgentTrust>;
  /** How `hookbox import` reads its hook settings and runs its commands. */
  readonly importer?: Part<"importer", AgentImporter>;
  /** What `hookbox doctor` sends through its entries and checks besides. Every row with an installer has one. */
  readonly doctor?: Part<"doctor", AgentDoctor>;
  /** Its managed (system-level) settings, which users and projects cannot override: `hookbox install --system` writes them. */
  readonly managed?: Part<"managed", ManagedSettings>;
  /** With an installer but no managed settings: why it has no system tier (doctor and install --system say it). */
  readonly noManaged?: string;
  /** How `hookbox replay` finds and reads its on-disk history (session transcripts …) as the hook calls it made. */
  readonly history?: Part<"history", HistoryFormat>;
}
