import type { Command } from "commander";
import { auditFilePath } from "../decide/audit/open.ts";
import { verifyAuditLog, type VerifyReport } from "../decide/audit/verify.ts";
import { readSystemLogHeads } from "./system-log-heads.ts";
import { HookboxError } from "../core/errors.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";

/** Problems printed in full; the rest are counted (all of them are in --json). */
const SHOWN_PROBLEMS = 10;

/** `hookbox audit verify`: reads the log directly (under its append lock), with or without a daemon. */
export function registerAudit(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const audit = program.command("audit").description("Check the audit log");
  audit
    .command("verify")
    .description("Check every link of the audit log's hash chain, rotated files included; exits 1 at a broken one")
    .option("--data-dir <dir>", "where the audit log is; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox")
    .option("--anchor <hash>", "a head printed earlier (sha256:…): the log must still hold that line, unchanged up to it")
    .option(
      "--against-system-log",
      "the system tier: every chain head the system log holds for this log (sent since its oldest kept record) must be a line of it",
    )
    .option(
      "--system-log <file>",
      "where to read the heads (repeatable; - for stdin, e.g. journalctl -o cat | …); default: the system policy's audit.system_log.read, else /var/log/auth.log, /var/log/secure, /var/log/messages, /var/log/syslog",
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option("--system-root <dir>", "the system tier under DIR instead of / (tests, images)")
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      `
Each record carries prev: the SHA-256 of the exact bytes of the line before it. An edited,
removed, inserted or moved record breaks a link, unless whoever edited it recomputed every hash
after it: keep the head this prints (or export the records) and pass it back with --anchor.
Under the system tier (hookbox install --system) each head is also sent to the system log, which
users can append to but not erase: --against-system-log checks the log against all of them, so a
truncated, rewritten or deleted log fails even with its chain recomputed. Run it as root (or a
member of adm) to read the system log; --data-dir names the user's log.`,
    )
    .action(
      async (options: {
        dataDir?: string;
        anchor?: string;
        json?: boolean;
        againstSystemLog?: boolean;
        systemLog?: string[];
        systemRoot?: string;
      }) => {
        if (options.anchor !== undefined && !/^sha256:[0-9a-f]{64}$/.test(options.anchor))
          throw new HookboxError(
            "usage",
            `--anchor must be a head as verify prints it (sha256: and 64 hex digits), not ${JSON.stringify(options.anchor)}`,
          );
        if (options.systemLog !== undefined && options.againstSystemLog !== true)
          throw new HookboxError("usage", "--system-log goes with --against-system-log");
        const locations = locationsFrom(ctx, options);
        const path = auditFilePath(locations.dataDir);
        const heads = options.againstSystemLog ? await readSystemLogHeads(ctx, locations, path, options.systemLog) : undefined;
        const report = await verifyAuditLog({
          fs: ctx.host.fs,
          path,
          pid: ctx.host.pid,
          ...(options.anchor ? { anchor: options.anchor } : {}),
          ...(heads ? { heads: heads.heads } : {}),
        });
        if (heads) {
          const json = {
            ...report,
            systemLog: report.systemLog ? { ...report.systemLog, sources: heads.sources, unreadable: heads.unreadable } : undefined,
          };
          const noHeads = (report.systemLog?.heads ?? 0) === 0;
          await ctx.out(
            options.json
              ? `${JSON.stringify({ ...json, ok: report.ok && !noHeads }, null, 2)}\n`
              : describeReport(report) + describeHeads(report, heads),
          );
          setExit(report.ok && !noHeads ? EXIT.ok : EXIT.failed);
          return;
        }
        await ctx.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : describeReport(report));
        setExit(report.ok ? EXIT.ok : EXIT.failed);
      },
    );
}

function describeReport(report: VerifyReport): string {
  const lines: string[] = [];
  if (report.files.length === 0) lines.push(`no audit log in ${report.directory}: nothing has been recorded there (or it was removed)`);
  else {
    lines.push(`${report.directory}: ${count(report.records, "record")} in ${count(report.files.length, "file")}`);
    for (const file of report.files) lines.push(`  ${file.name.padEnd(28)} ${count(file.lines, "line")}`);
  }
  if (report.unlocked) lines.push(`read without the append lock (${report.unlocked}): a record being appended now may show as a torn line`);
  if (report.unchained.count > 0) {
    lines.push(
      `unchained: the first ${count(report.unchained.count, "record")}${report.unchained.lastAt ? ` (before ${report.unchained.lastAt})` : ""} were written before records were chained; nothing can verify them`,
    );
  }
  if (report.origin === "continued") lines.push("the oldest file continues one no longer kept (rotated out): its first link cannot be checked");
  for (const problem of report.problems.slice(0, SHOWN_PROBLEMS)) lines.push(`BROKEN: ${problem.message}`);
  if (report.problems.length > SHOWN_PROBLEMS)
    lines.push(`… and ${count(report.problems.length - SHOWN_PROBLEMS, "more problem")} (--json lists all)`);
  for (const restart of report.restarts)
    lines.push(`${restart.file} line ${restart.line}: a Hookbox daemon found the chain broken before this record at its start, and went on from it`);
  if (report.anchor) {
    lines.push(
      report.anchor.found
        ? `anchor ${report.anchor.hash}: ${report.anchor.found.file} line ${report.anchor.found.line}`
        : `BROKEN: anchor ${report.anchor.hash} is no line of the kept files: the log was rewritten up to it, truncated, or that line was rotated out`,
    );
  }
  if (report.ok && report.chained > 0)
    lines.push(
      `OK: ${count(report.chained, "chained record")} verified, ${count(report.checkedLinks, "link")}${report.origin === "genesis" ? " back to the first record ever" : ""}`,
    );
  else if (!report.ok) lines.push(`FAILED: ${count(report.problems.length + (report.anchor && !report.anchor.found ? 1 : 0), "problem")}`);
  if (report.head)
    lines.push(
      `head: ${report.head.hash} (${report.head.file} line ${report.head.line}); keep it to check later that nothing up to it was rewritten: --anchor ${report.head.hash}`,
    );
  return `${lines.join("\n")}\n`;
}

function describeHeads(report: VerifyReport, read: { sources: readonly string[]; unreadable: readonly string[] }): string {
  const check = report.systemLog;
  const lines: string[] = [];
  for (const problem of read.unreadable) lines.push(`system log: cannot read ${problem}`);
  lines.push(`system log: ${read.sources.length > 0 ? read.sources.join(", ") : "nothing to read"}`);
  if (!check || check.heads === 0) {
    lines.push(
      "FAILED: the system log holds no head of this log: nothing to verify it against (another --system-log, or heads never sent: hookbox doctor says whether the system tier is in force)",
    );
    return `${lines.join("\n")}\n`;
  }
  lines.push(`${count(check.heads, "head")} of this log in the system log; ${count(check.found, "head")} found as lines of the kept files`);
  if (check.rotatedOut > 0) lines.push(`${count(check.rotatedOut, "head")} from before the oldest record kept: rotated out`);
  for (const missing of check.missing.slice(0, SHOWN_PROBLEMS))
    lines.push(`BROKEN: the head sent at ${missing.at} (${missing.head}) is no line of the kept files: the log was truncated or rewritten after it`);
  if (check.missing.length > SHOWN_PROBLEMS)
    lines.push(`… and ${count(check.missing.length - SHOWN_PROBLEMS, "more missing head")} (--json lists all)`);
  if (check.restarted) lines.push(`BROKEN: ${check.restarted}`);
  if (check.ok)
    lines.push(
      `OK against the system log: the newest head (${check.newest?.at}) is the log's line, and nothing sent since the oldest kept record is missing`,
    );
  return `${lines.join("\n")}\n`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
