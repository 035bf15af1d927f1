import type { Command } from "commander";
import { formatDiagnostic } from "../config/diagnostics.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { openRegistry, readOperatorFile } from "../registry/open.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

export function registerValidate(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("validate")
      .description("Check the operator file and every hook file: schema, events, matchers, handlers (compiled), permissions")
      .option("--json", "print the problems as JSON")
      .addHelpText("after", "\nExit status: 0 when everything is valid (warnings are printed), 1 when there are problems (each printed as file:line:col: field: message)."),
  ).action(async (options: { hooks?: string[]; config?: string; json?: boolean }) => {
    const locations = locationsFrom(ctx, options);
    const operator = await readOperatorFile(ctx.host, locations);
    const diagnostics = operator.ok ? [] : [...operator.diagnostics];
    let hookCount = 0;
    if (operator.ok) {
      const registry = await openRegistry(ctx.host, locations, runtime.capabilities(locations), runtime.embedded());
      const snapshot = registry.current();
      diagnostics.push(...snapshot.diagnostics);
      hookCount = snapshot.hooks.length;
    }
    // Warnings (a grant made inert on this machine) are printed but do not fail validation.
    const errors = diagnostics.filter((d) => d.severity !== "warning");
    const warnings = diagnostics.length - errors.length;
    const warned = warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : "";
    if (options.json) {
      await ctx.out(`${JSON.stringify({ ok: errors.length === 0, hooks: hookCount, problems: diagnostics }, null, 2)}\n`);
    } else {
      for (const diagnostic of diagnostics) ctx.err(`${formatDiagnostic(diagnostic)}\n`);
      const files = new Set(errors.map((d) => d.file)).size;
      await ctx.out(
        errors.length === 0
          ? `ok: ${hookCount} hook${hookCount === 1 ? "" : "s"} valid${warned}\n`
          : `${errors.length} problem${errors.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}; ${hookCount} hook${hookCount === 1 ? "" : "s"} valid${warned}\n`,
      );
    }
    setExit(errors.length === 0 ? EXIT.ok : EXIT.failed);
  });
}
