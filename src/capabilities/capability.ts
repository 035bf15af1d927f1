import type { CapabilityIO } from "../platform/capability-io.ts";
import type { NotifyIO } from "../platform/index.ts";
import type { InjectionRole } from "../core/events/types.ts";
import type { GrantSources } from "./grants/sources.ts";
import type { PathGuard } from "./paths/guard.ts";
import type { Runner } from "./run/runner.ts";
import type { StoreLocks } from "./store/locks.ts";
import type { LlmClient } from "./llm/client.ts";
import type { LlmCallRecord } from "./llm/record.ts";
import type { LlmUsageStore } from "./llm/usage.ts";
import type { HookApiMethod } from "./types.ts";

/** What the capabilities are given by the composition root, once. */
export interface CapabilityDeps {
  readonly io: CapabilityIO;
  /** The daemon's environment: the source of hook.env values and of PATH for resolving commands. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home: `${home}` in grants, HOME of commands. */
  readonly home: string;
  /** Hookbox's data directory: per-hook stores live in `<dataDir>/store/<hook-id>.json`. */
  readonly dataDir: string;
  /** Where hook.notify's messages leave (absent: notify sends nothing). */
  readonly notify?: NotifyIO;
  /** How model calls are sent (absent: HTTP to the operator's endpoints; `hookbox test` pins replies). */
  readonly llm?: LlmClient;
  /** Tokens per hook per day (absent: counted in this process's memory). */
  readonly llmUsage?: LlmUsageStore;
}

/** One host call in progress. */
export interface CallContext {
  /** Aborts when the invocation ends: kill child processes, abort requests then. */
  readonly signal: AbortSignal;
  /** What the call touches (path, command line, URL, name, key), for the run record; set it first thing. */
  target: string;
}

export type HostMethod = (args: readonly unknown[], call: CallContext) => Promise<unknown>;
export type MethodTable = Partial<Record<HookApiMethod, HostMethod>>;

/** Everything bound to one invocation of one hook on one event. */
export interface InvocationScope {
  readonly hookId: string;
  readonly deps: CapabilityDeps;
  /** Every path a capability touches goes through this guard. */
  readonly paths: PathGuard;
  /** Every command a capability runs goes through this runner. */
  readonly runner: Runner;
  readonly injections: { content: string; role: InjectionRole }[];
  readonly stores: StoreLocks;
  /** Where model calls go and what they cost today. */
  readonly llm: { readonly client: LlmClient; readonly usage: LlmUsageStore };
  /** Filled as the hook asks models: the run record's `llm`. */
  readonly llmCalls: LlmCallRecord[];
}

/**
 * A capability: parses its part of a hook's grants once (at load), and contributes its host
 * methods to each invocation. Problems found while parsing are pushed to `errors` (the hook
 * does not load) or `warnings` (it loads; e.g. an inert grant), each naming the file and field.
 */
export interface Capability<P> {
  readonly name: string;
  parse(sources: GrantSources, deps: CapabilityDeps, errors: string[], warnings: string[]): P | Promise<P>;
  /** One line per grant, for `hookbox list`. */
  summary(policy: P): string[];
  contribute(policy: P, scope: InvocationScope): MethodTable;
}
