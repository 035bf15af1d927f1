import type { CapabilityHost } from "../capabilities/types.ts";
import type { NativeEvent } from "../core/events/types.ts";
import { Registry, type RegistryInputs, type RegistrySnapshot, type ReloadReport } from "../hooks/registry/registry.ts";
import type { SeededLoad, SnapshotCache } from "../hooks/registry/snapshot/index.ts";
import type { EmbeddedHook, HookFileReader, HookSource } from "../hooks/registry/sources.ts";
import type { FileHost } from "../platform/index.ts";
import { operatorHooksDirs } from "../hooks/config/locations.ts";
import type { OperatorSource, OperatorView } from "./operator-source.ts";
import { parseTrustRecord, trustRecordPath } from "../hooks/registry/trust.ts";
import { findProjectRoot } from "./project.ts";

export interface HookSetsOptions {
  readonly fs: HookFileReader & Pick<FileHost, "kind">;
  readonly home: string;
  readonly operator: OperatorSource;
  /** `--hooks DIR` given: exactly these directories, whatever the project. */
  readonly explicitDirs?: readonly string[];
  /** The user's own hooks (~/.config/hookbox/hooks): part of every project's set. */
  readonly userHooksDir: string;
  /** Hookbox's data directory: which projects the user trusted (`hookbox trust`) is recorded under it. */
  readonly dataDir?: string;
  readonly embedded: ReadonlyMap<string, EmbeddedHook>;
  readonly capabilities: CapabilityHost;
  /** Projects kept loaded at once; the least recently used one is dropped (and loaded again when next asked for). */
  readonly maxProjects: number;
  readonly onReload?: (project: string | undefined, report: ReloadReport) => void;
  /** `emit` without a daemon: loads kept on disk between processes (src/hooks/registry/snapshot). */
  readonly snapshots?: SnapshotCache;
  /** Loaded besides the directories above, in every project's set (a replay's --with). */
  readonly extraSources?: readonly HookSource[];
}

/** One project's hooks, ready for an event. */
export interface ProjectHookSet {
  /** The project's root, or undefined for an event that names no directory (user and standard hooks only). */
  readonly project: string | undefined;
  readonly snapshot: RegistrySnapshot;
}

/**
 * The hook sets of every project, each resolved from the event's project (never the process's
 * working directory): the standard hooks the operator enabled, the user's hooks, the operator's
 * hooks_dirs, then the project's `.hookbox/hooks`. Loaded lazily, kept fresh against the files on
 * disk, bounded: dropping a project only costs its next event the time to load it again.
 */
export class HookSets {
  private readonly loaded = new Map<string, Promise<Registry>>();

  constructor(private readonly options: HookSetsOptions) {}

  /** The project an event belongs to: the agent's project directory, walked up to its root. */
  async projectOf(event: Pick<NativeEvent, "cwd">): Promise<string | undefined> {
    if (this.options.explicitDirs) return undefined;
    const cwd = typeof event.cwd === "string" && event.cwd.startsWith("/") ? event.cwd : undefined;
    return cwd === undefined ? undefined : findProjectRoot(this.options.fs, cwd, this.options.home);
  }

  async forEvent(event: Pick<NativeEvent, "cwd">): Promise<ProjectHookSet> {
    return this.forProject(await this.projectOf(event));
  }

  async forProject(project: string | undefined): Promise<ProjectHookSet> {
    const registry = await this.registry(project);
    return { project, snapshot: await registry.fresh() };
  }

  /**
   * A project's hook set if it is loaded, without loading it or counting it as used: the trigger
   * runner looks at what the daemon serves, and must not keep a project loaded by looking.
   */
  async ifLoaded(project: string | undefined): Promise<ProjectHookSet | undefined> {
    const registry = this.loaded.get(project ?? "");
    if (!registry) return undefined;
    return { project, snapshot: await (await registry).fresh() };
  }

  /** The operator file as every project's hook set sees it now (re-read when it changed). */
  operatorView(): Promise<OperatorView> {
    return this.options.operator.read();
  }

  /** False under `--hooks DIR`: every event then gets the same set, which names no project. */
  servesProjects(): boolean {
    return this.options.explicitDirs === undefined;
  }

  /** The projects loaded now, most recently used last. */
  projects(): (string | undefined)[] {
    return [...this.loaded.keys()].map((key) => (key === "" ? undefined : key));
  }

  /** Reload every loaded project now (SIGHUP). */
  async reloadAll(): Promise<void> {
    await Promise.all([...this.loaded.values()].map(async (registry) => (await registry).reload()));
  }

  private registry(project: string | undefined): Promise<Registry> {
    const key = project ?? "";
    let registry = this.loaded.get(key);
    if (registry) {
      // Most recently used last: Map keeps insertion order.
      this.loaded.delete(key);
    } else {
      registry = this.load(project);
      registry.catch(() => this.loaded.delete(key));
    }
    this.loaded.set(key, registry);
    while (this.loaded.size > this.options.maxProjects) this.loaded.delete(this.loaded.keys().next().value as string);
    return registry;
  }

  private async load(project: string | undefined): Promise<Registry> {
    const deps = { fs: this.options.fs, capabilities: this.options.capabilities };
    const onReload = (report: ReloadReport): void => this.options.onReload?.(project, report);
    const cache = this.options.snapshots;
    if (!cache) return Registry.load(() => this.inputs(project), deps, onReload);
    // A cache that cannot be read or written is a miss: the load itself decides, as without one.
    const seed = await cache.lookup(project, this.options.capabilities, this.options.embedded).catch(() => undefined);
    let loaded: SeededLoad | undefined;
    const registry = await Registry.load(() => this.inputs(project), deps, onReload, seed ? { seed } : { loaded: (load) => (loaded = load) });
    if (loaded) await cache.save(project, loaded).catch(() => undefined);
    return registry;
  }

  private async inputs(project: string | undefined): Promise<RegistryInputs> {
    const view = await this.options.operator.read();
    const base = { operatorFile: view.file, embedded: this.options.embedded, operatorStatus: view.status, watched: view.watched };
    // An operator file that cannot be used loads nothing: every event is denied before any hook could run.
    if (view.status.state === "unusable") return { ...base, sources: [], operator: { ...view.operator, builtin: [] } };
    const sources = this.sources(project, view.operator.hooks_dirs, view.file, view.layers?.systemHooksDirs ?? []);
    if (project === undefined || !sources.some((source) => source.origin === "project")) return { ...base, sources, operator: view.operator };
    // Trusting the project (hookbox trust) writes this record: a change to it is a change to the set.
    const trustFile = await trustRecordPath(this.options.dataDir ?? `${this.options.home}/.local/share/hookbox`, project);
    const record = parseTrustRecord(await this.options.fs.readText(trustFile).catch(() => undefined), project);
    return { ...base, watched: [...(view.watched ?? []), trustFile], sources, operator: view.operator, trust: { project, record } };
  }

  private sources(
    project: string | undefined,
    hooksDirs: readonly string[],
    operatorFile: string | undefined,
    systemDirs: readonly string[],
  ): HookSource[] {
    return [...this.usualSources(project, hooksDirs, operatorFile, systemDirs), ...(this.options.extraSources ?? [])];
  }

  private usualSources(
    project: string | undefined,
    hooksDirs: readonly string[],
    operatorFile: string | undefined,
    systemDirs: readonly string[],
  ): HookSource[] {
    if (this.options.explicitDirs) return this.options.explicitDirs.map((dir) => ({ dir, origin: "dir", required: true }));
    const fromOperator = operatorHooksDirs(operatorFile, this.options.userHooksDir, hooksDirs).map((dir) => ({
      dir,
      origin: "dir" as const,
      required: true,
    }));
    // The operator's hooks come before the project's: a project hook cannot take a guard's id.
    // The system policy's come first of all: no hook of the user's can take one of theirs.
    return [
      ...fromOperator.filter((source) => systemDirs.includes(source.dir)),
      { dir: this.options.userHooksDir, origin: "user", required: false },
      ...fromOperator.filter((source) => !systemDirs.includes(source.dir)),
      ...(project !== undefined ? [{ dir: `${project}/.hookbox/hooks`, origin: "project" as const, required: false }] : []),
    ];
  }
}
