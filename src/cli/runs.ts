import { Option, type Command } from "commander";
import { AuditFollower } from "../decide/audit/follow.ts";
import { auditFilePath } from "../decide/audit/open.ts";
import { matchesQuery, readRuns, type RunQuery } from "../decide/audit/read.ts";
import type { AuditRecordV1 } from "../decide/audit/record.ts";
import { HookboxError } from "../core/errors.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";
import { noun, plural } from "../core/text/plural.ts";

/** How often --follow looks at the log: new records show within this (and a write). */
const FOLLOW_INTERVAL_MS = 200;

/** `hookbox runs`: reads the audit log directly, so it works with or without a daemon. */
export function registerRuns(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("runs")
    .description("Show recent hook runs from the audit log, newest first (--follow: oldest first, then new ones as they are written)")
    .option("--hook <id>", "only this hook")
    .addOption(new Option("--status <status>", "only runs with this status").choices(["completed", "failed", "skipped", "denied"]))
    .option("--event <type>", "only this event type")
    .option(
      "--would-block",
      "only runs of hooks in shadow mode (mode: monitor) that would have denied or asked: what `hookbox promote` would turn on",
    )
    .addOption(new Option("--limit <n>", "at most this many (with --follow: of the past ones shown first)").default(20).argParser((v) => Number(v)))
    .option("-f, --follow", "keep running and show runs as they are appended (by the daemon or by emit), until Ctrl-C")
    .option("--data-dir <dir>", "where the audit log is; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox")
    .option("--json", "print the records as JSON lines")
    .action(
      async (options: {
        hook?: string;
        status?: string;
        event?: string;
        wouldBlock?: boolean;
        limit: number;
        follow?: boolean;
        dataDir?: string;
        json?: boolean;
      }) => {
        if (!Number.isInteger(options.limit) || options.limit < 1) throw new HookboxError("usage", "--limit must be a positive whole number");
        const locations = locationsFrom(ctx, options);
        const path = auditFilePath(locations.dataDir);
        const query: RunQuery = {
          limit: options.limit,
          ...(options.hook ? { hook: options.hook } : {}),
          ...(options.status ? { status: options.status } : {}),
          ...(options.event ? { event: options.event } : {}),
          ...(options.wouldBlock ? { would_block: true } : {}),
        };
        const print = (records: readonly AuditRecordV1[]) =>
          ctx.out(records.map((r) => (options.json ? `${JSON.stringify(r)}\n` : `${formatRun(r)}\n`)).join(""));
        // Following starts before the past is read: nothing written in between is missed, and what both see is shown once.
        const shown = new Set<string>();
        const follower = options.follow
          ? await AuditFollower.start(
              ctx.host.fs,
              path,
              (entries) => {
                const fresh = entries.filter((e): e is AuditRecordV1 => e.kind !== "decision" && !shown.has(e.id) && matchesQuery(e, query));
                if (fresh.length > 0) void print(fresh);
              },
              { intervalMs: FOLLOW_INTERVAL_MS, from: "end" },
            )
          : undefined;
        const { records, skippedLines } = await readRuns(ctx.host.fs, path, query);
        for (const record of records) shown.add(record.id);
        if (follower) await print([...records].reverse());
        else if (options.json) await print(records);
        else if (records.length === 0) await ctx.out(`no runs found in ${path}\n`);
        else await print(records);
        if (skippedLines > 0)
          ctx.err(
            `${plural(skippedLines, "line")} of the log ${noun(skippedLines, "was")} not audit records and ${noun(skippedLines, "was")} skipped\n`,
          );
        if (follower) {
          if (!options.json) ctx.err(`following ${path} (Ctrl-C to stop)\n`);
          await new Promise<void>((resolve) => {
            const offs = (["SIGINT", "SIGTERM"] as const).map((signal) =>
              ctx.host.onSignal(signal, () => {
                for (const off of offs) off();
                follower.stop();
                resolve();
              }),
            );
          });
        }
        setExit(EXIT.ok);
      },
    );
}

function formatRun(r: AuditRecordV1): string {
  // A monitored hook's line says what it would have done: nothing it returned reached the agent.
  const status = r.would ? `would-${r.would.decision}` : r.status;
  const reason = r.would?.reason ?? r.reason;
  return `${r.started_at}  ${status.padEnd(9)} ${r.hook_id.padEnd(24)} ${r.event_type.padEnd(18)} ${String(r.duration_ms).padStart(6)} ms${r.error_code ? `  [${r.error_code}]` : ""}${reason ? `  ${reason.slice(0, 120)}` : ""}${r.mode === "monitor" ? "  (monitor mode)" : ""}`;
}
