import { auditFilePath } from "../../decide/audit/open.ts";
import { verifyAuditLog } from "../../decide/audit/verify.ts";
import { formatDiagnostic } from "../../hooks/config/diagnostic.ts";
import type { Locations } from "../../hooks/config/locations.ts";
import { guardsOf } from "../../decide/guards.ts";
import { describeOperatorProblems } from "../../decide/operator-source.ts";
import type { ProjectHookSet } from "../../decide/hook-sets.ts";
import type { CliContext } from "../context.ts";
import { describeSelfProtection, selfProtectState, selfProtectedPlaces } from "../../decide/self-protect.ts";
import { reviewWidth, withheldGrants } from "../review-lines.ts";
import { plural } from "../../core/text/plural.ts";
import { fail, note, pass, type DoctorCheck } from "./check.ts";

/** What an event from this project would be evaluated with: the operator file, every hook, the audit log. */
export async function hookSetChecks(ctx: CliContext, locations: Locations, { project, snapshot }: ProjectHookSet): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const status = snapshot.operatorStatus;
  const file = locations.operatorFile.path;
  if (status.state === "ok") checks.push(pass("operator file", (await ctx.host.fs.exists(file)) ? `${file} loads` : `${file} absent: all defaults`));
  else checks.push(fail("operator file", `${describeOperatorProblems(status.problems)}: every event is denied until it is fixed (hookbox validate)`));
  const where = project ? ` for ${project}` : "";
  if (snapshot.broken.length === 0) {
    const guards = guardsOf(snapshot.hooks);
    checks.push(
      pass(
        "hooks",
        `${snapshot.hooks.length} hook${snapshot.hooks.length === 1 ? "" : "s"} load${where}; guards: ${guards.length > 0 ? guards.join(", ") : "none but self-protect"}`,
      ),
    );
  } else {
    for (const entry of snapshot.broken) {
      checks.push(
        fail(
          `hook ${entry.id}`,
          `broken, fails by on_error: ${entry.onError} wherever it would run: ${entry.problems.slice(0, 2).map(formatDiagnostic).join("; ")}`,
        ),
      );
    }
  }
  const protection = [
    describeSelfProtection(snapshot.operator, ctx.host.homeDir()),
    ...selfProtectedPlaces(snapshot.operator, ctx.host.homeDir()).map((place) => `    ${place}`),
  ].join("\n");
  checks.push(selfProtectState(snapshot.operator) === "on" ? pass("self-protection", protection) : note("self-protection", protection));
  for (const hook of snapshot.hooks) {
    const lines = withheldGrants(hook, "    ", reviewWidth(ctx));
    if (lines.length > 0) checks.push(note(`grants of ${hook.definition.id}`, `it will not get all it declares:\n${lines.join("\n")}`));
  }
  checks.push(await auditCheck(ctx, locations));
  checks.push(await chainCheck(ctx, locations));
  return checks;
}

/** The audit log's hash chain holds (hookbox audit verify, in full). */
async function chainCheck(ctx: CliContext, locations: Locations): Promise<DoctorCheck> {
  try {
    const report = await verifyAuditLog({ fs: ctx.host.fs, path: auditFilePath(locations.dataDir), pid: ctx.host.pid });
    if (report.ok) return pass("audit chain", `${plural(report.records, "record")} in ${plural(report.files.length, "file")} verify`);
    return fail(
      "audit chain",
      `${report.problems[0]?.message ?? "broken"}${report.problems.length > 1 ? ` (and ${report.problems.length - 1} more)` : ""}: run hookbox audit verify`,
    );
  } catch (error) {
    return fail("audit chain", `cannot be verified: ${(error as Error).message}`);
  }
}

/** The audit log can be appended to (without writing a record: doctor's own runs are audited by emit). */
async function auditCheck(ctx: CliContext, locations: Locations): Promise<DoctorCheck> {
  const path = auditFilePath(locations.dataDir);
  try {
    await ctx.host.fs.mkdirp(path.slice(0, path.lastIndexOf("/")), 0o700);
    const handle = await ctx.host.fs.openAppend(path, 0o600);
    await handle.close();
    return pass("audit log", `${path} is writable`);
  } catch (error) {
    return fail(
      "audit log",
      `${path} cannot be written (${(error as Error).message}): decisions would be answered unrecorded; fix its permissions or remove what is in its place`,
    );
  }
}
