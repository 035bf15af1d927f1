// Warming a project's hooks before its first event: the daemon emit starts, and a session's start,
// build every hook's guest ahead of the tool calls that need them.
import type { Executor } from "../../decide/executor.ts";
import type { HookSets } from "../../decide/hook-sets.ts";
import { errorMessage } from "../../core/errors.ts";

export interface WarmDeps {
  readonly hookSets: Pick<HookSets, "forProject">;
  readonly executor: Pick<Executor, "prepare">;
  readonly log: (line: string) => void;
}

/** What one warm-up did: hooks whose guests were built (or already warm), and those that failed. */
export interface WarmReport {
  readonly project: string | undefined;
  readonly hooks: number;
  readonly failed: readonly string[];
  readonly ms: number;
}

/**
 * Load `project`'s hook set and build every handler's guest in the sandbox, with no event: its
 * instance, prelude, hook object and module top level (the handler itself is not called, so no
 * hook acts and no event data is involved). The first tool call of a session then runs at the
 * speed of the rest. A hook that fails to build is only reported: its first event fails it by its
 * on_error, as it would have without the warm-up. Never throws.
 */
export async function warmProject(deps: WarmDeps, project: string | undefined): Promise<WarmReport> {
  const started = performance.now();
  const where = project ?? "the user's hooks";
  try {
    const { snapshot } = await deps.hookSets.forProject(project);
    const hooks = snapshot.hooks
      .flatMap((hook) =>
        hook.spec ? [{ id: hook.definition.id, events: hook.definition.events, spec: hook.spec, limits: hook.definition.limits }] : [],
      )
      .sort((a, b) => firstNeeded(a.events) - firstNeeded(b.events));
    const failed: string[] = [];
    const built: { id: string; ms: number }[] = [];
    // One hook at a time: an event arriving meanwhile runs right after the hook being built,
    // not after all of them (SandboxPool routes it to this worker rather than start a cold one).
    for (const { id, spec, limits } of hooks) {
      const [outcome] = (await deps.executor.prepare([{ spec, limits }])).outcomes;
      if (outcome && !outcome.ok && outcome.failure.code === "sandbox_closed") return { project, hooks: hooks.length, failed, ms: 0 };
      if (outcome && !outcome.ok) failed.push(`${id} (${outcome.failure.message})`);
      if (outcome?.ok && outcome.stats.coldStart) built.push({ id, ms: outcome.stats.wallMs });
    }
    const report = { project, hooks: hooks.length, failed, ms: Math.round(performance.now() - started) };
    deps.log(
      `warmed ${where}: ${hooks.length - failed.length} of ${hooks.length} hook guest${hooks.length === 1 ? "" : "s"} built in ${report.ms} ms${slowest(built)}${failed.length ? `; could not build ${failed.join(", ")}` : ""}`,
    );
    return report;
  } catch (error) {
    deps.log(`could not warm ${where} (${errorMessage(error)}): its first event builds its hooks instead`);
    return { project, hooks: 0, failed: [], ms: Math.round(performance.now() - started) };
  }
}

/** The events a session's first tool call brings, in order: the hooks they run are built first. */
const FIRST_NEEDED = ["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit"];

function firstNeeded(events: readonly string[]): number {
  const ranks = events.map((event) => FIRST_NEEDED.indexOf(event)).filter((rank) => rank >= 0);
  return ranks.length > 0 ? Math.min(...ranks) : FIRST_NEEDED.length;
}

/** The builds that took longest, for the log: where a warm-up's time went. */
function slowest(built: readonly { id: string; ms: number }[]): string {
  const top = [...built].sort((a, b) => b.ms - a.ms).slice(0, 3);
  return top.length ? ` (slowest: ${top.map(({ id, ms }) => `${id} ${Math.round(ms)} ms`).join(", ")})` : "";
}
