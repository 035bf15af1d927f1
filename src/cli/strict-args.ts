import type { HookboxError } from "../core/errors.ts";

/** The flags a lean command takes (see parseStrictArgs). */
export interface StrictFlags {
  readonly booleans: ReadonlySet<string>;
  readonly strings: ReadonlySet<string>;
  /** String flags that may be given more than once (their values are collected in order). */
  readonly repeatable?: ReadonlySet<string>;
}

export interface StrictArgs {
  readonly strings: ReadonlyMap<string, readonly string[]>;
  readonly booleans: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/**
 * Flags parsed strictly with the rules of node:util parseArgs (`--flag value`, `--flag=value`,
 * `-h`, `--` ends the options; unknown flags, missing values and values that look like flags are
 * errors), for the commands that start on every event or must start fast (emit, serve). Not
 * parseArgs itself: loading node:util costs Bun ~2 ms at startup, nor commander (which costs more
 * still). `usage` turns a problem into the command's own error.
 */
export function parseStrictArgs(args: readonly string[], flags: StrictFlags, usage: (problem: string) => HookboxError): StrictArgs {
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
    if (flags.booleans.has(name)) {
      if (equals >= 0) throw usage(`option '--${name}' does not take an argument`);
      booleans.add(name);
      continue;
    }
    if (!flags.strings.has(name)) throw usage(`unknown option '--${name}'`);
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
    const values = flags.repeatable?.has(name) ? (strings.get(name) ?? []) : [];
    values.push(value);
    strings.set(name, values);
  }
  return { strings, booleans, positionals };
}
