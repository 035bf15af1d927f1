import { BUILD_ID } from "../../version/index.ts";
import type { Locations } from "../../config/locations.ts";
import { identityDifference, identityOf } from "../../evaluator/identity.ts";
import type { HealthReport } from "../../server/deps.ts";
import { errorMessage } from "../../errors.ts";
import type { CliContext } from "../context.ts";
import { whyUnreachable } from "../daemon-client.ts";
import { fail, note, pass, type DoctorCheck } from "./check.ts";

/** Whether a daemon answers on the socket, and whether it serves the hook set `emit` resolves here. */
export async function daemonCheck(ctx: CliContext, locations: Locations): Promise<DoctorCheck> {
  let reply;
  try {
    reply = await ctx.host.net.request({ unix: locations.socketPath }, { method: "GET", path: "/healthz", timeoutMs: 5000 });
  } catch (error) {
    // Another user's socket, or a directory this user may not enter, is not "no daemon": say so.
    const why = await whyUnreachable(ctx.host, locations.socketPath, errorMessage(error));
    if (why.code === "permission_denied") return fail("daemon", why.message);
    return note("daemon", `none on ${locations.socketPath}: emit evaluates each event in its own process`);
  }
  let report: Partial<HealthReport>;
  try {
    report = JSON.parse(reply.body) as Partial<HealthReport>;
  } catch {
    return fail("daemon", `something on ${locations.socketPath} answered ${reply.status} without JSON: not a Hookbox daemon; stop it or remove the socket`);
  }
  const mismatch = identityDifference(identityOf(locations, BUILD_ID, ctx.host.homeDir()), report.identity);
  if (mismatch) return fail("daemon", `pid ${report.pid ?? "?"} on ${locations.socketPath} serves another hook set than emit resolves here (${mismatch}): emit evaluates in its own process instead. Restart it with the same flags, or stop it`);
  if (report.status !== "ok") {
    const failing = Object.entries(report.checks ?? {})
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);
    return fail("daemon", `pid ${report.pid ?? "?"} serves the same hook set but is degraded (${failing.join(", ")}): GET /healthz on its socket says why`);
  }
  return pass("daemon", `pid ${report.pid ?? "?"} on ${locations.socketPath} serves the same hook set (build ${BUILD_ID})`);
}
