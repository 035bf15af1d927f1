// src/cli/doctor owns `hookbox doctor`, one file per group of checks; it must not import an entry point, and it changes nothing it checks.
import type { Command } from "commander";
import { findProjectRoot } from "../../decide/project.ts";
import type { CliContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { currentHookSet } from "../hook-set.ts";
import type { HookRuntimeFactory } from "../runtime-factory.ts";
import { addHookOptions, locationsFrom } from "../setup.ts";
import { agentChecks } from "./agents.ts";
import type { DoctorCheck } from "./check.ts";
import { daemonCheck } from "./daemon.ts";
import { hookSetChecks } from "./hooks.ts";
import { installationChecks } from "./install.ts";
import { tierChecks } from "./tiers.ts";
import { describeLayers } from "../layers-report.ts";
import { note } from "./check.ts";

export interface DoctorReport {
  readonly runtime: string;
  readonly ok: boolean;
  readonly project: string;
  readonly checks: readonly DoctorCheck[];
}

/**
 * The whole chain from an agent to a decision, checked link by link: the binary, the operator
 * file and every hook this project would run, the audit log, the daemon and whether it serves the
 * same hook set, and each agent's hook entries with a test call through them.
 */
export async function runDoctor(
  ctx: CliContext,
  runtime: HookRuntimeFactory,
  options: { hooks?: string[]; config?: string; builtin?: string[]; systemRoot?: string } = {},
): Promise<DoctorReport> {
  const locations = locationsFrom(ctx, options);
  const project = await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir());
  const set = await currentHookSet(ctx, locations, runtime);
  const checks = [
    ...(await installationChecks(ctx)),
    ...(await hookSetChecks(ctx, locations, set)),
    await daemonCheck(ctx, locations, [...runtime.embedded().keys()]),
    ...(await agentChecks(ctx, project, { set, operatorFile: locations.operatorFile.path })),
    ...(await tierChecks(ctx, locations, project)),
    ...(set.operatorView.layers ? [note("operator settings", describeLayers(set.operatorView.layers).join("\n"))] : []),
  ];
  return { runtime: ctx.host.name, ok: checks.every((c) => c.ok), project, checks };
}

export function registerDoctor(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("doctor")
      .description(
        "Check the whole chain from an agent to a decision: this binary, the operator file and hooks, the audit log, the daemon, each agent's hook entries",
      )
      .option("--json", "print the report as JSON")
      .addHelpText(
        "after",
        "\nRun it in a project: the hooks and the agents' project settings checked are that project's.\n\nExit status: 0 when every link holds, 1 when one is broken (each printed with what to do) —\nan installed agent protected by nothing but self-protect (no guard on its tool calls) included.",
      ),
  ).action(async (options: { json?: boolean; hooks?: string[]; config?: string; builtin?: string[]; systemRoot?: string }) => {
    const report = await runDoctor(ctx, runtime, options);
    if (options.json) await ctx.out(`${JSON.stringify(report, null, 2)}\n`);
    else await ctx.out(`${report.checks.map((c) => `${c.ok ? (c.note ? "note" : "ok  ") : "FAIL"} ${c.name}: ${c.detail}`).join("\n")}\n`);
    setExit(report.ok ? EXIT.ok : EXIT.failed);
  });
}
