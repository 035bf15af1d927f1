import type { Command } from "commander";
import { compileHandler, createHandlerSpec, type InvocationOutcome } from "../../sandbox/index.ts";
import { guestModuleSources } from "../builtin/index.ts";
import { HookboxError } from "../errors.ts";
import { openPool, parseJson, readTextFile, type CliContext } from "./context.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";
import { addLimitFlags, limitsFromFlags } from "./limits-flags.ts";
import { formatOutcome } from "./format.ts";

export function registerRun(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const command = program
    .command("run")
    .description("Run one handler on one event in the sandbox, for debugging (no capabilities are granted)")
    .argument("<handler>", "TypeScript handler file (export default function (event, hook) { … })")
    .requiredOption("--event <file>", "event JSON file, or - for stdin")
    .option("--json", "print the whole outcome (result or failure, logs, stats) as JSON")
    .addHelpText(
      "after",
      `
Examples:
  hookbox run handler.ts --event event.json
  echo '{"tool_name":"Write"}' | hookbox run handler.ts --event - --cpu-ms 50 --json

Exit status: 0 when the handler returned, 1 when it failed (threw, or broke a limit), 2 on a usage error.`,
    );
  addLimitFlags(command).action(async (handlerPath: string, options: Record<string, unknown>) => {
    const limits = limitsFromFlags(options);
    const source = await readTextFile(ctx, handlerPath, "handler");
    const event = parseJson(await readTextFile(ctx, String(options.event), "event"), `event ${String(options.event)}`);
    const compiled = await compileHandler(source, handlerPath, guestModuleSources);
    if (!compiled.ok) throw new HookboxError(compiled.failure.code, compiled.failure.message);
    const spec = await createHandlerSpec({ id: "hookbox-run", handler: compiled.handler });
    const pool = await openPool(ctx, 1);
    let outcome: InvocationOutcome;
    try {
      outcome = await pool.invoke(spec, event, limits, () => Promise.reject(new Error("no capabilities are granted in `hookbox run`")));
    } finally {
      await pool.close();
    }
    if (options.json) await ctx.out(`${JSON.stringify(outcome, null, 2)}\n`);
    else {
      const { stdout, stderr } = formatOutcome(outcome);
      if (stderr) ctx.err(stderr);
      if (stdout) await ctx.out(stdout);
    }
    setExit(outcome.ok ? EXIT.ok : exitCodeFor(outcome.failure.code));
  });
}
