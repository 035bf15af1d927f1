import type { Command } from "commander";
import { compileHandler, createHandlerSpec, DEFAULT_LIMITS } from "../../sandbox/index.ts";
import { openPool, type CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

export interface DoctorReport {
  readonly runtime: string;
  readonly ok: boolean;
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly detail: string }[];
}

/** Proves the binary carries what it needs: the wasm runs in a worker, TypeScript compiles. */
export async function runDoctor(ctx: CliContext): Promise<DoctorReport> {
  const checks: { name: string; ok: boolean; detail: string }[] = [];
  const compiled = await compileHandler("export default (e: { a: number }): { sum: number } => ({ sum: e.a + 1 })", "doctor.ts");
  checks.push({ name: "transpiler", ok: compiled.ok, detail: compiled.ok ? "TypeScript compiles" : compiled.failure.message });
  if (compiled.ok) {
    const started = performance.now();
    try {
      const pool = await openPool(ctx, 1);
      try {
        const spec = await createHandlerSpec({ id: "doctor", handler: compiled.handler });
        const outcome = await pool.invoke(spec, { a: 1 }, DEFAULT_LIMITS, () => Promise.reject(new Error("none")));
        const ok = outcome.ok && (outcome.value as { sum?: number }).sum === 2;
        const ms = (performance.now() - started).toFixed(0);
        checks.push({ name: "sandbox", ok, detail: ok ? `QuickJS ran in a worker process (${ms} ms cold)` : JSON.stringify(outcome) });
      } finally {
        await pool.close();
      }
    } catch (error) {
      checks.push({ name: "sandbox", ok: false, detail: String(error) });
    }
  }
  return { runtime: ctx.host.name, ok: checks.every((c) => c.ok), checks };
}

export function registerDoctor(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("doctor")
    .description("Check that this installation works: the embedded QuickJS runs in a sandbox worker, TypeScript compiles")
    .option("--json", "print the report as JSON")
    .action(async (options: { json?: boolean }) => {
      const report = await runDoctor(ctx);
      if (options.json) await ctx.out(`${JSON.stringify(report, null, 2)}\n`);
      else await ctx.out(`${report.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`).join("\n")}\n`);
      setExit(report.ok ? EXIT.ok : EXIT.internal);
    });
}
