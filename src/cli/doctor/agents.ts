import { guardsOf, unguardedMessage } from "../../decide/guards.ts";
import type { ProjectHookSet } from "../../decide/hook-sets.ts";
import { selfProtectState } from "../../decide/self-protect.ts";
import { DOCTOR_SESSION_ID } from "../../decide/audit/record.ts";
import { DOCTORS, type DoctorIO } from "../../agents/doctor.ts";
import {
  INSTALL_AGENTS,
  INSTALL_SCOPES,
  configPath,
  installDirs,
  installedEntries,
  type InstallAgent,
  type InstallScope,
  type InstalledEntry,
} from "../../agents/installers.ts";
import { BUILD_ID } from "../../core/version/index.ts";
import type { CliContext } from "../context.ts";
import { fail, pass, type DoctorCheck } from "./check.ts";

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What guards the agents here: this project's hook set, and the operator file that would enable more. */
export interface Guarding {
  readonly set: ProjectHookSet;
  readonly operatorFile: string;
}

/**
 * Every agent's settings that hold Hookbox entries (user, project and local scopes): the command
 * each runs must execute, a harmless call sent through the pre-tool entry must get a valid
 * answer, the same through the daemon as in the command's own process, and a guard besides
 * self-protect must stand before its tool calls.
 */
export async function agentChecks(ctx: CliContext, project: string, guarding: Guarding): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const seen = new Set<string>();
  for (const agent of INSTALL_AGENTS) {
    for (const scope of INSTALL_SCOPES) {
      let file: string;
      try {
        file = configPath(agent, scope, { home: ctx.host.homeDir(), project, env: ctx.host.env });
      } catch {
        continue; // a scope this agent does not have
      }
      if (seen.has(file) || !(await ctx.host.fs.exists(file))) continue;
      seen.add(file);
      let entries: InstalledEntry[];
      let text: string;
      try {
        text = await ctx.host.fs.readText(file);
        entries = installedEntries(agent, text, file);
      } catch (error) {
        checks.push(fail(`${agent} (${scope})`, `${file} cannot be read: ${(error as Error).message}`));
        continue;
      }
      if (entries.length === 0) continue;
      checks.push(await entryCheck(ctx, agent, scope, file, entries, project));
      checks.push(...(await agentSpecificChecks(ctx, agent, scope, file, text, entries, project)));
      checks.push(...guardCheck(agent, scope, file, project, guarding));
    }
  }
  return checks;
}

/**
 * A guard besides self-protect stands before the agent's tool calls: for a user-wide install one
 * every project gets, for a project's one this project's hook set has. (An operator file that
 * does not load denies every event: its own check fails, this one says nothing.)
 */
function guardCheck(agent: InstallAgent, scope: InstallScope, file: string, project: string, { set, operatorFile }: Guarding): DoctorCheck[] {
  const { snapshot } = set;
  if (snapshot.operatorStatus.state !== "ok") return [];
  const name = `guards of ${agent} (${scope})`;
  const guards = guardsOf(snapshot.hooks, scope === "user" ? { exceptProject: project } : {});
  if (guards.length > 0) return [pass(name, `${guards.join(", ")}, and self-protect${scope === "user" ? " (in every project)" : ""}`)];
  return [fail(name, unguardedMessage(`${agent} (${file})`, operatorFile, selfProtectState(snapshot.operator) === "on"))];
}

/** What only some agents need (their row's doctor checks: a trust recorded, http hooks reaching a daemon, a plugin naming this build). */
async function agentSpecificChecks(
  ctx: CliContext,
  agent: InstallAgent,
  scope: InstallScope,
  file: string,
  text: string,
  entries: readonly InstalledEntry[],
  project: string,
): Promise<DoctorCheck[]> {
  const checks = DOCTORS[agent].checks;
  if (checks === undefined) return [];
  const host = ctx.host;
  const io: DoctorIO = {
    env: host.env,
    homeDir: () => host.homeDir(),
    binaryPath: () => host.binaryPath(),
    buildId: BUILD_ID,
    fs: host.fs,
    net: host.net,
  };
  const dirs = installDirs(agent, { home: host.homeDir(), project, env: host.env });
  return checks(io, { scope, file, text, entries, dirs });
}

async function entryCheck(
  ctx: CliContext,
  agent: InstallAgent,
  scope: string,
  file: string,
  entries: readonly InstalledEntry[],
  project: string,
): Promise<DoctorCheck> {
  const name = `${agent} (${scope})`;
  const probe = DOCTORS[agent].probe;
  const executables = [...new Set(entries.flatMap((entry) => (entry.command ? [executableOf(entry.command)] : [])))];
  const urls = entries.filter((entry) => entry.url !== undefined).length;
  // Every executable must run at all (exit 127 is a non-blocking error to every agent: the guard is off).
  for (const executable of executables) {
    const version = await run(ctx, `${executable} --version`, "", project);
    if (version.code !== 0)
      return fail(
        name,
        `${file}: ${executable} does not run (${oneLine(version.stderr) || `exit ${version.code}`}): every hook of ${agent} is off. Run hookbox install-agent ${agent}${scope === "project" ? "" : ` --${scope}`} again with an installed hookbox`,
      );
  }
  const entry = entries.find((candidate) => candidate.event === probe.event && candidate.command !== undefined);
  if (!entry?.command)
    return pass(
      name,
      `${file}: ${entries.length} entr${entries.length === 1 ? "y" : "ies"}${urls ? ` (${urls} http)` : ""}; no ${probe.event} command entry to send a test call through`,
    );
  const payload = JSON.stringify(probe.payload(project, DOCTOR_SESSION_ID));
  const asWritten = await run(ctx, entry.command, payload, project);
  const problem = answerProblem(asWritten);
  if (problem) return fail(name, `${file}: a test ${probe.event} through \`${entry.command}\` ${problem}`);
  const inProcess = await run(ctx, `${entry.command} --no-daemon`, payload, project);
  if (inProcess.code !== asWritten.code || inProcess.stdout !== asWritten.stdout) {
    return fail(
      name,
      `${file}: the same ${probe.event} got different answers through the daemon (exit ${asWritten.code}: ${oneLine(asWritten.stdout) || "no output"}) and in emit's own process (exit ${inProcess.code}: ${oneLine(inProcess.stdout) || "no output"})`,
    );
  }
  return pass(
    name,
    `${file}: ${entries.length} entr${entries.length === 1 ? "y" : "ies"} run ${executables.join(", ")}; a test ${probe.event} is answered (exit ${asWritten.code}), the same with and without the daemon`,
  );
}

/** What is wrong with an answer an agent would get, if anything. */
function answerProblem(ran: Ran): string | undefined {
  if (ran.code === 127 || ran.code === 126) return `does not run (exit ${ran.code}: ${oneLine(ran.stderr)})`;
  if (ran.code === null || ![0, 1, 2].includes(ran.code))
    return `ended with ${ran.code ?? "a signal"}: agents read that as an error (${oneLine(ran.stderr)})`;
  const out = ran.stdout.trim();
  if (out !== "") {
    try {
      const value = JSON.parse(out) as unknown;
      if (value === null || typeof value !== "object" || Array.isArray(value)) return `answered something that is not a JSON object: ${oneLine(out)}`;
    } catch {
      return `answered something that is not JSON: ${oneLine(out)}`;
    }
  }
  if (ran.code === 1) return `was not fully evaluated: ${oneLine(ran.stderr)}`;
  return undefined;
}

/** The program part of an entry's command line, as the shell would read it (quoted or bare). */
function executableOf(command: string): string {
  return command.replace(/\s+emit\b.*$/, "");
}

async function run(ctx: CliContext, command: string, stdin: string, cwd: string): Promise<Ran> {
  const env = Object.fromEntries(Object.entries(ctx.host.env).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  try {
    const result = await ctx.host.capabilityIO.spawn({
      file: "/bin/sh",
      args: ["-c", command],
      cwd,
      env,
      stdin,
      timeoutMs: 60_000,
      stdout: { headBytes: 64 * 1024, tailBytes: 0 },
      stderr: { headBytes: 16 * 1024, tailBytes: 0 },
      signal: new AbortController().signal,
    });
    const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
    return { code: result.exitCode, stdout: text(result.stdout.head), stderr: text(result.stderr.head) };
  } catch (error) {
    return { code: 127, stdout: "", stderr: (error as Error).message };
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
