import type { Command } from "commander";
import { HookboxError } from "../core/errors.ts";
import { formatMismatch } from "../decide/testing/compare.ts";
import type { RunFailure } from "../decide/testing/failures.ts";
import { testHook, type HookTestReport } from "../decide/testing/runner.ts";
import { openPool, type CliContext } from "./context.ts";
import { lineExcerpt } from "./excerpt.ts";
import { EXIT } from "./exit-codes.ts";

/** `hookbox test [DIR…]`: run every hook's fixtures; non-zero when any fails. */
export function registerTest(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("test")
    .description("Run each hook's fixtures (fixtures/*.yaml: an event in, the expected decision out) and report pass/fail with a diff")
    .argument("[dirs...]", "a hook directory (with hook.yaml) or a directory of them; default: .hookbox/hooks")
    .option("--filter <text>", 'only fixtures whose "<hook dir>/<file> › <name>" contains this')
    .option("--json", "print the reports as JSON")
    .addHelpText(
      "after",
      `
A fixture (fixtures/<name>.yaml, one object or a list):
  name: denies a write to .env
  event: { event_type: PreToolUse, tool_name: Write, tool_input: { file_path: .env } }
  agent: claude            # optional: event is that agent's own payload
  workspace: { "src/a.ts": "…" }   # optional: a directory tree used as the workspace (cwd)
  expect: { decision: deny, reason_contains: ".env", status: denied }

A fixture fails when the hook fails (throws, breaks a limit, returns an invalid result), whatever
the decision, unless it expects that: expect: { status: failed, error_code: handler_threw }.
Every failed run is shown with its error code, message and the handler's file:line:col.

Exit status: 0 when every fixture passes, 1 otherwise (or when --filter matches none), 2 on a usage error.`,
    )
    .action(async (dirs: string[], options: { json?: boolean; filter?: string }) => {
      const hookDirs = await expand(ctx, dirs.length > 0 ? dirs : [".hookbox/hooks"]);
      const pool = await openPool(ctx, Math.min(2, ctx.host.cpuCount()));
      const reports: HookTestReport[] = [];
      try {
        for (const dir of hookDirs) {
          const report = await testHook(dir, { host: ctx.host, executor: pool, ...(options.filter !== undefined ? { filter: options.filter } : {}) });
          // A filter that leaves a hook no fixture leaves it out.
          if (options.filter !== undefined && report.results.length === 0 && report.problems.length === 0) continue;
          reports.push(report);
          // The results are the command's output: stdout, as they come (the total follows them).
          if (!options.json) await ctx.out(format(report));
        }
      } finally {
        await pool.close(0);
      }
      const failed = reports.filter((r) => r.problems.length > 0 || r.results.some((x) => !x.ok));
      const total = reports.reduce((n, r) => n + r.results.length, 0);
      const passed = reports.reduce((n, r) => n + r.results.filter((x) => x.ok).length, 0);
      const nothing = options.filter !== undefined && total === 0;
      if (options.json) await ctx.out(`${JSON.stringify(reports, null, 2)}\n`);
      else if (nothing) await ctx.out(`FAILED: no fixture matches --filter ${JSON.stringify(options.filter)}\n`);
      else
        await ctx.out(
          `${failed.length === 0 ? "ok" : "FAILED"}: ${passed}/${total} fixtures passed in ${reports.length} hook${reports.length === 1 ? "" : "s"}\n`,
        );
      setExit(failed.length === 0 && !nothing ? EXIT.ok : EXIT.failed);
    });
}

function format(report: HookTestReport): string {
  const lines = [`${report.hook_id ?? report.dir}  (${report.dir})`];
  for (const problem of report.problems) lines.push(`  ✗ ${problem}`);
  for (const result of report.results) {
    lines.push(`  ${result.ok ? "✓" : "✗"} ${result.name}  (${result.ms.toFixed(0)} ms)`);
    if (result.error) lines.push(...result.error.split("\n").map((l) => `      ${l}`));
    for (const failure of result.failures) lines.push(...formatFailure(failure, result.ok));
    for (const mismatch of result.mismatches) lines.push(formatMismatch(mismatch));
  }
  return `${lines.join("\n")}\n`;
}

/** A failed run: in full under a failing fixture; one line under a fixture that expected it. */
function formatFailure(failure: RunFailure, expected: boolean): string[] {
  const at = failure.location ? `${failure.location.file}:${failure.location.line}:${failure.location.column}` : undefined;
  if (expected) return [`      (${failure.hook_id} failed as expected: ${failure.error_code}${at ? ` at ${at}` : ""})`];
  const lines = [`      ${failure.hook_id} failed: error[${failure.error_code}]: ${failure.message}`];
  if (at) lines.push(`        at ${at}`);
  if (failure.location && failure.source_line !== undefined)
    lines.push(lineExcerpt(failure.source_line, failure.location.line, failure.location.column, "          ").trimEnd());
  return lines;
}

/** A hook directory is one with a hook.yaml; otherwise its subdirectories that have one. */
async function expand(ctx: CliContext, dirs: readonly string[]): Promise<string[]> {
  const cwd = ctx.host.cwd();
  const found: string[] = [];
  for (const raw of dirs) {
    const dir = (raw.startsWith("/") ? raw : `${cwd}/${raw}`).replace(/\/+$/, "");
    if (await ctx.host.fs.exists(`${dir}/hook.yaml`)) {
      found.push(dir);
      continue;
    }
    const entries = await ctx.host.fs.listDir(dir).catch(() => {
      throw new HookboxError("file_unreadable", `${raw}: no such directory`);
    });
    const inner = [];
    for (const entry of entries.filter((e) => e.kind === "dir").sort((a, b) => a.name.localeCompare(b.name))) {
      if (await ctx.host.fs.exists(`${dir}/${entry.name}/hook.yaml`)) inner.push(`${dir}/${entry.name}`);
    }
    if (inner.length === 0) throw new HookboxError("file_unreadable", `${raw}: no hook.yaml here or in its subdirectories`);
    found.push(...inner);
  }
  return found;
}
