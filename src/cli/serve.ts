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
    .option("--token-file <file>", "the bearer token for --listen (created, 0600, when missing); default: <data dir>/http-token")
    .option("--data-dir <dir>", "audit log and hook stores; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox")
    .option("--workers <n|min-max>", "sandbox worker processes: n, all started at once, or min-max, more started while all are busy and stopped after 30 s idle (default: 1-<cores>)")
    .addOption(new Option("--body-limit-kb <n>", "largest accepted request body").default(1024).argParser((v) => Number(v)))
    .addHelpText(
      "after",
      `
Examples:
  hookbox serve                                   # the hooks of ./.hookbox/hooks and ~/.config/hookbox/hooks
  hookbox serve --hooks ./hooks --listen 127.0.0.1:8787

SIGTERM or SIGINT: stop accepting, finish in-flight requests (10 s at most), flush the audit log, remove the socket.`,
    );
  addHookOptions(command).action(
    async (options: { hooks?: string[]; config?: string; socket?: string; listen?: string; tokenFile?: string; dataDir?: string; workers?: string; bodyLimitKb: number }) => {
      const host = ctx.host;
      const locations = locationsFrom(ctx, options);
      const workers = parseWorkers(options.workers, host.cpuCount());
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
        agents: runtime.httpAgents(),
        ...(tcp ? { tcp } : {}),
        log: (line) => ctx.err(`hookbox: ${line}\n`),
      });
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          for (const off of offs) off();
          void daemon.stop().then(resolve);
        };
        const offs = (["SIGTERM", "SIGINT", "SIGHUP"] as const).map((signal) => host.onSignal(signal, stop));
      });
      setExit(EXIT.ok);
    },
  );
}

/** `--workers 4` (fixed) or `--workers 1-4` (grows on demand); the default is 1 up to one per core. */
function parseWorkers(text: string | undefined, cores: number): { min: number; max: number } {
  if (text === undefined) return { min: 1, max: Math.max(1, Math.min(256, cores)) };
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

