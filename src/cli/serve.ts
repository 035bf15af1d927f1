import { Option, type Command } from "commander";
import { Daemon } from "../daemon/daemon.ts";
import { parseListen } from "../daemon/socket.ts";
import { HookboxError } from "../errors.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";


export function registerServe(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory, version: string): void {
  const command = program
    .command("serve")
    .description("Serve the hooks on a unix socket (and optionally loopback TCP) until SIGTERM/SIGINT")
    .option("--socket <path>", "unix socket; default: $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock")
    .option("--listen <host:port>", "also listen on loopback TCP (for Claude Code http hooks); requests need the bearer token")
    .option("--console [host:port]", "also serve the web console on loopback TCP (default 127.0.0.1:0, a free port); its sign-in link is printed here, and `hookbox console` asks for a new one")
    .option("--token-file <file>", "the bearer token for --listen (created, 0600, when missing); default: <data dir>/http-token")
    .option("--data-dir <dir>", "audit log and hook stores; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox")
    .option("--workers <n|min-max>", "sandbox worker processes: n, all started at once and kept, or min-max: min kept however idle, more started while all are busy (default: 0-<cores>)")
    .addOption(
      new Option("--worker-idle <seconds>", "a worker above the --workers minimum stops after this long without events (the next event starts one again)")
        .default(WORKER_IDLE_SECONDS)
        .argParser((v) => Number(v)),
    )
    .addOption(new Option("--body-limit-kb <n>", "largest accepted request body").default(1024).argParser((v) => Number(v)))
    .addHelpText(
      "after",
      `
Examples:
  hookbox serve                                   # every project's .hookbox/hooks, ~/.config/hookbox/hooks, the operator's standard hooks
  hookbox serve --hooks ./hooks --listen 127.0.0.1:8787
  hookbox serve --workers 1-4                     # always keep one sandbox worker warm
  hookbox serve --console                         # and the web console (runs, approvals, hooks, health)

Idle: one sandbox worker starts with the daemon; by default (--workers 0-<cores>) the last one
stops after --worker-idle seconds without events, leaving the daemon alone (~60 MB less
resident). The next event then starts a worker first (~60-100 ms once, before its hooks run).
With --workers 1-<n> one worker always stays warm.

Hook sets are resolved per event from the event's project (its .hookbox/hooks, walking up from
the agent's project directory to the nearest .hookbox/ or .git), plus the user's hooks and the
standard hooks the operator file enables. Each is checked against the files on disk before every
event, so edits take effect at once. SIGHUP reloads everything now.

SIGTERM or SIGINT: stop accepting, finish in-flight requests (10 s at most), flush the audit log, remove the socket.`,
    );
  addHookOptions(command).action(
    async (options: { hooks?: string[]; config?: string; socket?: string; listen?: string; console?: string | true; tokenFile?: string; dataDir?: string; workers?: string; workerIdle: number; bodyLimitKb: number }) => {
      const host = ctx.host;
      const locations = locationsFrom(ctx, options);
      if (!(options.workerIdle >= 1 && options.workerIdle <= 86_400)) throw new HookboxError("usage", "--worker-idle must be 1–86400 seconds");
      const workers = { ...parseWorkers(options.workers, host.cpuCount()), idleMs: options.workerIdle * 1000 };
      if (!Number.isInteger(options.bodyLimitKb) || options.bodyLimitKb < 1 || options.bodyLimitKb > 64 * 1024) throw new HookboxError("usage", "--body-limit-kb must be 1–65536");
      let tcp: { hostname: string; port: number; token: string } | undefined;
      if (options.listen) {
        const address = parseListen(options.listen);
        const tokenFile = options.tokenFile ?? `${locations.dataDir}/http-token`;
        tcp = { ...address, token: await bearerToken(ctx, tokenFile) };
        ctx.err(`hookbox: bearer token for --listen is in ${tokenFile}\n`);
      }
      const daemon = await Daemon.start({
        host,
        locations,
        version,
        workers,
        bodyLimitBytes: options.bodyLimitKb * 1024,
        capabilities: runtime.capabilities(locations),
        embedded: runtime.embedded(),
        ...(tcp ? { tcp } : {}),
        ...(options.console ? { console: parseListen(options.console === true ? DEFAULT_CONSOLE : options.console, "--console") } : {}),
        log: (line) => ctx.err(`hookbox: ${line}\n`),
      });
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          for (const off of offs) off();
          void daemon.stop().then(resolve);
        };
        const offs = [...(["SIGTERM", "SIGINT"] as const).map((signal) => host.onSignal(signal, stop)), host.onSignal("SIGHUP", () => void daemon.reload())];
      });
      setExit(EXIT.ok);
    },
  );
}

/** A free port on the IPv4 loopback: `hookbox console` finds it through the daemon. */
const DEFAULT_CONSOLE = "127.0.0.1:0";

/**
 * How long the last worker outlives the last event by default. An agent at work sends events
 * seconds apart (each tool call); a minute without any means it waits on its user, and a worker
 * started for the next event costs that one event ~60-100 ms, far below what the agent itself
 * takes per turn, while an idle daemon holds half the memory.
 */
const WORKER_IDLE_SECONDS = 60;

/** `--workers 4` (fixed) or `--workers 1-4` (grows on demand); the default is 0 up to one per core. */
function parseWorkers(text: string | undefined, cores: number): { min: number; max: number } {
  if (text === undefined) return { min: 0, max: Math.max(1, Math.min(256, cores)) };
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2] ?? match?.[1]);
  if (!match || max < 1 || max > 256 || min > max) throw new HookboxError("usage", `--workers must be n or min-max with 0 ≤ min ≤ max and 1 ≤ max ≤ 256, got ${text}`);
  return { min, max };
}

/** Read the token file, or create it (0600) with a fresh random token. */
async function bearerToken(ctx: CliContext, file: string): Promise<string> {
  if (await ctx.host.fs.exists(file)) {
    const token = (await ctx.host.fs.readText(file)).trim();
    if (token.length < 16) throw new HookboxError("usage", `${file} holds a token shorter than 16 characters; write a longer one or delete the file to have one generated`);
    return token;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  await ctx.host.fs.mkdirp(file.slice(0, file.lastIndexOf("/")) || "/", 0o700, true);
  await ctx.host.fs.writeTextAtomic(file, `${token}\n`, 0o600);
  return token;
}

