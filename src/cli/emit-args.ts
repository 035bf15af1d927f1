import { HookboxError } from "../core/errors.ts";
import { AGENT_NAMES, isAgentName, type AgentName } from "../agents/protocols.ts";
import { parseStrictArgs, type StrictFlags } from "./strict-args.ts";

export interface EmitOptions {
  readonly eventName: string | undefined;
  readonly agent: AgentName | undefined;
  readonly failClosed: boolean;
  readonly socket: string | undefined;
  readonly daemon: boolean;
  /** Without a daemon, run hooks in a worker process (the default) rather than a thread of this process (--thread-worker). */
  readonly processIsolation: boolean;
  readonly hooks: readonly string[];
  readonly config: string | undefined;
  readonly builtin: readonly string[];
  /** The entry an agent's managed settings run (hookbox install --system): the system policy must be there, nothing the user can write decides. */
  readonly system: boolean;
  /** Where the system tier is (--system-root DIR; default /): for tests and images. */
  readonly systemRoot: string | undefined;
  readonly help: boolean;
}

const FLAGS: StrictFlags = {
  booleans: new Set(["fail-closed", "no-daemon", "process-isolation", "thread-worker", "system", "help"]),
  strings: new Set(["agent", "socket", "hooks", "config", "builtin", "system-root"]),
  repeatable: new Set(["hooks", "builtin"]),
};

/** emit's flags, parsed strictly (parseStrictArgs): it runs on every agent event. */
export function parseEmitArgs(args: readonly string[]): EmitOptions {
  const { strings, booleans, positionals } = parseStrictArgs(args, FLAGS, usage);
  if (positionals.length > 1) throw new HookboxError("usage", `hookbox emit takes at most one event name, got ${positionals.join(" ")}`);
  if (booleans.has("process-isolation") && booleans.has("thread-worker")) throw usage("--process-isolation and --thread-worker exclude each other");
  if (booleans.has("system") && strings.has("hooks"))
    throw usage("--system takes its hooks from the system policy and the user's hook directories, not --hooks");
  const agent = strings.get("agent")?.[0];
  if (agent !== undefined && !isAgentName(agent))
    throw new HookboxError("usage", `hookbox emit: --agent must be one of ${AGENT_NAMES.join(", ")}, got ${agent}`);
  return {
    eventName: positionals[0],
    agent,
    failClosed: booleans.has("fail-closed"),
    socket: strings.get("socket")?.[0],
    daemon: !booleans.has("no-daemon"),
    // --process-isolation, the default since it costs no more than a thread, is still accepted: hook entries written with it keep working.
    processIsolation: !booleans.has("thread-worker"),
    hooks: [...(strings.get("hooks") ?? [])],
    config: strings.get("config")?.[0],
    builtin: [...(strings.get("builtin") ?? [])],
    system: booleans.has("system"),
    systemRoot: strings.get("system-root")?.[0],
    help: booleans.has("help"),
  };
}

function usage(problem: string): HookboxError {
  return new HookboxError("usage", `hookbox emit: ${problem} (see hookbox emit --help)`);
}
