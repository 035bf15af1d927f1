import type { Command } from "commander";
import { formatBytes } from "../../sandbox/index.ts";
import { isBroken } from "../registry/registry.ts";
import { registrationByEvent } from "../registry/registration.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { currentHookSet, problemsOf } from "./hook-set.ts";
import { reviewLines } from "./review-lines.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";

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
      const embedded = [...runtime.embedded().values()].sort((a, b) => a.id.localeCompare(b.id));
      if (options.json) await ctx.out(`${JSON.stringify(embedded.map((h) => ({ id: h.id, summary: /^summary:\s*(.*)$/m.exec(h.yaml)?.[1] ?? "" })), null, 2)}\n`);
      else await ctx.out(`${embedded.map((h) => `${h.id.padEnd(26)} ${/^summary:\s*(.*)$/m.exec(h.yaml)?.[1] ?? ""}`).join("\n")}\nEnable them by id in hookbox.yaml:  builtin: [${embedded.slice(0, 2).map((h) => h.id).join(", ")}]\n`);
      return;
    }
    const locations = locationsFrom(ctx, { ...options, builtin: undefined });
    const set = await currentHookSet(ctx, locations, runtime);
    const { snapshot } = set;
    const events = snapshot.eventTypes();
    const problems = problemsOf(set);
    if (options.json) {
      await ctx.out(`${JSON.stringify({ ...registrationByEvent(snapshot), project: set.project ?? null }, null, 2)}\n`);
    } else {
      const lines: string[] = [];
      if (snapshot.operatorStatus.state === "unusable") lines.push("the operator file is invalid: every event is denied until it is fixed (hookbox validate)");
      for (const event of events) {
        lines.push(`${event}`);
        for (const hook of snapshot.registeredFor(event)) {
          if (isBroken(hook)) {
            lines.push(`  ${String(hook.priority).padStart(5)}  ${hook.id}  BROKEN: fails by on_error: ${hook.onError} wherever it would run`);
            for (const problem of hook.problems) lines.push(`         ${problem.file}:${problem.line}:${problem.column}: ${problem.message}`);
            continue;
          }
          const d = hook.definition;
          const match = [d.match.tool ? `tool ${d.match.tool}` : "", d.match.paths ? `paths ${d.match.paths.join(",")}` : "", d.match.fields ? `fields ${Object.keys(d.match.fields).join(",")}` : ""].filter(Boolean).join("; ");
          lines.push(`  ${String(d.priority).padStart(5)}  ${d.id}${match ? `  [${match}]` : ""}  cpu ${d.limits.cpuMs} ms, memory ${formatBytes(d.limits.memoryBytes)}${d.onError === "deny" ? ", fails closed" : ""}`);
          if (d.summary) lines.push(`         ${d.summary}`);
          lines.push(...reviewLines(hook.review, "         "));
        }
      }
      if (lines.length === 0) lines.push(`no hooks found (project: ${set.project ?? "none"})`);
      await ctx.out(`${lines.join("\n")}\n`);
      if (problems.length > 0) ctx.err(`${problems.length} problem(s) — run hookbox validate\n`);
    }
    setExit(problems.every((d) => d.severity === "warning") && snapshot.broken.length === 0 ? EXIT.ok : EXIT.failed);
  });
}
