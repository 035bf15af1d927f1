import type { Locations } from "../../hooks/config/locations.ts";
import { PROJECT_DIR_ENV } from "../../agents/protocols.ts";
import type { RuntimeHost } from "../../platform/index.ts";
import type { AutoStartSettings } from "./lifecycle.ts";

/** What the daemon should know at once of the event that started it. */
export interface DaemonStart {
  /** Its project: built before the next event comes (serve --warm). */
  readonly warm?: string;
  /** The session that event started (a SessionStart): it holds the daemon until it ends (serve --session). */
  readonly session?: string;
}

export type AutoStart =
  | { readonly started: true; readonly pid: number }
  /** Why not: another process holds the socket's lock (a daemon starting or serving), or this runtime cannot start one. */
  | { readonly started: false; readonly why: string };

/**
 * `emit` found no daemon on `socket`: start one there, in the background, serving exactly the hook
 * set this emit resolved (its --hooks, --builtin, --config, as absolute paths; the rest comes from
 * the same environment), so the next emit's identity matches it. Of several emits doing this at
 * once, the one that takes the socket's lock starts it and hands the lock over; the others start
 * nothing and do not wait. Called after this emit has answered: the agent does not wait for it.
 */
export async function startDaemon(
  host: RuntimeHost,
  socket: string,
  locations: Locations,
  settings: AutoStartSettings,
  start: DaemonStart = {},
): Promise<AutoStart> {
  const daemon = host.daemon;
  const executable = host.executablePath();
  if (!daemon || !executable) return { started: false, why: "Hookbox runs from sources here, not as its binary" };
  await host.fs.mkdirp(socket.slice(0, socket.lastIndexOf("/")) || "/", 0o700, true);
  const lock = await daemon.tryLock(`${socket}.lock`);
  if (!lock) return { started: false, why: "another process holds the socket's lock (a daemon is starting or serving)" };
  try {
    await host.fs.mkdirp(locations.dataDir, 0o700);
    const pid = daemon.spawnDetached({
      args: serveArgs(socket, locations, settings, start),
      env: daemonEnv(host.env),
      logFile: `${locations.dataDir}/daemon.log`,
      lock,
      cwd: "/",
    });
    return { started: true, pid };
  } finally {
    // The daemon holds its own copy now.
    lock.release();
  }
}

/** The serve command line that resolves the same hook set as `locations`. */
export function serveArgs(socket: string, locations: Locations, settings: AutoStartSettings, start: DaemonStart = {}): string[] {
  const args = ["serve", "--socket", socket, "--auto-started", "--lock-fd", "3", "--idle-exit", String(settings.idle_exit_seconds)];
  if (locations.hookSources.every((source) => source.origin === "dir")) for (const source of locations.hookSources) args.push("--hooks", source.dir);
  if (locations.operatorFile.explicit) args.push("--config", locations.operatorFile.path);
  if (locations.builtin.length > 0) args.push("--builtin", locations.builtin.join(","));
  if (locations.system.root !== "/") args.push("--system-root", locations.system.root);
  // `--flag=value`: a project or session that begins with "-" is still a value.
  if (start.warm !== undefined) args.push(`--warm=${start.warm}`);
  if (start.session !== undefined) args.push(`--session=${start.session}`);
  return args;
}

/** emit's environment, without the per-call project variables (each event brings its own). */
function daemonEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const skip = new Set<string>(PROJECT_DIR_ENV);
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string" && !skip.has(entry[0])));
}
