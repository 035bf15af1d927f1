import type { ApprovalStore } from "./approvals/store.ts";
import type { CapabilityHost } from "../capabilities/types.ts";
import type { Locations } from "../hooks/config/locations.ts";
import { denialsFilePath, FileDenials } from "./escalation.ts";
import { cooldownsFilePath, FileCooldowns, MemoryCooldowns, type CooldownStore } from "./chain/cooldowns.ts";
import type { SandboxExecutor } from "./chain/invoker.ts";
import type { Metrics } from "./metrics/metrics.ts";
import type { EmbeddedHook, HookSource } from "../hooks/registry/sources.ts";
import type { RuntimeHost } from "../platform/index.ts";
import { Evaluator, type AuditWriter } from "./evaluator.ts";
import { HookboxBinaries } from "./hookbox-binaries.ts";
import { PendingInjections } from "./pending.ts";
import { HookSets } from "./hook-sets.ts";
import { operatorFileSource, type OperatorSource } from "./operator-source.ts";
import { selfProtectMachine, type SelfProtectMachine } from "./self-protect.ts";
import type { ReloadReport } from "../hooks/registry/registry.ts";
import { SnapshotCache } from "../hooks/registry/snapshot/index.ts";
import { BUILD_ID } from "../core/version/index.ts";
import { identityOf } from "./identity.ts";

/**
 * The cap on hook chains running at once in `emit`'s own process, which evaluates one event: its
 * chain runs on one sandbox worker anyway (the operator's dispatch.concurrency is a daemon's cap
 * across events).
 */
const ONE_EVENT_CONCURRENCY = 1024;

/** Projects whose hook sets a daemon keeps loaded at once (the least recently used is dropped). */
export const MAX_PROJECTS = 32;

export interface EvaluatorSetup {
  /** binaryPath and executablePath: the binary self-protect keeps the agent from replacing (absent when running from sources or in tests). */
  readonly host: Pick<RuntimeHost, "fs" | "homeDir" | "pid"> & Partial<Pick<RuntimeHost, "binaryPath" | "executablePath">>;
  readonly locations: Locations;
  readonly capabilities: CapabilityHost;
  readonly embedded: ReadonlyMap<string, EmbeddedHook>;
  readonly executor: SandboxExecutor;
  readonly audit: AuditWriter;
  /**
   * "cli": a command run by a person (list, validate, doctor), which loads hook sets but evaluates
   * nothing; "replay": `hookbox replay`, which evaluates recorded events with no effect (src/decide/replay).
   */
  readonly via: "daemon" | "emit" | "test" | "cli" | "replay";
  /**
   * The operator source, when the caller holds it already: the daemon's (operatorSourceFor, read
   * once at its start by everything it runs), or an inline one (hookbox test's fixtures).
   */
  readonly operator?: OperatorSource;
  readonly approvals?: ApprovalStore;
  readonly metrics?: Metrics;
  readonly log?: (line: string) => void;
  readonly onReload?: (project: string | undefined, report: ReloadReport) => void;
  /** Loads kept on disk between processes: `emit` without a daemon. */
  readonly snapshots?: SnapshotCache;
  /** Instead of the data directory's or this process's: a replay's clock is the recorded events'. */
  readonly cooldowns?: CooldownStore;
  /** Hook directories loaded besides the usual ones (a replay's --with: packages not installed yet). */
  readonly extraSources?: readonly HookSource[];
}

/**
 * The evaluator every path uses, composed in one place. What differs between the daemon, `emit`
 * and `hookbox test` is only what they pass: the workers the hooks run on, where records go,
 * whether approvals are held, whether a last good operator file is kept.
 */
export async function composeEvaluator(setup: EvaluatorSetup): Promise<Evaluator> {
  const { hookSets, operator } = createHookSets(setup);
  // One event in its own process (emit) needs no cap shared across events, nor the operator file
  // read before its hook set is (from the snapshot cache, it may never be parsed at all).
  const concurrency = setup.via === "emit" ? ONE_EVENT_CONCURRENCY : (await operator.read()).operator.dispatch.concurrency;
  return new Evaluator({
    hookSets,
    executor: setup.executor,
    capabilities: setup.capabilities,
    audit: setup.audit,
    servedBy: { via: setup.via === "cli" ? "emit" : setup.via, pid: setup.host.pid },
    concurrency,
    cooldowns: setup.cooldowns ?? cooldownsFor(setup),
    ...(setup.via === "daemon" || setup.via === "emit"
      ? {
          denials: new FileDenials({
            fs: setup.host.fs,
            path: denialsFilePath(setup.locations.dataDir),
            pid: setup.host.pid,
            ...(setup.log ? { log: setup.log } : {}),
          }),
        }
      : {}),
    // Only a daemon runs triggers, and only it lives to deliver what they queue.
    ...(setup.via === "daemon" ? { pending: new PendingInjections() } : {}),
    ...(setup.approvals ? { approvals: setup.approvals } : {}),
    ...(setup.metrics ? { metrics: setup.metrics } : {}),
    ...(setup.log ? { log: setup.log } : {}),
    links: setup.host.fs,
    home: setup.host.homeDir(),
    // What leads to the binary the agents' entries run: the daemon and emit evaluate agents' events.
    ...(setup.via === "daemon" || setup.via === "emit" || setup.via === "replay"
      ? { binaries: new HookboxBinaries(setup.host.fs, setup.locations.dataDir, [setup.host.binaryPath?.(), setup.host.executablePath?.()]) }
      : {}),
  });
}

/**
 * The daemon and emit share the data directory's cooldowns (two emits without a daemon, or a
 * daemon restarted, must not run a hook inside its cooldown); `hookbox test` keeps its own.
 */
function cooldownsFor(setup: EvaluatorSetup): CooldownStore {
  if (setup.via !== "daemon" && setup.via !== "emit") return new MemoryCooldowns();
  return new FileCooldowns({
    fs: setup.host.fs,
    path: cooldownsFilePath(setup.locations.dataDir),
    pid: setup.host.pid,
    ...(setup.log ? { log: setup.log } : {}),
  });
}

export type HookSetsSetup = Pick<
  EvaluatorSetup,
  "host" | "locations" | "capabilities" | "embedded" | "via" | "operator" | "onReload" | "snapshots" | "extraSources"
>;

/** The hook sets as the evaluator resolves them: what `list`, `validate` and `doctor` show is what runs. */
export function createHookSets(setup: HookSetsSetup): { hookSets: HookSets; operator: OperatorSource } {
  const { host, locations } = setup;
  const operator = setup.operator ?? operatorSourceFor(setup);
  const explicit = locations.hookSources.every((source) => source.origin === "dir");
  const hookSets = new HookSets({
    fs: host.fs,
    home: host.homeDir(),
    operator,
    ...(explicit ? { explicitDirs: locations.hookSources.map((source) => source.dir) } : {}),
    userHooksDir: locations.userHooksDir,
    dataDir: locations.dataDir,
    embedded: setup.embedded,
    capabilities: setup.capabilities,
    // A replay goes through the sessions of several projects: each is loaded once.
    maxProjects: setup.via === "daemon" || setup.via === "replay" ? MAX_PROJECTS : 1,
    ...(setup.extraSources ? { extraSources: setup.extraSources } : {}),
    ...(setup.onReload ? { onReload: setup.onReload } : {}),
    ...(setup.snapshots ? { snapshots: setup.snapshots } : {}),
  });
  return { hookSets, operator };
}

/**
 * The operator file on disk as this path reads it (re-read when it changes): the daemon takes it
 * once at start and hands the same source to all it runs; the other paths get it from createHookSets.
 */
export function operatorSourceFor(setup: Pick<EvaluatorSetup, "host" | "locations" | "embedded" | "via">): OperatorSource {
  const { host, locations } = setup;
  return operatorFileSource({
    fs: host.fs,
    path: locations.operatorFile.path,
    explicit: locations.operatorFile.explicit,
    systemPolicy: locations.system,
    builtinFlags: locations.builtin,
    embeddedIds: [...setup.embedded.keys()],
    embedded: setup.embedded,
    // Only a long-lived daemon has a last good operator file to keep.
    keepLastGood: setup.via === "daemon",
    machine: machineOf(host, locations, setup.via),
  });
}

/** What self-protect is told about this machine: the daemon also knows its own pid. */
function machineOf(
  host: Pick<RuntimeHost, "homeDir" | "pid"> & Partial<Pick<RuntimeHost, "binaryPath" | "executablePath">>,
  locations: Locations,
  via: EvaluatorSetup["via"],
): SelfProtectMachine {
  return selfProtectMachine(locations, host.homeDir(), {
    binaries: [host.binaryPath?.(), host.executablePath?.()],
    ...(via === "daemon" ? { daemonPid: host.pid } : {}),
  });
}

/**
 * The snapshot cache of this user's data directory (`<data dir>/cache`) for this build and hook
 * set, read and written by `emit` without a daemon. The key holds what the operator-file layer
 * takes from the machine (self-protect's locations), so a load is never reused where they differ.
 */
export function snapshotCacheFor(
  host: Pick<RuntimeHost, "fs" | "digest" | "env" | "homeDir" | "binaryPath" | "executablePath" | "pid">,
  locations: Locations,
): SnapshotCache {
  return new SnapshotCache({
    fs: host.fs,
    digest: host.digest,
    dir: `${locations.dataDir}/cache`,
    material: {
      build: BUILD_ID,
      identity: identityOf(locations, BUILD_ID, host.homeDir()),
      env: host.env,
      machine: machineOf(host, locations, "emit"),
    },
  });
}
