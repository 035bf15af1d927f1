import { Option, type Command } from "commander";
import type { CliContext } from "./context.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { SERVE_FLAGS } from "./serve-args.ts";
import { runServe } from "./serve-run.ts";

/**
 * `hookbox serve` in the command line: its help and completion. main.ts starts the daemon itself
 * on a lean path (serve-run.ts, flags from the same table) without loading this.
 */
export function registerServe(
  program: Command,
  ctx: CliContext,
  setExit: (code: number) => void,
  runtime: HookRuntimeFactory,
  version: string,
): void {
  const command = program
    .command("serve")
    .description("Serve the hooks on a unix socket (and optionally loopback TCP) until SIGTERM/SIGINT, or --idle-exit");
  for (const flag of SERVE_FLAGS) {
    const option = new Option(flag.flags, flag.description);
    if (flag.hidden) option.hideHelp();
    command.addOption(option);
  }
  command.addHelpText(
    "after",
    `
Examples:
  hookbox serve                                   # every project's .hookbox/hooks, ~/.config/hookbox/hooks, the operator's standard hooks
  hookbox serve --default-guards                  # the same, writing the recommended operator file first when there is none
  hookbox serve --hooks ./hooks --listen 127.0.0.1:8787
  hookbox serve --workers 1-4                     # always keep one sandbox worker warm
  hookbox serve --console                         # and the web console (runs, approvals, hooks, health)

You rarely need to run it: hookbox emit starts a daemon of its own when none answers (see
hookbox daemon status). A daemon you start yourself runs until stopped, unless --idle-exit.

Idle: one sandbox worker starts with the daemon; by default (--workers 0-<cores>) the last one
stops after --worker-idle seconds without events, leaving the daemon alone (~60 MB less
resident). The next event then starts a worker first (~60-100 ms once, before its hooks run).
With --workers 1-<n> one worker always stays warm.

Hook sets are resolved per event from the event's project (its .hookbox/hooks, walking up from
the agent's project directory to the nearest .hookbox/ or .git), plus the user's hooks and the
standard hooks the operator file enables. Each is checked against the files on disk before every
event, so edits take effect at once. SIGHUP reloads everything now.

Only its owner may use it: the socket's directory is 0700, the socket 0600, and a process of
another uid (read from the kernel on each connection) is refused with 403 peer_refused.

SIGTERM or SIGINT: stop accepting, finish in-flight requests (10 s at most), flush the audit log, remove the socket.`,
  );
  command.action(async () => {
    setExit(await runServe(ctx.host, ctx.host.args.slice(ctx.host.args.indexOf("serve") + 1), runtime, version));
  });
}
