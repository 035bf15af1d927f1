import type { Command } from "commander";
import { formatBytes } from "../../sandbox/index.ts";
import { isBroken } from "../hooks/registry/registry.ts";
import { registrationByEvent } from "../hooks/registry/registration.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { currentHookSet, missingInputExit, problemsOf } from "./hook-set.ts";
import { reviewLines, reviewWidth } from "./review-lines.ts";
import { plural } from "../core/text/plural.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";
import { describeSelfProtection, selfProtectState } from "../decide/self-protect.ts";

/**
 * The standard hooks in this binary, each with what it may do: its permissions as the operator
 * file would narrow them (loaded alone, as `hookbox show` does), whether or not it is enabled.
 */
async function standardHooksListing(
  ctx: CliContext,
  options: { hooks?: string[]; config?: string; json?: boolean },
  runtime: HookRuntimeFactory,
): Promise<string> {
  // Every one by id: `all` would leave out those that need a model endpoint not configured here.
  const locations = { ...locationsFrom(ctx, { ...options, builtin: undefined }), hookSources: [], builtin: [...runtime.embedded().keys()] };
  const { snapshot } = await currentHookSet(ctx, locations, runtime);
  const hooks = [...runtime.embedded().values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((h) => {
      const loaded = snapshot.hooks.find((l) => l.definition.id === h.id);
      return {
        id: h.id,
        summary: loaded?.definition.summary ?? /^summary:\s*(.*)$/m.exec(h.yaml)?.[1] ?? "",
        grants: loaded ? [...loaded.grants.summary] : [],
        loads: loaded !== undefined,
      };
    });
  if (options.json) return `${JSON.stringify(hooks, null, 2)}\n`;
  const lines = hooks.flatMap((h) => [
    `${h.id.padEnd(26)} ${h.summary}`,
    ...(!h.loads
      ? ["    does not load under this operator file: hookbox show " + h.id]
      : h.grants.length
        ? h.grants.map((g) => `    may: ${g}`)
        : ["    may: nothing (it decides from the event alone)"]),
  ]);
  return `${lines.join("\n")}\nEnable them by id in hookbox.yaml:  builtin: [${hooks
    .slice(0, 2)
    .map((h) => h.id)
    .join(", ")}]; hookbox show <id> for one's README\n`;
}

export function registerList(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("list")
      .description("List the hooks that would run, grouped by event, in run order")
      .option("--json", "print the registration JSON")
      .option("--builtin", "list the standard hooks embedded in this binary instead"),
    { builtinOption: false },
  ).action(async (options: { hooks?: string[]; config?: string; json?: boolean; builtin?: boolean }) => {
    if (options.builtin) {
      await ctx.out(await standardHooksListing(ctx, options, runtime));
      setExit(EXIT.ok);
      return;
    }
    const locations = locationsFrom(ctx, { ...options, builtin: undefined });
    const set = await currentHookSet(ctx, locations, runtime);
    const missing = await missingInputExit(ctx, locations);
    const { snapshot } = set;
    const events = snapshot.eventTypes();
    const problems = problemsOf(set);
    if (options.json) {
      await ctx.out(
        `${JSON.stringify({ ...registrationByEvent(snapshot), project: set.project ?? null, self_protect: selfProtectState(snapshot.operator) }, null, 2)}\n`,
      );
    } else {
      const lines: string[] = [];
      if (snapshot.operatorStatus.state === "unusable")
        lines.push("the operator file is invalid: every event is denied until it is fixed (hookbox validate)");
      for (const event of events) {
        lines.push(`${event}`);
        for (const hook of snapshot.registeredFor(event)) {
          if (isBroken(hook)) {
            lines.push(`  ${String(hook.priority).padStart(5)}  ${hook.id}  BROKEN: fails by on_error: ${hook.onError} wherever it would run`);
            for (const problem of hook.problems) lines.push(`         ${problem.file}:${problem.line}:${problem.column}: ${problem.message}`);
            continue;
          }
          const d = hook.definition;
          const match = [
            d.match.tool ? `tool ${d.match.tool}` : "",
            d.match.paths ? `paths ${d.match.paths.join(",")}` : "",
            d.match.fields ? `fields ${Object.keys(d.match.fields).join(",")}` : "",
          ]
            .filter(Boolean)
            .join("; ");
          lines.push(
            `  ${String(d.priority).padStart(5)}  ${d.id}${match ? `  [${match}]` : ""}  cpu ${d.limits.cpuMs} ms, memory ${formatBytes(d.limits.memoryBytes)}${d.onError === "deny" ? ", fails closed" : ""}${d.mode === "monitor" ? `, MONITOR: decides nothing (hookbox promote ${d.id})` : ""}`,
          );
          if (d.summary) lines.push(`         ${d.summary}`);
          lines.push(...reviewLines(hook.review, "         ", { width: reviewWidth(ctx), details: "withheld" }));
        }
      }
      if (lines.length === 0) lines.push(`no hooks found (project: ${set.project ?? "none"})`);
      lines.push(`self-protection ${describeSelfProtection(snapshot.operator, ctx.host.homeDir())}`);
      await ctx.out(`${lines.join("\n")}\n`);
      if (problems.length > 0) ctx.err(`${plural(problems.length, "problem")} — run hookbox validate\n`);
    }
    setExit(missing ?? (problems.every((d) => d.severity === "warning") && snapshot.broken.length === 0 ? EXIT.ok : EXIT.failed));
  });
}
