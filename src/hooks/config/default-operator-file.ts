/** The standard guards a new operator file enables (install-agent, serve --default-guards). */
export const DEFAULT_GUARDS = ["guard-secrets", "bash-guard"] as const;

/** What each default guard refuses, in the words the new file shows beside its id. */
const WHAT: Readonly<Record<(typeof DEFAULT_GUARDS)[number], string>> = {
  "guard-secrets": "writes to .env files, keys, credentials and system paths, also through Bash",
  "bash-guard": "rm -rf / or ~, force-push to main, curl … | sh, chmod -R 777, dd to a disk",
};

/**
 * The operator file Hookbox writes when there is none and a person sets it up for an agent
 * (`install-agent`, or `serve --default-guards`): the standard guards on, every line explained.
 * It is the operator's from then on: Hookbox never rewrites an existing one.
 */
export function defaultOperatorFileText(writtenBy: string): string {
  const width = Math.max(...DEFAULT_GUARDS.map((id) => id.length));
  return [
    "# Hookbox's operator file: what Hookbox enforces for every agent you installed it into.",
    `# \`${writtenBy}\` wrote it because there was none. It is yours: edit it freely,`,
    "# Hookbox never rewrites it. `hookbox validate` checks it, `hookbox list` shows the hooks it",
    "# enables, `hookbox show <id>` explains one. The agent cannot change it (self-protect).",
    "#",
    "# The standard guards: each refuses a tool call before it runs.",
    "builtin:",
    ...DEFAULT_GUARDS.map((id) => `  - ${id.padEnd(width)}   # ${WHAT[id]}`),
    "# More standard hooks (protect-production asks before writes under prod/ …): hookbox list --builtin.",
    "# self-protect is always on; only this file turns it off: hooks: { self-protect: { enabled: false } }",
    "",
  ].join("\n");
}

/**
 * The system policy `hookbox install --system` writes when there is none (/etc/hookbox/hookbox.yaml):
 * the standard guards on, and fail_closed, for every user of the machine. Root's from then on.
 */
export function defaultSystemPolicyText(): string {
  const width = Math.max(...DEFAULT_GUARDS.map((id) => id.length));
  return [
    "# Hookbox's system policy: what Hookbox enforces for every user of this machine, in every agent",
    "# whose managed settings `hookbox install --system` pointed at the root-owned binary.",
    "# A user's own operator file (~/.config/hookbox/hookbox.yaml) and their projects may add to it,",
    "# never weaken it: `hookbox validate` shows the merged result and where each line comes from.",
    "# Only root can change this file; `hookbox uninstall --system` takes the whole tier out.",
    "#",
    "# The standard guards: each refuses a tool call before it runs (self-protect is always on).",
    "builtin:",
    ...DEFAULT_GUARDS.map((id) => `  - ${id.padEnd(width)}   # ${WHAT[id]}`),
    "# When Hookbox cannot fully evaluate an event (a hook that cannot load or run, an undecodable",
    "# event, an unwritable audit log), deny it.",
    "fail_closed: true",
    "",
  ].join("\n");
}
