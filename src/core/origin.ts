// Whose a hook is, by where it was found. In core because the hooks (their order and limits) and
// the capabilities (what a grant allows by default) both decide by it.

/**
 * Where a hook came from: shown and audited, and it orders hooks (registry TIER): the operator's
 * and standard hooks, then installed packages (a hookbox.lock describes them), then the project's.
 */
export type HookOrigin = "builtin" | "user" | "project" | "dir" | "package";

/**
 * Hooks the operator did not write or choose by path: a project's (they arrive with a `git clone`)
 * and installed packages (a community author's). They run under community_limits and may not
 * rewrite events unless the operator allows it.
 */
export function isCommunity(origin: HookOrigin): boolean {
  return origin === "project" || origin === "package";
}
