import type { Command } from "commander";
import { handlerDeclarations } from "../hooks/builtin/index.ts";
import type { HandlerToCheck } from "../hooks/check/index.ts";
import { formatDiagnostic, type Diagnostic } from "../hooks/config/diagnostics.ts";
import type { ProjectHookSet } from "../decide/hook-sets.ts";
import { readTextFile, type CliContext } from "./context.ts";
import { sourceExcerpt } from "./excerpt.ts";
import { EXIT } from "./exit-codes.ts";
import { currentHookSet } from "./hook-set.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";

export interface TypeCheckReport {
  readonly typescript: string;
  readonly handlers: number;
  readonly problems: readonly Diagnostic[];
}

/** Type-check handlers with the bundled compiler, loaded here and nowhere else (it is large). */
export async function typeCheck(handlers: readonly HandlerToCheck[]): Promise<TypeCheckReport> {
  const { typeCheckHandlers, TYPESCRIPT_VERSION } = await import("../hooks/check/index.ts");
  return { typescript: TYPESCRIPT_VERSION, handlers: handlers.length, problems: typeCheckHandlers(handlers, handlerDeclarations()) };
}

/** The TypeScript source of every handler the hook set runs (standard hooks' from the binary). Broken hooks have none to give. */
/**
 * The handlers of a hook set to type-check. Standard hooks are type-checked when Hookbox is built
 * (test/check) and are not the user's to fix — self-protect is in every set — so they are
 * checked only when named with --builtin (`all` for every one).
 */
export async function handlersOf(
  ctx: CliContext,
  set: ProjectHookSet,
  runtime: HookRuntimeFactory,
  builtinFlags: readonly string[] = [],
): Promise<HandlerToCheck[]> {
  const embedded = runtime.embedded();
  const handlers: HandlerToCheck[] = [];
  for (const hook of set.snapshot.hooks) {
    const handler = hook.definition.handler;
    // A hook written in YAML alone has no handler to type-check.
    if (!handler) continue;
    if (handler.kind === "inline") {
      handlers.push({ file: `${hook.file}#handler`, source: handler.code });
      continue;
    }
    const builtin = /^builtin:([^/]+)\/(.+)$/.exec(handler.path);
    if (builtin && !builtinFlags.some((flag) => flag === "all" || flag === builtin[1])) continue;
    const source = builtin ? embedded.get(builtin[1] as string)?.files[builtin[2] as string] : await readTextFile(ctx, handler.path, "handler");
    if (source !== undefined) handlers.push({ file: handler.path, source });
  }
  return handlers;
}

/** Problems as validate prints them, each followed by the line it points at. */
export function formatTypeProblems(problems: readonly Diagnostic[], sources: readonly HandlerToCheck[]): string {
  const byFile = new Map(sources.map((s) => [s.file, s.source]));
  return problems
    .map((problem) => {
      const [first, ...rest] = formatDiagnostic(problem).split("\n");
      const source = byFile.get(problem.file);
      return `${first}\n${rest.map((line) => `  ${line}\n`).join("")}${source ? sourceExcerpt(source, problem.line, problem.column) : ""}`;
    })
    .join("");
}

export function registerCheck(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("check")
      .description("Type-check handlers against the handler API (hookbox types) with the TypeScript compiler in this binary")
      .argument("[handlers...]", "TypeScript handler files; default: the handler of every hook this project would run (as hookbox validate)")
      .option("--json", "print the problems as JSON")
      .addHelpText(
        "after",
        `
Each handler is checked on its own, strict, against ES2023 and the declarations hookbox types
prints (what the sandbox offers: no DOM, no Node, no imports but "hookbox" and "hookbox:*").
Its default export is held to HookHandler even where it has no types of its own, so
\`export default (event) => ({ action: "dny" })\` is reported at its line.

Examples:
  hookbox check                          # every handler of this project's hooks
  hookbox check .hookbox/hooks/x/handler.ts

Exit status: 0 when every handler type-checks, 1 when one does not, 2 on a usage error.`,
      ),
  ).action(async (files: string[], options: { hooks?: string[]; config?: string; builtin?: string[]; json?: boolean }) => {
    const set = files.length > 0 ? undefined : await currentHookSet(ctx, locationsFrom(ctx, options), runtime);
    const handlers = set
      ? await handlersOf(
          ctx,
          set,
          runtime,
          (options.builtin ?? []).flatMap((flag) => flag.split(",")),
        )
      : await Promise.all(files.map(async (file) => ({ file, source: await readTextFile(ctx, file, "handler") })));
    const checked = await typeCheck(handlers);
    // A hook that does not load (its handler does not even compile) has nothing to type-check: its problems are the answer.
    const report = { ...checked, problems: [...(set?.snapshot.broken.flatMap((hook) => hook.problems) ?? []), ...checked.problems] };
    const ok = report.problems.length === 0;
    if (options.json) await ctx.out(`${JSON.stringify({ ok, ...report }, null, 2)}\n`);
    else {
      if (!ok) ctx.err(formatTypeProblems(report.problems, handlers));
      const count = `${report.handlers} handler${report.handlers === 1 ? "" : "s"}`;
      await ctx.out(
        ok
          ? `ok: ${count} type-check${report.handlers === 1 ? "s" : ""} (TypeScript ${report.typescript})\n`
          : `${report.problems.length} problem${report.problems.length === 1 ? "" : "s"} in ${count} (TypeScript ${report.typescript})\n`,
      );
    }
    setExit(ok ? EXIT.ok : EXIT.failed);
  });
}
