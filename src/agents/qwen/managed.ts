import { underRoot } from "../../core/text/posix-path.ts";
import { jsonManagedSettings } from "../shared/install/managed.ts";
import { installer } from "./install.ts";

/**
 * Qwen Code's system settings (/etc/qwen-code/settings.json, 0.24.4, forked from Gemini CLI's
 * loader): its hooks are loaded as the "system" source beside the user's and the project's, and a
 * single value set there (disableAllHooks) wins over theirs. QWEN_CODE_SYSTEM_SETTINGS_PATH moves it.
 */
export const managed = jsonManagedSettings({
  agent: "qwen",
  label: "Qwen Code system settings",
  installer: installer,
  path: (root) => underRoot(root, "/etc/qwen-code/settings.json"),
  keys: () => ({ disableAllHooks: false }),
  movedBy: "QWEN_CODE_SYSTEM_SETTINGS_PATH",
  holds:
    "Qwen Code runs the system settings' hooks beside the user's and the project's (a settings file of theirs cannot remove them), and disableAllHooks: false there overrides a user's true.",
  cannot: [
    "QWEN_CODE_SYSTEM_SETTINGS_PATH, where the user starts Qwen Code, points it at another file",
    "started with --bare or --safe-mode (the user's own flags), it runs no hook",
  ],
  checked:
    "Qwen Code 0.24.4 (getSystemSettingsPath, HookRegistry.processHooksFromConfig: system hooks loaded as their own source); format as its user settings",
});
