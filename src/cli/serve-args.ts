import { HookboxError } from "../core/errors.ts";
import type { LocationFlags } from "../hooks/config/locations.ts";
import { parseStrictArgs } from "./strict-args.ts";

/** One flag of `hookbox serve`: parsed by parseServeArgs, shown by commander's help (serve.ts). */
export interface ServeFlag {
  readonly flags: string;
  readonly description: string;
  /** Set by `emit` when it starts a daemon; not for people. */
  readonly hidden?: true;
}

/** --system-root, the same for every command that takes it. */
export const SYSTEM_ROOT_HELP =
  "the system tier (its policy /etc/hookbox/hookbox.yaml, merged under the operator file) under DIR instead of /: for tests and images";

/** --builtin, the same for every command that takes it. */
export const BUILTIN_FLAG_HELP =
  'enable standard hooks by id (comma-separated, repeatable); "all": every standard hook that works without setup — the prompt hooks (verify-completion, prompt-clarity) join once hookbox.yaml configures an llm endpoint, or when named; see hookbox list --builtin';

/**
 * Every flag of `hookbox serve`, once: the daemon starts without commander (main.ts takes the
 * lean path for serve), and `hookbox serve --help` and shell completion read the same table.
 */
export const SERVE_FLAGS: readonly ServeFlag[] = [
  {
    flags: "--socket <path>",
    description: "unix socket; default: $HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock",
  },
  {
    flags: "--listen <host:port>",
    description:
      "also listen on loopback TCP, for Claude Code http hooks (hookbox install-agent claude --http); each request needs the bearer token of --token-file",
  },
  {
    flags: "--console [host:port]",
    description:
      "also serve the web console on loopback TCP (default 127.0.0.1:0, a free port); its sign-in link is printed here, and `hookbox console` asks for a new one",
  },
  {
    flags: "--token-file <file>",
    description:
      'the bearer token for --listen (created, 0600, when missing); default: <data dir>/http-token, ~/.local/share/hookbox/http-token. Claude Code sends it from an environment variable: export HOOKBOX_TOKEN="$(cat <that file>)" and install-agent claude --http URL --token-env HOOKBOX_TOKEN',
  },
  { flags: "--data-dir <dir>", description: "audit log and hook stores; default: $XDG_DATA_HOME/hookbox or ~/.local/share/hookbox" },
  {
    flags: "--workers <n|min-max>",
    description:
      "sandbox worker processes: n, all started at once and kept, or min-max: min kept however idle, more started while all are busy (default: 0-<cores>)",
  },
  {
    flags: "--worker-idle <seconds>",
    description: "a worker above the --workers minimum stops after this long without events (the next event starts one again) (default: 60)",
  },
  {
    flags: "--idle-exit <seconds>",
    description: "exit after this long without events (default: never; a daemon emit started: the operator file's daemon.idle_exit_seconds)",
  },
  { flags: "--body-limit-kb <n>", description: "largest accepted request body (default: 1024)" },
  {
    flags: "--hooks <dir>",
    description: "a hook directory (repeatable); default: each event's project's .hookbox/hooks and ~/.config/hookbox/hooks",
  },
  { flags: "--config <file>", description: "the operator file; default: ~/.config/hookbox/hookbox.yaml (never the project's)" },
  { flags: "--system-root <dir>", description: SYSTEM_ROOT_HELP },
  {
    flags: "--builtin <ids>",
    description: `${BUILTIN_FLAG_HELP}. For this daemon only: an agent's emit, which does not pass it, then evaluates without it (prefer the operator file)`,
  },
  {
    flags: "--default-guards",
    description:
      "when there is no operator file, first write the recommended one (the standard guards guard-secrets and bash-guard), as install-agent does: this daemon and every agent's emit then run them; an existing one is never touched",
  },
  {
    flags: "--warm <dir>",
    description:
      "build this project's hooks at start, before its first event (repeatable); default: the project of the directory serve starts in (a daemon emit starts: the project of the event that started it)",
  },
  { flags: "--auto-started", description: "started by emit: exits when idle or when its socket is removed", hidden: true },
  { flags: "--lock-fd <n>", description: "the socket's lock, inherited from the emit that started this daemon", hidden: true },
  {
    flags: "--session <id>",
    description: "an agent session the starting emit saw start: it holds the daemon until its SessionEnd (repeatable)",
    hidden: true,
  },
];

export interface ServeOptions {
  readonly locations: LocationFlags;
  readonly listen: string | undefined;
  /** The web console's loopback address; undefined: no console. */
  readonly console: string | undefined;
  readonly tokenFile: string | undefined;
  readonly workers: string | undefined;
  readonly workerIdleSeconds: number;
  readonly idleExitSeconds: number | undefined;
  readonly bodyLimitKb: number;
  readonly autoStarted: boolean;
  readonly lockFd: number | undefined;
  /** --warm: directories whose projects' hooks are built at start. */
  readonly warm: readonly string[];
  /** --session: agent sessions already open. */
  readonly sessions: readonly string[];
  /** Write the recommended operator file first when there is none. */
  readonly defaultGuards: boolean;
  readonly help: boolean;
}

const nameOf = (flag: ServeFlag): string => (/^--([\w-]+)/.exec(flag.flags) as RegExpExecArray)[1] as string;
const takesValue = (flag: ServeFlag): boolean => flag.flags.includes("<") || flag.flags.includes("[");

/** A free port on the IPv4 loopback: `hookbox console` finds it through the daemon. */
export const DEFAULT_CONSOLE = "127.0.0.1:0";

/** `--console` takes its address optionally: bare, or followed by host:port, or `--console=host:port`. */
function withConsoleValue(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg !== "--console") {
      out.push(arg);
      continue;
    }
    const next = args[i + 1];
    if (next !== undefined && /^[^-].*:\d+$/.test(next)) {
      out.push(`--console=${next}`);
      i++;
    } else {
      out.push(`--console=${DEFAULT_CONSOLE}`);
    }
  }
  return out;
}

export function parseServeArgs(given: readonly string[]): ServeOptions {
  const args = withConsoleValue(given);
  const usage = (problem: string): HookboxError => new HookboxError("usage", `hookbox serve: ${problem} (see hookbox serve --help)`);
  const { strings, booleans, positionals } = parseStrictArgs(
    args,
    {
      booleans: new Set([...SERVE_FLAGS.filter((f) => !takesValue(f)).map(nameOf), "help"]),
      strings: new Set(SERVE_FLAGS.filter(takesValue).map(nameOf)),
      repeatable: new Set(["hooks", "builtin", "warm", "session"]),
    },
    usage,
  );
  if (positionals.length > 0) throw usage(`unexpected argument ${positionals[0]}`);
  const one = (name: string): string | undefined => strings.get(name)?.[0];
  const number = (name: string, min: number, max: number, fallback?: number): number | undefined => {
    const text = one(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new HookboxError("usage", `--${name} must be a whole number from ${min} to ${max}, got ${text}`);
    return value;
  };
  const hooks = strings.get("hooks");
  const builtin = strings.get("builtin");
  return {
    locations: {
      ...(hooks ? { hooks } : {}),
      ...(builtin ? { builtin } : {}),
      ...(one("config") !== undefined ? { config: one("config") as string } : {}),
      ...(one("socket") !== undefined ? { socket: one("socket") as string } : {}),
      ...(one("data-dir") !== undefined ? { dataDir: one("data-dir") as string } : {}),
      ...(one("system-root") !== undefined ? { systemRoot: one("system-root") as string } : {}),
    },
    listen: one("listen"),
    console: one("console"),
    tokenFile: one("token-file"),
    workers: one("workers"),
    workerIdleSeconds: number("worker-idle", 1, 86_400, WORKER_IDLE_SECONDS) as number,
    idleExitSeconds: number("idle-exit", 1, 7 * 24 * 3600),
    bodyLimitKb: number("body-limit-kb", 1, 64 * 1024, 1024) as number,
    autoStarted: booleans.has("auto-started"),
    lockFd: number("lock-fd", 3, 1024),
    warm: strings.get("warm") ?? [],
    sessions: strings.get("session") ?? [],
    defaultGuards: booleans.has("default-guards"),
    help: booleans.has("help"),
  };
}

/**
 * How long the last worker outlives the last event by default. An agent at work sends events
 * seconds apart (each tool call); a minute without any means it waits on its user, and a worker
 * started for the next event costs that one event ~60-100 ms, far below what the agent itself
 * takes per turn, while an idle daemon holds half the memory.
 */
export const WORKER_IDLE_SECONDS = 60;

/** `--workers 4` (fixed) or `--workers 1-4` (grows on demand); the default is 0 up to one per core. */
export function parseWorkers(text: string | undefined, cores: number): { min: number; max: number } {
  if (text === undefined) return { min: 0, max: Math.max(1, Math.min(256, cores)) };
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2] ?? match?.[1]);
  if (!match || max < 1 || max > 256 || min > max)
    throw new HookboxError("usage", `--workers must be n or min-max with 0 ≤ min ≤ max and 1 ≤ max ≤ 256, got ${text}`);
  return { min, max };
}
