import type { Command } from "commander";
import { formatDiagnostic } from "../hooks/config/diagnostic.ts";
import { formatTypeProblems, handlersOf, typeCheck, type TypeCheckReport } from "./check.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { currentHookSet, missingInputExit, problemsOf } from "./hook-set.ts";
import { describeSelfProtection, selfProtectState } from "../decide/self-protect.ts";
import { reviewWidth, withheldGrants } from "./review-lines.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";
import { describeLayers, layersJson } from "./layers-report.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

export function registerValidate(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("validate")
      .description("Check the operator file and every hook this project would run: schema, events, matchers, handlers (compiled), permissions")
      .option("--json", "print the problems as JSON")
      .option("--types", "also type-check every handler (as hookbox check)")
      .addHelpText(
        "after",
        "\nThe hooks checked are the ones an agent's event from this directory would get: the standard hooks the operator file enables, ~/.config/hookbox/hooks, the operator's hooks_dirs, and the project's .hookbox/hooks (found by walking up to the nearest .hookbox/ or .git).\n\nUnder a system policy (/etc/hookbox/hookbox.yaml, hookbox install --system) it also shows the operator settings in force, merged from that policy and your operator file, each line with the file it comes from, and what of yours does not apply and why.\n\nWith --types, every handler is also type-checked against the handler API (hookbox check).\n\nExit status: 0 when everything is valid (warnings are printed), 1 when there are problems (each printed as file:line:col: field: message, every problem of every file), 2 on a usage error or when the operator file given (--config, $HOOKBOX_CONFIG) or a --hooks directory is missing or unreadable.",
      ),
  ).action(async (options: { hooks?: string[]; config?: string; builtin?: string[]; json?: boolean; types?: boolean; systemRoot?: string }) => {
    const locations = locationsFrom(ctx, options);
    const set = await currentHookSet(ctx, locations, runtime);
    const handlers = options.types
      ? await handlersOf(
          ctx,
          set,
          runtime,
          (options.builtin ?? []).flatMap((flag) => flag.split(",")),
        )
      : [];
    const types: TypeCheckReport | undefined = options.types ? await typeCheck(handlers) : undefined;
    const diagnostics = [...problemsOf(set), ...(types?.problems ?? [])];
    const hookCount = set.snapshot.hooks.length;
    const broken = set.snapshot.broken.length;
    // Warnings (a grant made inert on this machine) are printed but do not fail validation.
    const errors = diagnostics.filter((d) => d.severity !== "warning");
    const warnings = diagnostics.length - errors.length;
    const warned = warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : "";
    const failed = errors.length > 0 || broken > 0;
    // A grant the hook will not get does not make it invalid, but it is never reported as fine.
    const withheld = set.snapshot.hooks
      .map((hook) => ({ hook, lines: withheldGrants(hook, "  ", reviewWidth(ctx)) }))
      .filter(({ lines }) => lines.length > 0);
    if (options.json) {
      const grants = Object.fromEntries(set.snapshot.hooks.map((hook) => [hook.definition.id, hook.review]));
      await ctx.out(
        `${JSON.stringify({ ok: !failed, project: set.project ?? null, hooks: hookCount, broken: set.snapshot.broken.map((b) => b.id), operator: set.snapshot.operatorStatus.state, self_protect: selfProtectState(set.snapshot.operator), problems: diagnostics, grants, ...(types ? { typescript: types.typescript } : {}), ...(set.operatorView.layers ? { layers: layersJson(set.operatorView.layers) } : {}) }, null, 2)}\n`,
      );
    } else {
      for (const diagnostic of problemsOf(set)) ctx.err(`${formatDiagnostic(diagnostic)}\n`);
      if (types) ctx.err(formatTypeProblems(types.problems, handlers));
      for (const { hook, lines } of withheld) ctx.err(`${hook.file}: grants of ${hook.definition.id} it will not fully get:\n${lines.join("\n")}\n`);
      const files = new Set(errors.map((d) => d.file)).size;
      const brokenText = broken
        ? `; ${broken} hook${broken === 1 ? "" : "s"} broken (${set.snapshot.broken.map((b) => b.id).join(", ")}): each fails by its on_error wherever it would run`
        : "";
      await ctx.out(
        !failed
          ? `ok: ${hookCount} hook${hookCount === 1 ? "" : "s"} valid${warned}${withheld.length ? `; ${withheld.length} hook${withheld.length === 1 ? " does" : "s do"} not get all the grants declared (above)` : ""}\n`
          : `${errors.length} problem${errors.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}; ${hookCount} hook${hookCount === 1 ? "" : "s"} valid${warned}${brokenText}\n`,
      );
      await ctx.out(`self-protection ${describeSelfProtection(set.snapshot.operator, ctx.host.homeDir())}\n`);
      if (set.operatorView.layers) await ctx.out(`${describeLayers(set.operatorView.layers).join("\n")}\n`);
    }
    setExit((await missingInputExit(ctx, locations)) ?? (failed ? EXIT.failed : EXIT.ok));
  });
}
