// src/agents/shared/install owns what the planners behind `hookbox install-agent` share (plans, JSON editing, the hookbox command, install records) and the table of them; each agent's own planner is src/agents/<agent>/install.ts. Pure (text in, text out): no file system, no runtime APIs.
import { HookboxError } from "../core/errors.ts";
import { claudeInstaller } from "./claude/install.ts";
import { codexInstaller } from "./codex/install.ts";
import { copilotInstaller } from "./copilot/install.ts";
import { cursorInstaller } from "./cursor/install.ts";
import { geminiInstaller } from "./gemini/install.ts";
import { opencodeInstaller } from "./opencode/install.ts";
import { qwenInstaller } from "./qwen/install.ts";
import {
  INSTALL_AGENTS,
  INSTALL_SCOPES,
  type InstallAgent,
  type InstallDirs,
  type InstallOptions,
  type InstallPlan,
  type InstallPlanner,
  type InstallScope,
} from "./shared/install/types.ts";

export {
  INSTALL_AGENTS,
  INSTALL_SCOPES,
  type HttpHookOptions,
  type InstallAgent,
  type InstallDirs,
  type InstallOptions,
  type InstallPlan,
  type InstallPlanner,
  type InstallScope,
} from "./shared/install/types.ts";
export { runsHookboxEmit } from "./shared/install/command.ts";

export const INSTALLERS: Readonly<Record<InstallAgent, InstallPlanner>> = {
  claude: claudeInstaller,
  gemini: geminiInstaller,
  cursor: cursorInstaller,
  codex: codexInstaller,
  copilot: copilotInstaller,
  qwen: qwenInstaller,
  opencode: opencodeInstaller,
};

export function isInstallAgent(name: string): name is InstallAgent {
  return (INSTALL_AGENTS as readonly string[]).includes(name);
}

/** Where `agent` keeps its hooks for `scope` (research §8.4); a usage error for a scope the agent does not have. */
export function configPath(agent: InstallAgent, scope: InstallScope, dirs: InstallDirs): string {
  const path = INSTALLERS[agent].configPath(scope, dirs);
  if (path === undefined) {
    const scopes = INSTALL_SCOPES.filter((other) => INSTALLERS[agent].configPath(other, dirs) !== undefined).map((other) => `--${other}`);
    throw new HookboxError(
      "usage",
      `--${scope} does not apply to ${agent}: ${scope === "local" ? "it is Claude Code's .claude/settings.local.json; " : ""}${agent} has ${scopes.join(" and ")}`,
    );
  }
  return path;
}

/** The agent's config file with Hookbox's entries merged in; a second run with the same options changes nothing. */
export function planInstall(agent: InstallAgent, existingText: string | undefined, options: InstallOptions = {}): InstallPlan {
  if (options.http !== undefined && agent !== "claude") {
    throw new HookboxError("usage", `--http is for Claude Code only (its type: "http" hooks); ${agent} runs \`hookbox emit\``);
  }
  return INSTALLERS[agent].planInstall(existingText, options);
}

/** The agent's config file without Hookbox's entries; unchanged (changed: false) when it has none. */
export function planUninstall(agent: InstallAgent, existingText: string | undefined, options: Pick<InstallOptions, "file"> = {}): InstallPlan {
  return INSTALLERS[agent].planUninstall(existingText, options);
}
