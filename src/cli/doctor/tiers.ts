import { MANAGED_SETTINGS, NO_MANAGED_SETTINGS } from "../../agents/managed.ts";
import { installedEntries } from "../../agents/installers.ts";
import { INSTALL_AGENTS, INSTALL_SCOPES, configPath, type InstallAgent } from "../../agents/installers.ts";
import type { Locations } from "../../hooks/config/locations.ts";
import { systemTierPaths, untrustedSystemPath } from "../../hooks/config/system-tier.ts";
import { systemTierDaemonRefusal } from "../../platform/peer-trust.ts";
import { readSystemLayer } from "../../decide/system-layer.ts";
import { DEFAULT_SYSTEM_LOG } from "../../decide/audit/system-log.ts";
import { parseSyslogAddress } from "../../decide/audit/export/syslog.ts";
import { parseYaml } from "../../hooks/config/diagnostics.ts";
import { operatorFileSchema } from "../../hooks/config/schema.ts";
import type { CliContext } from "../context.ts";
import { fail, note, pass, type DoctorCheck } from "./check.ts";

const USER_TIER =
  "user: the agent's own settings run Hookbox, and you — so anything the agent runs as you — can change them; self-protect refuses the direct ways (best effort). The system tier holds against the rest: hookbox install --system, as root";

/**
 * Which tier protects each installed agent, and what that tier guarantees: system (its managed
 * settings run the root-owned binary with --system, under a policy only root can change), user
 * (its own settings run Hookbox), or none. And the system tier itself: its policy, its binary,
 * whether a daemon may decide under it here, where its audit heads go.
 */
export async function tierChecks(ctx: CliContext, locations: Locations, project: string): Promise<DoctorCheck[]> {
  const paths = systemTierPaths(locations.system.root);
  const fs = ctx.host.fs;
  const checks: DoctorCheck[] = [];
  const policyThere = (await fs.kind(paths.policyFile)) !== "missing";
  const policyProblem = policyThere ? await untrustedSystemPath(fs, paths.policyFile) : `${paths.policyFile} is not there`;
  for (const agent of INSTALL_AGENTS) {
    const system = await systemEntries(ctx, agent, paths.root);
    const user = await userInstalled(ctx, agent, project);
    if (system.commands.length === 0 && !user) continue;
    const name = `tier of ${agent}`;
    if (system.commands.length > 0) {
      const binaries = [...new Set(system.commands.map((command) => command.replace(/\s+emit\b.*$/, "").replace(/^"|"$/g, "")))];
      const problems = [
        ...(policyProblem ? [`the system policy: ${policyProblem}`] : []),
        ...(await Promise.all(binaries.map(async (binary) => untrustedSystemPath(fs, binary)))).filter((p): p is string => p !== undefined),
        ...system.commands.filter((command) => !/\s--system(\s|$)/.test(command)).map((command) => `\`${command}\` lacks --system`),
        ...(await agentProblems(ctx, agent, project, system.file as string)),
      ];
      const managed = MANAGED_SETTINGS[agent];
      const cannot = managed?.cannot.length ? ` Not held: ${managed.cannot.join("; ")}.` : "";
      if (problems.length > 0) checks.push(fail(name, `system tier (${system.file}) does not hold: ${problems.join("; ")}`));
      else checks.push(pass(name, `system (${system.file}): ${managed?.holds ?? ""}${cannot}`));
      continue;
    }
    const none = NO_MANAGED_SETTINGS[agent];
    checks.push(note(name, `${USER_TIER}${none ? `. ${agent} has no system tier: ${none}` : ""}`));
  }
  if (policyThere || checks.some((check) => check.detail.startsWith("system"))) checks.push(await systemTierCheck(ctx, locations, policyProblem));
  return checks;
}

/** The system tier as a whole: who can change it, and whether a daemon of the user's decides under it here. */
async function systemTierCheck(ctx: CliContext, locations: Locations, policyProblem: string | undefined): Promise<DoctorCheck> {
  const paths = systemTierPaths(locations.system.root);
  if (policyProblem)
    return fail("system tier", `${policyProblem}: every event of an agent whose managed settings run hookbox emit --system is denied`);
  const binary = await untrustedSystemPath(ctx.host.fs, paths.binary);
  const scope = await ctx.host.fs.readText("/proc/sys/kernel/yama/ptrace_scope").catch(() => undefined);
  const daemon = systemTierDaemonRefusal(scope);
  const layer = await readSystemLayer(ctx.host.fs, { ...locations.system, required: false }, parseYaml, operatorFileSchema);
  const systemLog = (layer.kind === "ok" ? layer.layer.operator.audit.system_log : undefined) ?? DEFAULT_SYSTEM_LOG;
  const target = parseSyslogAddress(systemLog.address);
  const logMissing = target.kind.startsWith("unix") && "path" in target && (await ctx.host.fs.kind(target.path)) !== "socket";
  const lines = [
    `${paths.policyFile} and its directories are root's alone`,
    binary ? `the binary: ${binary}` : `${paths.binary} is root's alone`,
    daemon
      ? `emit --system evaluates each event in its own process (~0.2–0.4 s): ${daemon}`
      : "emit --system may use a daemon proven to run the system binary with the system policy",
    logMissing
      ? `NO SYSTEM LOG at ${systemLog.address}: the audit chain heads cannot be anchored there (start the system's syslog or journald, or set audit.system_log in the system policy)`
      : `each audit chain head also goes to ${systemLog.address}: hookbox audit verify --against-system-log checks the user's log against them`,
  ];
  return binary || logMissing ? fail("system tier", lines.join("; ")) : pass("system tier", lines.join("; "));
}

/** The managed settings file of `agent` and the commands of Hookbox's entries in it. */
async function systemEntries(ctx: CliContext, agent: InstallAgent, root: string): Promise<{ file?: string; commands: string[] }> {
  const managed = MANAGED_SETTINGS[agent];
  if (!managed) return { commands: [] };
  const file = managed.path(root);
  const text = await ctx.host.fs.readText(file).catch(() => undefined);
  if (text === undefined) return { commands: [] };
  try {
    if (managed.entryCommands) return { file, commands: [...managed.entryCommands(text, file)] };
    return { file, commands: installedEntries(agent, text, file).flatMap((entry) => (entry.command ? [entry.command] : [])) };
  } catch {
    return { file, commands: [] };
  }
}

async function userInstalled(ctx: CliContext, agent: InstallAgent, project: string): Promise<boolean> {
  for (const scope of INSTALL_SCOPES) {
    let file: string;
    try {
      file = configPath(agent, scope, { home: ctx.host.homeDir(), project, env: ctx.host.env });
    } catch {
      continue;
    }
    const text = await ctx.host.fs.readText(file).catch(() => undefined);
    if (text === undefined) continue;
    try {
      if (installedEntries(agent, text, file).length > 0) return true;
    } catch {
      // unreadable settings: agentChecks reports them
    }
  }
  return false;
}

/** What the agent's own design lets a user do against its system settings, where doctor can see it done. */
async function agentProblems(ctx: CliContext, agent: InstallAgent, project: string, file: string): Promise<string[]> {
  const managed = MANAGED_SETTINGS[agent];
  const problems: string[] = [];
  const moved = managed?.movedBy;
  const value = moved === undefined ? undefined : ctx.host.env[moved];
  if (moved && value !== undefined && value !== file) problems.push(`${moved}=${value} here points ${agent} at another system file`);
  const read = (path: string) => ctx.host.fs.readText(path).catch(() => undefined);
  if (managed?.userOverrides) problems.push(...(await managed.userOverrides(read, { home: ctx.host.homeDir(), project })));
  return problems;
}
