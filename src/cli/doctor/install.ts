import { compileHandler, createHandlerSpec, DEFAULT_LIMITS } from "../../../sandbox/index.ts";
import { BUILD_ID, versionInfo } from "../../core/version/index.ts";
import { catalogDigest } from "../../hooks/builtin/standard-hooks.ts";
import { openPool, type CliContext } from "../context.ts";
import { fail, pass, type DoctorCheck } from "./check.ts";

/** The binary carries what it needs: this build, the transpiler, QuickJS in a sandbox worker. */
export async function installationChecks(ctx: CliContext): Promise<DoctorCheck[]> {
  const info = await versionInfo(catalogDigest);
  const where = ctx.host.binaryPath() ? ` (${ctx.host.binaryPath()})` : " (from sources)";
  const checks: DoctorCheck[] = [
    pass(
      "build",
      `hookbox ${BUILD_ID}, commit ${info.commit}, built ${info.buildDate}, ${info.target}, Bun ${info.bun}, QuickJS ${info.quickjs}${where}`,
    ),
  ];
  const compiled = await compileHandler("export default (e: { a: number }): { sum: number } => ({ sum: e.a + 1 })", "doctor.ts");
  checks.push(compiled.ok ? pass("transpiler", "TypeScript compiles") : fail("transpiler", compiled.failure.message));
  if (!compiled.ok) return checks;
  const started = performance.now();
  try {
    const pool = await openPool(ctx, 1);
    try {
      const spec = await createHandlerSpec({ id: "doctor", handler: compiled.handler });
      const outcome = await pool.invoke(spec, { a: 1 }, DEFAULT_LIMITS, () => Promise.reject(new Error("none")));
      const ok = outcome.ok && (outcome.value as { sum?: number }).sum === 2;
      const ms = (performance.now() - started).toFixed(0);
      checks.push(ok ? pass("sandbox", `QuickJS ran in a worker process (${ms} ms cold)`) : fail("sandbox", JSON.stringify(outcome)));
    } finally {
      await pool.close();
    }
  } catch (error) {
    checks.push(fail("sandbox", String(error)));
  }
  return checks;
}
