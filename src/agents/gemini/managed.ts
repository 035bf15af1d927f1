import { underRoot } from "../../core/text/posix-path.ts";
import { isJsonObject } from "../shared/install/json-value.ts";
import { parseJsonDocument } from "../shared/install/json-document.ts";
import { jsonManagedSettings } from "../shared/install/managed.ts";
import { installer } from "./install.ts";

/**
 * Gemini CLI's system settings (/etc/gemini-cli/settings.json, the "system overrides", 0.61.0):
 * merged after the user's and the workspace's, so a single value set there wins; hooks lists are
 * concatenated across the files. GEMINI_CLI_SYSTEM_SETTINGS_PATH moves it — an environment
 * variable of the user's (see `cannot`).
 */
export const managed = jsonManagedSettings({
  agent: "gemini",
  label: "Gemini CLI system settings",
  installer: installer,
  path: (root) => underRoot(root, "/etc/gemini-cli/settings.json"),
  keys: () => ({ "hooksConfig.enabled": true }),
  movedBy: "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
  async userOverrides(read, { home, project }) {
    const problems: string[] = [];
    for (const settings of [`${home}/.gemini/settings.json`, `${project}/.gemini/settings.json`]) {
      const text = await read(settings);
      if (text === undefined) continue;
      try {
        const config = parseJsonDocument(text, settings).root.hooksConfig;
        const disabled = isJsonObject(config) && Array.isArray(config.disabled) ? config.disabled : [];
        if (disabled.includes("hookbox"))
          problems.push(`${settings} lists "hookbox" in hooksConfig.disabled, which Gemini CLI merges with the system's: these entries are off`);
      } catch {
        // not ours to report
      }
    }
    return problems;
  },
  holds:
    "Gemini CLI adds the system settings' hooks to the user's and the project's: a settings file of theirs that replaces or empties its hooks does not remove these, and hooksConfig.enabled: true there overrides a user's false.",
  cannot: [
    "a user's hooksConfig.disabled is merged with the system's as a union: listing \"hookbox\" there switches these entries off too (hookbox doctor says so)",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH, where the user starts Gemini CLI (their shell's startup files), points it at another file",
    "in a folder Gemini CLI does not trust, or with GEMINI_CLI_TRUST_WORKSPACE=false, it runs no hook at all, these included",
  ],
  checked:
    "Gemini CLI 0.61.0 (getSystemSettingsPath, mergeSettings; hooks CONCAT, hooksConfig.disabled UNION); run offline by test/e2e/system-tier-agents.test.ts",
});
