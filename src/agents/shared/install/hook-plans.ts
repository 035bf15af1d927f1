import { hooksSection, mergeFlatHooks, mergeGroupedHooks, type DesiredEntry, type IsHookboxHandler, type MergeResult } from "./hook-entries.ts";
import { removeHookboxHooks, type HooksShape } from "./hook-removal.ts";
import { planJsonConfig, type JsonDialect } from "./plan.ts";
import type { InstallOptions, InstallPlanner } from "./types.ts";

/** What differs between agents in how Hookbox's entries go in and out of their config file. */
export interface HookPlansSpec {
  /** The file in messages when no path is given ("Claude Code settings"). */
  readonly label: string;
  readonly shape: HooksShape;
  readonly dialect: JsonDialect;
  readonly isHookbox: IsHookboxHandler;
  /** The entries wanted; throws HookboxError("usage") for options the agent cannot take. */
  entries(options: InstallOptions): DesiredEntry[];
  /** What the agent needs outside "hooks" before the merge (Cursor's "version": 1). */
  prepare?(root: Record<string, unknown>, file: string, existingText: string | undefined): MergeResult;
  /** "!" lines: settings that stop the agent from running the hooks, steps the user still has to take. */
  notes?(root: Record<string, unknown>, context: { readonly options: InstallOptions; readonly changed: boolean }): string[];
}

/** An agent's planInstall and planUninstall, from what differs between agents. */
export function hookPlans(spec: HookPlansSpec): Pick<InstallPlanner, "planInstall" | "planUninstall"> {
  const merge = spec.shape === "grouped" ? mergeGroupedHooks : mergeFlatHooks;
  return {
    planInstall(existingText, options = {}) {
      const entries = spec.entries(options);
      const file = options.file ?? spec.label;
      const apply = (root: Record<string, unknown>): MergeResult => {
        const prepared = spec.prepare?.(root, file, existingText) ?? { summary: [], mutated: false };
        const merged = merge(hooksSection(root, file), entries, spec.isHookbox, file);
        const mutated = prepared.mutated || merged.mutated;
        const notes = spec.notes?.(root, { options, changed: mutated || existingText === undefined }) ?? [];
        return { summary: [...prepared.summary, ...merged.summary, ...notes], mutated };
      };
      return planJsonConfig(existingText, file, spec.dialect, apply, { creates: true });
    },
    planUninstall(existingText, options = {}) {
      const file = options.file ?? spec.label;
      return planJsonConfig(existingText, file, spec.dialect, (root) => removeHookboxHooks(root, spec.shape, spec.isHookbox, file), {
        creates: false,
      });
    },
  };
}
