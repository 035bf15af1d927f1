import { HookboxError } from "../../../core/errors.ts";
import type { InstallOptions } from "./types.ts";

/** Characters a path may hold and still be written bare in sh, Git Bash, PowerShell and cmd.exe alike. */
const BARE = /^[A-Za-z0-9_./:@+=,\\-]+$/;
/** Characters no quoting survives in all of those shells: refuse rather than write a command that runs something else. */
const UNQUOTABLE = /["$`\n\r!%]/;

export function quoteExecutable(path: string): string {
  if (path.trim() === "") throw new HookboxError("usage", "the hookbox command is empty");
  if (BARE.test(path)) return path;
  if (UNQUOTABLE.test(path)) {
    throw new HookboxError(
      "usage",
      `the path to hookbox (${JSON.stringify(path)}) holds characters that cannot be quoted for every shell the agents use; install hookbox under a plainer path`,
    );
  }
  return `"${path}"`;
}

/** The command an agent runs for one event; the system tier's entries (managed settings) say --system. */
export function emitCommand(hookbox: string, agentEvent: string, agent: string, options: Pick<InstallOptions, "failClosed" | "system">): string {
  const system = options.system
    ? ` --system${options.system.root !== undefined && options.system.root !== "/" ? ` --system-root ${quoteExecutable(options.system.root)}` : ""}`
    : "";
  return `${quoteExecutable(hookbox)} emit ${agentEvent} --agent ${agent}${options.failClosed === true ? " --fail-closed" : ""}${system}`;
}

/** Any command that runs `hookbox emit`, whatever the path, quoting or flags: what marks an entry as Hookbox's own. */
const HOOKBOX_EMIT = /(?:^|[\s/\\"'])hookbox(?:\.exe)?["']?\s+emit(?:\s|$)/;

export function runsHookboxEmit(command: unknown): boolean {
  return typeof command === "string" && HOOKBOX_EMIT.test(command);
}

/** A handler whose command runs `hookbox emit`: Hookbox's own, for every agent that spawns it. */
export function runsHookboxEmitHandler(handler: Readonly<Record<string, unknown>>): boolean {
  return runsHookboxEmit(handler.command);
}
