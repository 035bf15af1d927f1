import type { Command } from "commander";
import type { Decision } from "../core/events/types.ts";
import { daemonSockets } from "../serve/daemon/auto-socket.ts";
import { HookboxError } from "../core/errors.ts";
import { identityOf } from "../decide/identity.ts";
import { BUILD_ID } from "../core/version/index.ts";
import { resolvePath } from "../core/text/posix-path.ts";
import type { CliContext } from "./context.ts";
import { daemonRequest } from "./daemon-client.ts";
import { EXIT } from "./exit-codes.ts";
import { locationsFrom } from "./setup.ts";

/** What the daemon answers for a triggered hook (a decision for the others). */
interface FiredRun {
  readonly hook_id: string;
  readonly status: string;
  readonly run_id: string;
  readonly records: readonly { readonly status: string; readonly reason?: string }[];
}

/** A triggered run waits this long at most: a hook's own timeout is far shorter. */
const FIRE_TIMEOUT_MS = 5 * 60_000;

/**
 * `hookbox fire <id>`: run a hook now through the daemon, whatever its cooldown (the run is
 * recorded as its last) — for the project of the current directory, or --project.
 */
export function registerFire(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("fire")
    .description("Run a hook now, bypassing its cooldown and matcher (through the daemon); the run is recorded")
    .argument("<id>", "the hook's id (hookbox list)")
    .option("--project <dir>", "the project whose hook it is; default: the current directory's")
    .option("--event <json>", "the event to give it, as JSON (default: a timing context, as its schedule gives)")
    .option(
      "--socket <path>",
      "the daemon's socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock",
    )
    .option("--json", "print the daemon's answer as JSON")
    .action(async (id: string, options: { project?: string; event?: string; socket?: string; json?: boolean }) => {
      let event: Record<string, unknown> = {};
      if (options.event !== undefined) {
        try {
          event = JSON.parse(options.event) as Record<string, unknown>;
        } catch (error) {
          throw new HookboxError("usage", `--event is not JSON: ${(error as Error).message}`);
        }
        if (event === null || typeof event !== "object" || Array.isArray(event)) throw new HookboxError("usage", "--event must be a JSON object");
      }
      const project = resolvePath(ctx.host.cwd(), options.project ?? ".");
      const path = `/v1/hooks/${encodeURIComponent(id)}/fire?project=${encodeURIComponent(project)}`;
      const locations = locationsFrom(ctx, options);
      // Where emit asks: a daemon a person started, else the one an agent's emit auto-started for this hook set.
      const { ask } = daemonSockets(locations, options.socket !== undefined, identityOf(locations, BUILD_ID, ctx.host.homeDir()), ctx.host);
      let answer: FiredRun | Decision | undefined;
      for (const [index, socket] of ask.entries()) {
        try {
          answer = await daemonRequest<FiredRun | Decision>(ctx.host, { ...locations, socketPath: socket }, "POST", path, event, FIRE_TIMEOUT_MS);
          break;
        } catch (error) {
          if (!(error instanceof HookboxError && error.code === "daemon_unavailable") || index === ask.length - 1) throw error;
        }
      }
      if (!answer) throw new HookboxError("daemon_unavailable", "no Hookbox daemon answers");
      if (options.json) await ctx.out(`${JSON.stringify(answer, null, 2)}\n`);
      else if ("run_id" in answer) {
        const last = answer.records.at(-1);
        await ctx.out(`${id}: ${answer.status}${last?.reason ? ` (${last.reason})` : ""}; run ${answer.run_id} (hookbox runs --hook ${id})\n`);
      } else await ctx.out(`${id}: ${answer.decision}${answer.reason ? ` (${answer.reason})` : ""}\n`);
      const failed = "run_id" in answer ? answer.status === "failed" : false;
      setExit(failed ? EXIT.failed : EXIT.ok);
    });
}
