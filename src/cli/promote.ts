import type { Command } from "commander";
import { auditFilePath } from "../decide/audit/open.ts";
import { readWouldBlock, type WouldBlockEntry } from "../decide/audit/would-block.ts";
import { HookboxError } from "../core/errors.ts";
import { withHookMode } from "../hooks/config/operator-edit.ts";
import { noun, plural } from "../core/text/plural.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { readOperatorText, usableOperator, writeOperatorFile } from "./operator-file.ts";
import { configOption } from "./package-session.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { locationsFrom } from "./setup.ts";

/** The would-be blocks listed before asking; all of them are counted. */
const SHOWN = 20;

interface PromoteOptions {
  readonly yes?: boolean;
  readonly dryRun?: boolean;
  readonly json?: boolean;
  readonly config?: string;
  readonly dataDir?: string;
}

/** `hookbox promote <id>`: a hook in shadow mode (hooks.<id>.mode: monitor) decides from now on, once its would-be blocks are shown. */
export function registerPromote(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  program
    .command("promote")
    .description("Turn on a hook that runs in shadow mode (mode: monitor): shows what it would have blocked so far, asks, then it decides")
    .argument("<id>", "the hook's id (hooks.<id>.mode: monitor in the operator file)")
    .option("--yes", "do not ask (for scripts)")
    .option("--dry-run", "show what it would have blocked and change nothing")
    .option("--data-dir <dir>", "where the audit log is; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox")
    .option("--json", "print the result as JSON")
    .addOption(configOption())
    .addHelpText(
      "after",
      `
A hook in shadow mode runs on every event it matches and its would-be decision is recorded, but
nothing it returns reaches the agent (hookbox runs --would-block lists them; so does the console).
Mark one in the operator file:

  hooks:
    guard-secrets: { mode: monitor }

or install a package that way: hookbox add <source> --monitor. promote takes the mode out of the
operator file (the file's comments and the rest are kept; the previous text is kept beside it as
<file>.hookbox-backup-<time>), and a running daemon picks it up at once. Only the user may run
it: self-protect refuses it to the agent.

Exit status: 0 when promoted (or with --dry-run, when shown), 2 when the hook is not in monitor mode.`,
    )
    .action(async (id: string, options: PromoteOptions) => {
      const locations = locationsFrom(ctx, {
        ...(options.config ? { config: options.config } : {}),
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      });
      const file = locations.operatorFile.path;
      const operator = await usableOperator(ctx, runtime, locations);
      if (operator.hooks[id]?.mode !== "monitor")
        throw new HookboxError(
          "usage",
          `${id} is not in monitor mode in ${file} (hooks.${id}.mode is ${operator.hooks[id]?.mode ?? "not set"}): nothing to promote`,
        );
      const entries = await readWouldBlock(ctx.host.fs, auditFilePath(locations.dataDir), { hook: id });
      const report = { hook_id: id, operator_file: file, would_block: entries.map(summaryOf), promoted: false };
      if (!options.json) ctx.err(`${describe(id, entries)}\n`);
      if (options.dryRun) {
        if (options.json) await ctx.out(`${JSON.stringify(report, null, 2)}\n`);
        setExit(EXIT.ok);
        return;
      }
      if (!options.yes) {
        if (!ctx.host.stdinIsTTY())
          throw new HookboxError("consent_required", `nothing was changed: there is no terminal to ask. To promote ${id}, run again with --yes`);
        ctx.err(`Turn ${id} on: from now on it decides (its denies block the agent)? [y/N] `);
        const answer = (await ctx.host.readStdinLine(200))?.trim().toLowerCase();
        if (answer !== "y" && answer !== "yes") throw new HookboxError("consent_required", "nothing was changed (not accepted)");
      }
      const backup = await writeOperatorFile(ctx, file, withHookMode(await readOperatorText(ctx, file), id, undefined));
      if (options.json) await ctx.out(`${JSON.stringify({ ...report, promoted: true, backup: backup ?? null }, null, 2)}\n`);
      else
        await ctx.out(
          `promoted ${id}: it decides from now on (hooks.${id}.mode removed from ${file}${backup ? `; the previous text is in ${backup}` : ""})\n`,
        );
      setExit(EXIT.ok);
    });
}

/** One would-be block as `promote --json` prints it. */
function summaryOf(entry: WouldBlockEntry) {
  const { run, decision } = entry;
  return {
    at: run.started_at,
    event_id: run.event_id,
    event_type: run.event_type,
    session_id: run.session_id,
    ...(decision?.agent ? { agent: decision.agent } : {}),
    ...(decision?.tool_name ? { tool_name: decision.tool_name } : {}),
    ...(decision?.subject ? { subject: decision.subject } : {}),
    ...(decision?.project ? { project: decision.project } : {}),
    would: run.would?.decision ?? "deny",
    reason: run.would?.reason ?? run.reason ?? "",
  };
}

function describe(id: string, entries: readonly WouldBlockEntry[]): string {
  if (entries.length === 0) return `${id} has blocked nothing in shadow mode so far (in the audit log and its rotated files).`;
  const lines = [
    `${id} would have blocked ${plural(entries.length, "call")} so far (newest last${entries.length > SHOWN ? `; the last ${SHOWN} shown` : ""}):`,
  ];
  for (const entry of entries.slice(-SHOWN)) {
    const summary = summaryOf(entry);
    const what = [summary.agent, summary.tool_name, summary.subject].filter(Boolean).join(" ") || summary.event_type;
    lines.push(`  ${summary.at}  ${summary.would === "ask" ? "ask " : "deny"}  ${what.slice(0, 100)}`);
    lines.push(`      ${summary.reason.slice(0, 200)}`);
  }
  const sessions = new Set(entries.map((entry) => entry.run.session_id)).size;
  lines.push(`in ${plural(sessions, "session")}: calls like ${noun(entries.length, "this", "these")} are blocked once it is on.`);
  return lines.join("\n");
}
