import { AGENT_CONFIG_DIRS } from "../agents/config-dirs.ts";
import type { Locations } from "../hooks/config/locations.ts";
import type { HookSetIdentityV1 } from "../core/wire/health.ts";

/**
 * Everything besides the files themselves that decides which hook set an event gets: the build
 * (its code and embedded standard hooks), where the operator file and the hook directories are,
 * the standard hooks enabled by flags, and where state lives. `emit` hands its own to the daemon,
 * which answers only when it resolves hook sets from the same; file contents are the daemon's to
 * keep current (HookSets checks their stamps before every event). Its fields: hookSetIdentitySchema
 * (src/core/wire/health.ts), which the daemon's health and status answers carry.
 */
export type HookSetIdentity = HookSetIdentityV1;

export function identityOf(locations: Locations, build: string, home: string): HookSetIdentity {
  const explicit = locations.hookSources.every((source) => source.origin === "dir");
  return {
    v: 1,
    build,
    operator_file: locations.operatorFile.path,
    builtin_flags: [...new Set(locations.builtin)].sort(),
    hook_dirs: explicit ? locations.hookSources.map((source) => source.dir) : null,
    user_hooks_dir: locations.userHooksDir,
    data_dir: locations.dataDir,
    home,
    agent_dirs: { ...locations.agentDirs },
    system_policy: locations.system.path,
  };
}

const LABELS: Readonly<Record<Exclude<keyof HookSetIdentity, "v">, string>> = {
  build: "Hookbox build",
  operator_file: "operator file",
  builtin_flags: "--builtin flags",
  hook_dirs: "--hooks directories",
  user_hooks_dir: "user hooks directory",
  data_dir: "data directory",
  home: "home directory",
  agent_dirs: `agent config directories (${AGENT_CONFIG_DIRS.map(({ env }) => env).join(", ")})`,
  system_policy: "system policy (--system-root)",
};

/** What differs between two identities, in words; undefined when they are the same. */
export function identityDifference(mine: HookSetIdentity, theirs: unknown): string | undefined {
  if (theirs === null || typeof theirs !== "object" || (theirs as { v?: unknown }).v !== 1)
    return "the client sent no hook-set identity this daemon can read";
  const differences: string[] = [];
  for (const key of Object.keys(LABELS) as (keyof typeof LABELS)[]) {
    const a = JSON.stringify(mine[key]);
    const b = JSON.stringify((theirs as Record<string, unknown>)[key]);
    if (a !== b) differences.push(`${LABELS[key]}: daemon ${a}, caller ${b ?? "none"}`);
  }
  return differences.length > 0 ? differences.join("; ") : undefined;
}
