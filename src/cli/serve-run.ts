// `hookbox serve` itself, without commander: main.ts starts it on a lean path (the daemon's cold
// start is a target), and serve.ts's commander command only shows its help.
import { resolveLocations } from "../hooks/config/locations.ts";
import { Daemon } from "../serve/daemon/daemon.ts";
import { parseListen } from "../serve/daemon/socket.ts";
import { HookboxError } from "../core/errors.ts";
import { findProjectRoot } from "../decide/project.ts";
import { resolvePath } from "../core/text/posix-path.ts";
import type { RuntimeHost } from "../platform/index.ts";
import { ensureDefaultOperatorFile } from "./default-guards.ts";
import { EXIT } from "./exit-codes.ts";
import { reportError } from "./report-error.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { parseServeArgs, parseWorkers, type ServeOptions } from "./serve-args.ts";

/** Parse, start, serve until stopped (a signal, idle, POST /v1/daemon/stop): the exit code. */
export async function runServe(host: RuntimeHost, args: readonly string[], runtime: HookRuntimeFactory, version: string): Promise<number> {
  const err = (text: string): void => host.writeStderr(text);
  try {
    return await serve(host, parseServeArgs(args), runtime, version);
  } catch (error) {
    return reportError(err, error, args.includes("--debug"));
  }
}

async function serve(host: RuntimeHost, options: ServeOptions, runtime: HookRuntimeFactory, version: string): Promise<number> {
  const locations = resolveLocations(host, options.locations);
  if (options.defaultGuards) {
    const written = await ensureDefaultOperatorFile(host.fs, locations.operatorFile.path, "hookbox serve --default-guards", {
      dataDir: locations.dataDir,
    });
    if (written.created)
      host.writeStderr(
        `hookbox: wrote ${written.path} (there was none): the standard guards ${written.guards.join(", ")} are on for this daemon and every agent's emit; edit it to change them (hookbox validate checks it)\n`,
      );
  }
  const workers = { ...parseWorkers(options.workers, host.cpuCount()), idleMs: options.workerIdleSeconds * 1000 };
  let tcp: { hostname: string; port: number; token: string } | undefined;
  if (options.listen) {
    const address = parseListen(options.listen);
    const tokenFile = options.tokenFile ?? `${locations.dataDir}/http-token`;
    tcp = { ...address, token: await bearerToken(host, tokenFile) };
    host.writeStderr(`hookbox: bearer token for --listen is in ${tokenFile}\n`);
  }
  const daemon = await Daemon.start({
    host,
    locations,
    version,
    workers,
    bodyLimitBytes: options.bodyLimitKb * 1024,
    capabilities: runtime.capabilities(locations),
    embedded: runtime.embedded(),
    origin: options.autoStarted ? "auto" : "serve",
    idleExitSeconds: options.idleExitSeconds,
    warm: await projectsToWarm(host, options),
    sessions: options.sessions,
    ...(options.lockFd !== undefined ? { inheritedLockFd: options.lockFd } : {}),
    ...(tcp ? { tcp } : {}),
    ...(options.console !== undefined ? { console: parseListen(options.console, "--console") } : {}),
    // An auto-started daemon writes to its log file: each line says when.
    log: (line) => host.writeStderr(options.autoStarted ? `hookbox: ${new Date().toISOString()} ${line}\n` : `hookbox: ${line}\n`),
  });
  const offs = [
    ...(["SIGTERM", "SIGINT"] as const).map((signal) => host.onSignal(signal, () => void daemon.stop())),
    host.onSignal("SIGHUP", () => void daemon.reload()),
  ];
  await daemon.done;
  for (const off of offs) off();
  return EXIT.ok;
}

/**
 * The projects whose hooks are built at start: those named (--warm, as the project of each
 * directory), else the project of the directory a person started serve in. A daemon emit started
 * is given its event's project; started from elsewhere (cwd "/"), it warms the shared hooks.
 */
async function projectsToWarm(host: RuntimeHost, options: ServeOptions): Promise<string[]> {
  const cwd = host.cwd();
  const dirs = options.warm.length > 0 ? options.warm.map((dir) => resolvePath(cwd, dir)) : options.autoStarted || cwd === "/" ? [] : [cwd];
  return Promise.all(dirs.map((dir) => findProjectRoot(host.fs, dir, host.homeDir())));
}

/** Read the token file, or create it (0600) with a fresh random token. */
async function bearerToken(host: RuntimeHost, file: string): Promise<string> {
  if (await host.fs.exists(file)) {
    const token = (await host.fs.readText(file)).trim();
    if (token.length < 16)
      throw new HookboxError(
        "usage",
        `${file} holds a token shorter than 16 characters; write a longer one or delete the file to have one generated`,
      );
    return token;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  await host.fs.mkdirp(file.slice(0, file.lastIndexOf("/")) || "/", 0o700, true);
  await host.fs.writeTextAtomic(file, `${token}\n`, 0o600);
  return token;
}
