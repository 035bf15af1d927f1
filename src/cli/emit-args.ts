import { HookboxError } from "../errors.ts";
import { AGENT_NAMES, isAgentName, type AgentName } from "../protocols/index.ts";

export interface EmitOptions {
  readonly eventName: string | undefined;
  readonly agent: AgentName | undefined;
  readonly failClosed: boolean;
  readonly socket: string | undefined;
  readonly daemon: boolean;
  /** Without a daemon, run hooks in a worker process rather than a thread (see emit-local.ts). */
  readonly processIsolation: boolean;
  readonly hooks: readonly string[];
  readonly config: string | undefined;
  readonly builtin: readonly string[];
  readonly help: boolean;
}

const BOOLEAN_FLAGS = new Set(["fail-closed", "no-daemon", "process-isolation", "help"]);
const STRING_FLAGS = new Set(["agent", "socket", "hooks", "config", "builtin"]);
const REPEATABLE = new Set(["hooks", "builtin"]);

/**
 * emit's flags, parsed strictly with the rules of node:util parseArgs (`--flag value`,
 * `--flag=value`, `-h`, `--` ends the options; unknown flags, missing values and values that look
 * like flags are errors). Not parseArgs itself: loading node:util costs Bun ~2 ms at startup, a
 * fifth of what an emit through the daemon may take, nor commander (which costs more still).
 */
export function parseEmitArgs(args: readonly string[]): EmitOptions {
  const strings = new Map<string, string[]>();
  const booleans = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      booleans.add("help");
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith("--")) throw usage(`unknown option '${arg}'`);
    const equals = arg.indexOf("=");
    const name = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
    if (BOOLEAN_FLAGS.has(name)) {
      if (equals >= 0) throw usage(`option '--${name}' does not take an argument`);
      booleans.add(name);
      continue;
    }
    if (!STRING_FLAGS.has(name)) throw usage(`unknown option '--${name}'`);
    let value: string;
    if (equals >= 0) {
      value = arg.slice(equals + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined) throw usage(`option '--${name} <value>' argument missing`);
      if (next.startsWith("-")) throw usage(`option '--${name}' argument is ambiguous: write '--${name}=${next}' if the value starts with a dash`);
      value = next;
      i++;
    }
    const values = REPEATABLE.has(name) ? (strings.get(name) ?? []) : [];
    values.push(value);
    strings.set(name, values);
  }
  if (positionals.length > 1) throw new HookboxError("usage", `hookbox emit takes at most one event name, got ${positionals.join(" ")}`);
  const agent = strings.get("agent")?.[0];
  if (agent !== undefined && !isAgentName(agent)) throw new HookboxError("usage", `hookbox emit: --agent must be one of ${AGENT_NAMES.join(", ")}, got ${agent}`);
  return {
    eventName: positionals[0],
    agent,
    failClosed: booleans.has("fail-closed"),
    socket: strings.get("socket")?.[0],
    daemon: !booleans.has("no-daemon"),
    processIsolation: booleans.has("process-isolation"),
    hooks: strings.get("hooks") ?? [],
    config: strings.get("config")?.[0],
    builtin: strings.get("builtin") ?? [],
    help: booleans.has("help"),
  };
}

function usage(problem: string): HookboxError {
  return new HookboxError("usage", `hookbox emit: ${problem} (see hookbox emit --help)`);
}
