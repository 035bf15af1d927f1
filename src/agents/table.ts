// The agent table: the one list of the agents Hookbox knows, one row each. Every other list of
// agents (the dialects `emit` speaks, install-agent's targets, the config directories self-protect
// protects, import's dialects, doctor's probes …) is derived from it, in src/agents/protocols.ts,
// installers.ts, config-dirs.ts, importers.ts, managed.ts and doctor.ts. A new agent is a folder
// (src/agents/<name>/: protocol, tools, install, import, doctor …) and a row here
// (test/architecture/agents.test.ts holds the rest of the tree to that). The protocols are here
// as they are: `hookbox emit` needs them. The other parts are loaded by the views that use them
// (shared/row.ts, Part), which keeps them off emit's path.
import { claudeCode } from "./claude/protocol.ts";
import { codex } from "./codex/protocol.ts";
import { copilot } from "./copilot/protocol.ts";
import { cursor } from "./cursor/protocol.ts";
import { geminiCli } from "./gemini/protocol.ts";
import { native } from "./native/protocol.ts";
import { qwen } from "./qwen/protocol.ts";
import type { AgentProtocol } from "./shared/protocol/types.ts";
import type { AgentConfigDir, AgentRow } from "./shared/row.ts";

/**
 * Detection (`detection`, lowest asked first; research §12): Hookbox's own events name themselves
 * in event_type; Cursor's payloads carry fields no other agent sends; Qwen goes before Copilot,
 * whose VS Code mode also carries an ISO timestamp but no permission_mode; Claude's shape is what
 * Codex, Gemini, Qwen and Copilot's VS Code mode build on, so Claude is asked last, as the dialect
 * of any payload that names its event in `hook_event_name`, and is the fallback (research §0).
 */
export const AGENTS = [
  {
    name: "claude",
    displayName: "Claude Code",
    protocol: claudeCode,
    detection: 7,
    fallback: true,
    configDir: { env: "CLAUDE_CONFIG_DIR", home: ".claude" },
    installer: () => import("./claude/install.ts"),
    managed: () => import("./claude/managed.ts"),
    importer: () => import("./claude/import.ts"),
    doctor: () => import("./claude/doctor.ts"),
    history: () => import("./claude/history.ts"),
  },
  {
    name: "gemini",
    displayName: "Gemini CLI",
    protocol: geminiCli,
    detection: 6,
    installer: () => import("./gemini/install.ts"),
    managed: () => import("./gemini/managed.ts"),
    importer: () => import("./gemini/import.ts"),
    doctor: () => import("./gemini/doctor.ts"),
    history: () => import("./gemini/history.ts"),
  },
  {
    name: "cursor",
    displayName: "Cursor",
    protocol: cursor,
    detection: 2,
    installer: () => import("./cursor/install.ts"),
    managed: () => import("./cursor/managed.ts"),
    importer: () => import("./cursor/import.ts"),
    doctor: () => import("./cursor/doctor.ts"),
  },
  {
    name: "codex",
    displayName: "Codex",
    protocol: codex,
    detection: 5,
    configDir: { env: "CODEX_HOME", home: ".codex" },
    installer: () => import("./codex/install.ts"),
    managed: () => import("./codex/managed.ts"),
    trust: () => import("./codex/trust-files.ts"),
    importer: () => import("./codex/import.ts"),
    doctor: () => import("./codex/doctor.ts"),
    history: () => import("./codex/history.ts"),
  },
  {
    name: "copilot",
    displayName: "Copilot CLI",
    protocol: copilot,
    detection: 4,
    configDir: { env: "COPILOT_HOME", home: ".copilot" },
    installer: () => import("./copilot/install.ts"),
    noManaged:
      "Copilot CLI 1.0.102 reads a device policy (/etc/github-copilot/managed-settings.json, with allowManagedHooksOnly) but its hook format there is not documented and was not checked against the real CLI: Hookbox does not write it yet",
    doctor: () => import("./copilot/doctor.ts"),
    history: () => import("./copilot/history.ts"),
  },
  {
    name: "qwen",
    displayName: "Qwen Code",
    protocol: qwen,
    detection: 3,
    configDir: { env: "QWEN_HOME", home: ".qwen" },
    installer: () => import("./qwen/install.ts"),
    managed: () => import("./qwen/managed.ts"),
    doctor: () => import("./qwen/doctor.ts"),
    history: () => import("./qwen/history.ts"),
  },
  {
    name: "opencode",
    displayName: "opencode",
    installer: () => import("./opencode/install.ts"),
    noManaged:
      "opencode 1.18.33 reads an administrator's config (/etc/opencode/opencode.json) but has no hook commands and no managed-only switch: Hookbox's entry is a plugin running inside opencode's process, where a plugin of the user's runs too, so no tier can be enforced there",
    doctor: () => import("./opencode/doctor.ts"),
  },
  { name: "native", displayName: "Hookbox's native events", protocol: native, detection: 1 },
] as const satisfies readonly AgentRow[];

type Row = (typeof AGENTS)[number];

/** Every agent in the table. */
export type AgentKey = Row["name"];
/** The dialects `hookbox emit --agent` speaks (the rows with a protocol). */
export type AgentName = Extract<Row, { readonly protocol: AgentProtocol }>["name"];
/** The agents `hookbox install-agent` configures (the rows with an installer). */
export type InstallAgent = Extract<Row, { readonly installer: unknown }>["name"];
/** The agents whose user config directory a variable moves (the rows with a configDir). */
export type ConfigDirAgent = Extract<Row, { readonly configDir: AgentConfigDir }>["name"];
/** Their directories' names among self-protect's `${…}` locations: the variable in lower case (claude_config_dir). */
export type AgentLocationName = Lowercase<Extract<Row, { readonly configDir: AgentConfigDir }>["configDir"]["env"]>;
/** The agents whose hook settings `hookbox import` reads (the rows with an importer). */
export type ImportAgent = Extract<Row, { readonly importer: unknown }>["name"];
/** The agents whose history `hookbox replay` reads (the rows with a history). */
export type HistoryAgent = Extract<Row, { readonly history: unknown }>["name"];
/** The agents doctor probes (the rows with a doctor). */
export type DoctorAgent = Extract<Row, { readonly doctor: unknown }>["name"];

const BY_NAME: ReadonlyMap<string, AgentRow> = new Map(AGENTS.map((row) => [row.name, row]));

/** The row of the agent called `name`; undefined for a name the table does not have. */
export function agentRow(name: string): AgentRow | undefined {
  return BY_NAME.get(name);
}

/** The product's name for people ("Claude Code"), or the name itself for one the table does not have. */
export function displayName(name: string): string {
  return BY_NAME.get(name)?.displayName ?? name;
}
