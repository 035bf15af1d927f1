import { Option, type Command } from "commander";
import { readRuns } from "../audit/read.ts";
import { HookboxError } from "../errors.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";

/** `hookbox runs`: reads the audit log directly, so it works with or without a daemon. */
export function registerRuns(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("runs")
    .description("Show recent hook runs from the audit log, newest first")
    .option("--hook <id>", "only this hook")
    .addOption(new Option("--status <status>", "only runs with this status").choices(["completed", "failed", "skipped", "denied"]))
    .option("--event <type>", "only this event type")
    .addOption(new Option("--limit <n>", "at most this many").default(20).argParser((v) => Number(v)))
    .option("--data-dir <dir>", "where the audit log is; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox")
    .option("--json", "print the records as JSON lines")
    .action(async (options: { hook?: string; status?: string; event?: string; limit: number; dataDir?: string; json?: boolean }) => {
      if (!Number.isInteger(options.limit) || options.limit < 1) throw new HookboxError("usage", "--limit must be a positive whole number");
      const locations = locationsFrom(ctx, options);
      const path = `${locations.dataDir}/audit/hookbox-audit.jsonl`;
      const { records, skippedLines } = await readRuns(ctx.host.fs, path, {
        limit: options.limit,
        ...(options.hook ? { hook: options.hook } : {}),
        ...(options.status ? { status: options.status } : {}),
        ...(options.event ? { event: options.event } : {}),
      });
      if (options.json) await ctx.out(records.map((r) => `${JSON.stringify(r)}\n`).join(""));
      else if (records.length === 0) await ctx.out(`no runs found in ${path}\n`);
      else {
        await ctx.out(
          `${records
            .map((r) => `${r.started_at}  ${r.status.padEnd(9)} ${r.hook_id.padEnd(24)} ${r.event_type.padEnd(18)} ${String(r.duration_ms).padStart(6)} ms${r.error_code ? `  [${r.error_code}]` : ""}${r.reason ? `  ${r.reason.slice(0, 120)}` : ""}`)
            .join("\n")}\n`,
        );
      }
      if (skippedLines > 0) ctx.err(`${skippedLines} line(s) of the log were not audit records and were skipped\n`);
      setExit(EXIT.ok);
    });
}
