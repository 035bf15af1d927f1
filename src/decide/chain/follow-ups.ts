import { splitCommandLine } from "../../capabilities/run/tokenize.ts";
import { errorMessage } from "../../core/errors.ts";
import type { FollowUpAction } from "../../core/events/types.ts";

/**
 * A hook result's `follow_up_actions` (the repository hooks template, seeds/000 §4.2: "executing
 * or queuing follow_up_actions where appropriate"), each with what became of it — kept in the
 * hook's run record:
 * - `run_command` is **executed** by Hookbox under the hook's own `run` grant, exactly as if the
 *   handler had called `hook.run` (the same check, the same caps on output), in what is left of
 *   the hook's `timeout_ms`; a command the grant does not cover is **refused**, with the grant that
 *   would allow it. No follow-up is a new power: a hook could have run it itself.
 * - every other kind (`open_file`, `create_task`, …) is **queued** for the caller: the decision's
 *   `follow_up_actions` (native clients, the HTTP API, the Agent SDK adapter act on them).
 */
export interface FollowUpRecord {
  readonly kind: string;
  readonly payload?: Readonly<Record<string, unknown>>;
  readonly status: "queued" | "executed" | "refused" | "failed";
  /** Why it was refused or failed; for an executed command, how it ended. */
  readonly detail?: string;
  readonly exit_code?: number;
  /** The command's output, cut to its first 2 KiB. */
  readonly stdout?: string;
}

/** The kind Hookbox executes itself. */
export const RUN_COMMAND = "run_command";
const OUTPUT_KEPT_CHARS = 2048;
/** Follow-up commands one run may have executed; more are refused. */
const MAX_COMMANDS = 5;

export interface CommandRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly timedOut: boolean;
}

/** Runs a command under the hook's `run` grant (hook.run's host method); throws hook.run's error (code capability_denied when not granted). */
export type GrantedRun = (
  cmd: string,
  args: readonly string[],
  options: { readonly cwd?: string; readonly timeoutMs: number },
) => Promise<CommandRun>;

/** `{cmd, args?, cwd?}`, or `{command: "npm run build"}` split as a shell splits words (no shell runs it). */
export function commandOf(
  payload: Readonly<Record<string, unknown>> | undefined,
): { readonly cmd: string; readonly args: string[]; readonly cwd?: string } | { readonly error: string } {
  const cwd = typeof payload?.cwd === "string" ? { cwd: payload.cwd } : {};
  if (typeof payload?.cmd === "string" && payload.cmd !== "") {
    const args = payload.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return { error: "payload.args must be a list of strings" };
    return { cmd: payload.cmd, args: args as string[], ...cwd };
  }
  if (typeof payload?.command === "string") {
    const split = splitCommandLine(payload.command);
    if (!split.ok) return { error: `payload.command: ${split.error} (no shell runs it: give {cmd, args})` };
    const [cmd, ...args] = split.argv;
    if (cmd === undefined) return { error: "payload.command is empty" };
    return { cmd, args, ...cwd };
  }
  return { error: "a run_command needs payload {cmd, args} or {command}" };
}

/** Execute a run's run_command follow-ups one after another, each within what is left of `budgetMs`; queue the rest. */
export async function settleFollowUps(
  actions: readonly FollowUpAction[],
  run: GrantedRun,
  budgetMs: number,
  now: () => number = Date.now,
): Promise<FollowUpRecord[]> {
  const records: FollowUpRecord[] = [];
  const until = now() + budgetMs;
  let commands = 0;
  for (const action of actions) {
    const base = { kind: action.kind, ...(action.payload ? { payload: action.payload } : {}) };
    if (action.kind !== RUN_COMMAND) {
      records.push({ ...base, status: "queued", detail: "for the caller: the decision's follow_up_actions" });
      continue;
    }
    const command = commandOf(action.payload);
    if ("error" in command) {
      records.push({ ...base, status: "refused", detail: command.error });
      continue;
    }
    const left = Math.floor(until - now());
    if (++commands > MAX_COMMANDS || left < 1) {
      records.push({
        ...base,
        status: "refused",
        detail: left < 1 ? "no time left of the hook's timeout_ms" : `at most ${MAX_COMMANDS} follow-up commands per run`,
      });
      continue;
    }
    try {
      const result = await run(command.cmd, command.args, { ...(command.cwd !== undefined ? { cwd: command.cwd } : {}), timeoutMs: left });
      records.push({
        ...base,
        status: "executed",
        detail: result.timedOut ? `timed out after ${left} ms` : `exit code ${result.exitCode}`,
        exit_code: result.exitCode,
        stdout: result.stdout.slice(0, OUTPUT_KEPT_CHARS),
      });
    } catch (error) {
      // hook.run's own failure, as the guest would see it: {name, message, code}.
      const guest = typeof error === "object" && error !== null ? (error as { code?: unknown; message?: unknown }) : {};
      const detail = typeof guest.message === "string" ? guest.message : errorMessage(error);
      records.push({ ...base, status: guest.code === "capability_denied" ? "refused" : "failed", detail });
    }
  }
  return records;
}
