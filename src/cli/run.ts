import type { Command } from "commander";
import { compileHandler, createHandlerSpec, type InvocationOutcome, type SandboxFailure } from "../../sandbox/index.ts";
import { guestModuleSources } from "../hooks/builtin/index.ts";
import { HOOK_API_METHODS } from "../capabilities/index.ts";
import { stepEffect } from "../decide/chain/chain.ts";
import { HookboxError } from "../core/errors.ts";
import type { NativeEvent } from "../core/events/types.ts";
import { locateInvalidResult } from "../decide/testing/result-location.ts";
import { openPool, parseJson, readTextFile, type CliContext } from "./context.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";
import { addLimitFlags, limitsFromFlags } from "./limits-flags.ts";
import { formatOutcome, outcomeJson } from "./format.ts";

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
The result is checked as the pipeline checks it: an unknown action or key, or a modify without
data, is a failure (handler_result_invalid) shown with the line that wrote it. The handler gets a
hook object whose methods all refuse (no capabilities are granted here) and an empty config.

Examples:
  hookbox run handler.ts --event event.json
  echo '{"tool_name":"Write"}' | hookbox run handler.ts --event - --cpu-ms 50 --json

Exit status: 0 when the handler returned a valid result, 1 when it failed (threw, broke a limit,
returned an invalid result), 2 on a usage error.`,
    );
  addLimitFlags(command).action(async (handlerPath: string, options: Record<string, unknown>) => {
    const limits = limitsFromFlags(options);
    const source = await readTextFile(ctx, handlerPath, "handler");
    const event = parseJson(await readTextFile(ctx, String(options.event), "event"), `event ${String(options.event)}`);
    const compiled = await compileHandler(source, handlerPath, guestModuleSources);
    if (!compiled.ok) throw new HookboxError(compiled.failure.code, compiled.failure.message);
    const spec = await createHandlerSpec({
      id: "hookbox-run",
      handler: compiled.handler,
      hostFunctions: HOOK_API_METHODS,
      hookData: { id: "hookbox-run", config: {} },
    });
    const pool = await openPool(ctx, 1);
    let outcome: InvocationOutcome;
    try {
      outcome = await pool.invoke(spec, event, limits, (name) =>
        Promise.reject(new Error(`hook.${name}: no capabilities are granted in \`hookbox run\`; test the hook with its grants by hookbox test`)),
      );
    } finally {
      await pool.close();
    }
    outcome = asThePipelineSeesIt(outcome, event, handlerPath, source);
    if (options.json) await ctx.out(`${JSON.stringify(outcomeJson(outcome), null, 2)}\n`);
    else {
      const { stdout, stderr } = formatOutcome(outcome, source);
      if (stderr) ctx.err(stderr);
      if (stdout) await ctx.out(stdout);
    }
    setExit(outcome.ok ? EXIT.ok : exitCodeFor(outcome.failure.code));
  });
}

/** A returned value the pipeline would refuse is a failure here too, located where the source writes it. */
function asThePipelineSeesIt(outcome: InvocationOutcome, event: unknown, file: string, source: string): InvocationOutcome {
  if (!outcome.ok) return outcome;
  const effect = stepEffect(outcome, event as NativeEvent);
  if (effect.kind !== "failed") return outcome;
  const at = locateInvalidResult(source, outcome.value);
  const failure: SandboxFailure = {
    code: "handler_result_invalid",
    message: `${effect.message}; it returned ${shown(outcome.value)}`,
    ...(at ? { location: { file, ...at } } : {}),
  };
  return { ok: false, failure, logs: outcome.logs, stats: outcome.stats };
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
