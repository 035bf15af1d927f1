import type { AuditEntry } from "../../decide/audit/record.ts";
import { guardsOf, unguardedMessage } from "../../decide/guards.ts";
import type { HookSets, ProjectHookSet } from "../../decide/hook-sets.ts";
import { selfProtectState } from "../../decide/self-protect.ts";

/**
 * The hook sets the daemon serves in which no guard but self-protect stands before a tool call,
 * each as the sentence every console page shows at its top: the agents sending events there
 * (from the recent audit log) run unguarded. None loaded yet: the set every project starts from.
 */
export async function unguardedWarnings(
  hookSets: Pick<HookSets, "projects" | "ifLoaded" | "forProject">,
  entries: readonly AuditEntry[],
  operatorFile: string,
): Promise<string[]> {
  const loaded = (await Promise.all(hookSets.projects().map((project) => hookSets.ifLoaded(project)))).filter(
    (set): set is ProjectHookSet => set !== undefined,
  );
  const sets = loaded.length > 0 ? loaded : [await hookSets.forProject(undefined)];
  const agents = new Map<string, Set<string>>();
  for (const entry of entries) {
    if (!("kind" in entry) || entry.kind !== "decision" || entry.agent === undefined) continue;
    const key = entry.project ?? "";
    agents.set(key, (agents.get(key) ?? new Set()).add(entry.agent));
  }
  return sets
    .filter(({ snapshot }) => snapshot.operatorStatus.state === "ok" && guardsOf(snapshot.hooks).length === 0)
    .map(({ project, snapshot }) => {
      const seen = [...(agents.get(project ?? "") ?? [])].sort();
      const who = `${project ? `Project ${project}` : "Every project"}${seen.length > 0 ? ` (${seen.join(", ")})` : ""}`;
      return unguardedMessage(who, operatorFile, selfProtectState(snapshot.operator) === "on");
    });
}
