// The agent table: the one list of the agents Hookbox knows, one row each. Every other list of
// agents (the dialects `emit` speaks, install-agent's targets, the config directories self-protect
// protects, import's dialects, doctor's probes …) is derived from it, in src/agents/protocols.ts,
// installers.ts, config-dirs.ts, importers.ts and doctor.ts. A new agent is a folder
// (src/agents/<name>/: protocol, tools, install, import, doctor …) and a row here
// (test/architecture/agents.test.ts holds the rest of the tree to that).
import { claudeDoctor } from "./claude/doctor.ts";
import { claudeImporter } from "./claude/import.ts";
import { claudeInstaller } from "./claude/install.ts";
import { claudeCode } from "./claude/protocol.ts";
import { codexDoctor } from "./codex/doctor.ts";
import { codexImporter } from "./codex/import.ts";
import { codexInstaller } from "./codex/install.ts";
import { codex } from "./codex/protocol.ts";
import { codexTrust } from "./codex/trust-files.ts";
import { copilotDoctor } from "./copilot/doctor.ts";
import { copilotInstaller } from "./copilot/install.ts";
import { copilot } from "./copilot/protocol.ts";
import { cursorDoctor } from "./cursor/doctor.ts";
import { cursorImporter } from "./cursor/import.ts";
import { cursorInstaller } from "./cursor/install.ts";
import { cursor } from "./cursor/protocol.ts";
import { geminiDoctor } from "./gemini/doctor.ts";
import { geminiImporter } from "./gemini/import.ts";
import { geminiInstaller } from "./gemini/install.ts";
import { geminiCli } from "./gemini/protocol.ts";
import { native } from "./native/protocol.ts";
import { opencodeDoctor } from "./opencode/doctor.ts";
import { opencodeInstaller } from "./opencode/install.ts";
import { qwenDoctor } from "./qwen/doctor.ts";
import { qwenInstaller } from "./qwen/install.ts";
import { qwen } from "./qwen/protocol.ts";
import type { AgentDoctor } from "./shared/doctor.ts";
import type { AgentImporter } from "./shared/import/types.ts";
import type { InstallPlanner } from "./shared/install/types.ts";
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
    installer: claudeInstaller,
    importer: claudeImporter,
    doctor: claudeDoctor,
  },
  {
    name: "gemini",
    displayName: "Gemini CLI",
    protocol: geminiCli,
    detection: 6,
    installer: geminiInstaller,
    importer: geminiImporter,
    doctor: geminiDoctor,
  },
  {
    name: "cursor",
    displayName: "Cursor",
    protocol: cursor,
    detection: 2,
    installer: cursorInstaller,
    importer: cursorImporter,
    doctor: cursorDoctor,
  },
  {
    name: "codex",
    displayName: "Codex",
    protocol: codex,
    detection: 5,
    configDir: { env: "CODEX_HOME", home: ".codex" },
    installer: codexInstaller,
    trust: codexTrust,
    importer: codexImporter,
    doctor: codexDoctor,
  },
  {
    name: "copilot",
    displayName: "Copilot CLI",
    protocol: copilot,
    detection: 4,
    configDir: { env: "COPILOT_HOME", home: ".copilot" },
    installer: copilotInstaller,
    doctor: copilotDoctor,
  },
  {
    name: "qwen",
    displayName: "Qwen Code",
    protocol: qwen,
    detection: 3,
    configDir: { env: "QWEN_HOME", home: ".qwen" },
    installer: qwenInstaller,
    doctor: qwenDoctor,
  },
  { name: "opencode", displayName: "opencode", installer: opencodeInstaller, doctor: opencodeDoctor },
  { name: "native", displayName: "Hookbox's native events", protocol: native, detection: 1 },
] as const satisfies readonly AgentRow[];

type Row = (typeof AGENTS)[number];

/** Every agent in the table. */
export type AgentKey = Row["name"];
/** The dialects `hookbox emit --agent` speaks (the rows with a protocol). */
export type AgentName = Extract<Row, { readonly protocol: AgentProtocol }>["name"];
/** The agents `hookbox install-agent` configures (the rows with an installer). */
export type InstallAgent = Extract<Row, { readonly installer: InstallPlanner }>["name"];
/** The agents whose user config directory a variable moves (the rows with a configDir). */
export type ConfigDirAgent = Extract<Row, { readonly configDir: AgentConfigDir }>["name"];
/** Their directories' names among self-protect's `${…}` locations: the variable in lower case (claude_config_dir). */
export type AgentLocationName = Lowercase<Extract<Row, { readonly configDir: AgentConfigDir }>["configDir"]["env"]>;
/** The agents whose hook settings `hookbox import` reads (the rows with an importer). */
export type ImportAgent = Extract<Row, { readonly importer: AgentImporter }>["name"];
/** The agents doctor probes (the rows with a doctor). */
export type DoctorAgent = Extract<Row, { readonly doctor: AgentDoctor }>["name"];

const BY_NAME: ReadonlyMap<string, AgentRow> = new Map(AGENTS.map((row) => [row.name, row]));

/** The row of the agent called `name`; undefined for a name the table does not have. */
export function agentRow(name: string): AgentRow | undefined {
  return BY_NAME.get(name);
}

/** The product's name for people ("Claude Code"), or the name itself for one the table does not have. */
export function displayName(name: string): string {
  return BY_NAME.get(name)?.displayName ?? name;
}
