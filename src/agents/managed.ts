// The agents' managed (system-level) settings, one row per agent that has them: what `hookbox install
// --system` writes for each, where, and what that tier guarantees there (doctor and SECURITY.md say it).
import { claudeManaged } from "./claude/managed.ts";
import { codexManaged } from "./codex/managed.ts";
import { cursorManaged } from "./cursor/managed.ts";
import { geminiManaged } from "./gemini/managed.ts";
import { qwenManaged } from "./qwen/managed.ts";
import type { ManagedSettings } from "./shared/install/managed.ts";
import type { InstallAgent } from "./shared/install/types.ts";

export type { ManagedOptions, ManagedPlan, ManagedSettings } from "./shared/install/managed.ts";

export const MANAGED_SETTINGS: Readonly<Partial<Record<InstallAgent, ManagedSettings>>> = {
  claude: claudeManaged,
  codex: codexManaged,
  gemini: geminiManaged,
  qwen: qwenManaged,
  cursor: cursorManaged,
};

/**
 * The agents without a system tier Hookbox writes, and why: their user-level install is all
 * there is (doctor says "user" for them at best).
 */
export const NO_MANAGED_SETTINGS: Readonly<Partial<Record<InstallAgent, string>>> = {
  copilot:
    "Copilot CLI 1.0.102 reads a device policy (/etc/github-copilot/managed-settings.json, with allowManagedHooksOnly) but its hook format there is not documented and was not checked against the real CLI: Hookbox does not write it yet",
  opencode:
    "opencode 1.18.33 reads an administrator's config (/etc/opencode/opencode.json) but has no hook commands and no managed-only switch: Hookbox's entry is a plugin running inside opencode's process, where a plugin of the user's runs too, so no tier can be enforced there",
};
