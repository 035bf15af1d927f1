import { underRoot } from "../../core/text/posix-path.ts";
import { jsonManagedSettings } from "../shared/install/managed.ts";
import { installer } from "./install.ts";

/**
 * Variables that run code in a Bun-compiled binary before any of Hookbox's does (BUN_OPTIONS
 * --preload, BUN_BE_BUN, the inspector) or in any dynamically linked program (LD_PRELOAD,
 * LD_AUDIT): set to empty by the managed settings, which Claude Code applies over a user's.
 * LD_LIBRARY_PATH is left alone: toolchains need it (SECURITY.md says what that leaves).
 */
const NEUTRALIZED_ENV = ["BUN_OPTIONS", "BUN_BE_BUN", "BUN_INSPECT", "BUN_INSPECT_CONNECT_TO", "BUN_INSPECT_PRELOAD", "LD_PRELOAD", "LD_AUDIT"];

/**
 * Claude Code's managed settings: /etc/claude-code/managed-settings.json on Linux, fixed (2.1.330
 * reads the directory from a function that returns /etc/claude-code; its
 * CLAUDE_CODE_MANAGED_SETTINGS_PATH override is compiled out of the released binary). The policy
 * tier: hooks there run whatever the user's and the project's settings say.
 */
export const managed = jsonManagedSettings({
  agent: "claude",
  label: "Claude Code managed settings",
  installer: installer,
  path: (root) => underRoot(root, "/etc/claude-code/managed-settings.json"),
  keys: (options) => ({
    ...(options.managedHooksOnly ? { allowManagedHooksOnly: true } : {}),
    // The policy tier wins key by key: a user's settings `env` cannot give the managed hooks (which
    // inherit the session's environment) a variable that loads code into Hookbox's runtime.
    ...Object.fromEntries(NEUTRALIZED_ENV.map((name) => [`env.${name}`, ""])),
  }),
  holds:
    "Claude Code runs the managed settings' hooks whatever a user's or a project's settings say: they cannot remove or override them, and their disableAllHooks does not switch them off; with allowManagedHooksOnly (--managed-hooks-only) it runs no user, project or plugin hook at all.",
  cannot: [],
  checked:
    "Claude Code 2.1.330: the path is fixed in the binary (its override variable is compiled out of the release); run offline by test/e2e/system-tier-agents.test.ts with a user settings file that removes and overrides the hooks",
});
