import type { Diagnostic } from "../config/diagnostic.ts";
import type { HookOrigin } from "../../core/origin.ts";
import type { OperatorFile } from "../config/schema.ts";
import type { NativeEvent } from "../../core/events/types.ts";
import { isBroken, type BrokenHook } from "./broken-entry.ts";
import type { LoadDeps, LoadedHook, LoadInputs, LoadResult } from "./load.ts";

/** What the registry holds per hook: a hook ready to run, or one that did not load (and fails where it would have run). */
export type RegistryEntry = LoadedHook | BrokenHook;

export { isBroken, type BrokenHook } from "./broken-entry.ts";

/**
 * Whose a hook is decides the order hooks run in before any author's `priority` does: the
 * operator's own and the standard hooks first, then installed packages, then the project's
 * (which arrive with a `git clone`). An author orders hooks within their tier only; a priority
 * the operator file pins places the hook among the operator's own.
 */
const TIER: Readonly<Record<HookOrigin, number>> = { builtin: 0, user: 0, dir: 0, package: 1, project: 2 };

export function entryId(entry: RegistryEntry): string {
  return isBroken(entry) ? entry.id : entry.definition.id;
}

export function entryOnError(entry: RegistryEntry): "continue" | "deny" {
  return isBroken(entry) ? entry.onError : entry.definition.onError;
}

function entryOrder(entry: RegistryEntry): [number, number, string] {
  if (isBroken(entry)) return [TIER[entry.origin], entry.priority, entry.id];
  return [entry.definition.priorityPinned ? 0 : TIER[entry.definition.source.origin], entry.definition.priority, entry.definition.id];
}

function compareEntries(a: RegistryEntry, b: RegistryEntry): number {
  const [ta, pa, ia] = entryOrder(a);
  const [tb, pb, ib] = entryOrder(b);
  return ta - tb || pa - pb || (ia < ib ? -1 : ia > ib ? 1 : 0);
}

/** The operator file behind a snapshot: in force, replaced by its last good version, or unusable (no hook set can be trusted). */
export type OperatorStatus =
  | { readonly state: "ok" }
  | { readonly state: "last-good"; readonly problems: readonly Diagnostic[] }
  | { readonly state: "unusable"; readonly problems: readonly Diagnostic[] };

/**
 * An immutable view of the loaded hooks. An event is dispatched against the snapshot that was
 * current when it arrived, so a reload can never show it half the old hooks and half the new.
 */
export class RegistrySnapshot {
  private readonly byEvent = new Map<string, RegistryEntry[]>();
  /** Broken entries whose events cannot be read: registered for every event. */
  private readonly everywhere: BrokenHook[] = [];
  private readonly byId = new Map<string, LoadedHook>();
  readonly broken: readonly BrokenHook[];

  constructor(
    readonly hooks: readonly LoadedHook[],
    readonly operator: OperatorFile,
    /** Problems of the load that made this snapshot. */
    readonly diagnostics: readonly Diagnostic[],
    readonly version: number,
    readonly loadedAt: string,
    broken: readonly BrokenHook[] = [],
    readonly operatorStatus: OperatorStatus = { state: "ok" },
  ) {
    this.broken = broken;
    for (const hook of hooks) {
      this.byId.set(hook.definition.id, hook);
      if (hook.definition.enabled) this.register(hook, hook.definition.events);
    }
    for (const entry of broken) {
      if (!entry.enabled) continue;
      if (entry.events === "all") this.everywhere.push(entry);
      else this.register(entry, entry.events);
    }
    for (const list of this.byEvent.values()) list.sort(compareEntries);
  }

  private register(entry: RegistryEntry, events: readonly string[]): void {
    for (const event of events) {
      const list = this.byEvent.get(event) ?? [];
      list.push(entry);
      this.byEvent.set(event, list);
    }
  }

  get(id: string): LoadedHook | undefined {
    return this.byId.get(id);
  }

  /** Enabled entries registered for this event type (broken ones included), in run order. */
  registeredFor(eventType: string): readonly RegistryEntry[] {
    const listed = this.byEvent.get(eventType) ?? [];
    return this.everywhere.length === 0 ? listed : [...listed, ...this.everywhere].sort(compareEntries);
  }

  /** Every enabled entry, once, in run order: the hooks that could have run for an event whose type is not known. */
  allEntries(): readonly RegistryEntry[] {
    const all = new Set<RegistryEntry>(this.everywhere);
    for (const list of this.byEvent.values()) for (const entry of list) all.add(entry);
    return [...all].sort(compareEntries);
  }

  /** Enabled entries whose matcher accepts this event, in run order. A broken entry without a readable matcher matches. */
  match(event: NativeEvent): RegistryEntry[] {
    return this.registeredFor(event.event_type).filter((entry) =>
      isBroken(entry) ? (entry.matcher?.matches(event) ?? true) : entry.matcher.matches(event),
    );
  }

  eventTypes(): string[] {
    return [...this.byEvent.keys()].sort();
  }

  /** Whether every hook loaded and the operator file is in force. */
  healthy(): boolean {
    return this.broken.length === 0 && this.operatorStatus.state === "ok";
  }
}

export interface ReloadReport {
  readonly version: number;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  /** Hooks broken in the new snapshot (they fail by their on_error until fixed). */
  readonly broken: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The inputs of a load, and how the operator file stood when they were read. */
export interface RegistryInputs extends LoadInputs {
  readonly operatorStatus?: OperatorStatus;
  /** Files the inputs themselves came from (the operator file): a change to them is a change to the set. */
  readonly watched?: readonly string[];
}

/**
 * Owns the current snapshot. Reloads build a complete new snapshot off to the side and swap it
 * in with one assignment. `fresh()` checks, cheaply, that nothing the snapshot was built from
 * changed (file stamps), and reloads first when something did: an event is never answered by a
 * hook set older than the files on disk.
 */
export class Registry {
  private snapshot: RegistrySnapshot;
  private reloading: Promise<ReloadReport> | undefined;
  private reloadAgain = false;
  private stamps: ReadonlyMap<string, string> = new Map();

  private constructor(
    snapshot: RegistrySnapshot,
    private readonly readInputs: () => Promise<RegistryInputs>,
    private readonly deps: LoadDeps,
    private readonly onReload: (report: ReloadReport) => void,
  ) {
    this.snapshot = snapshot;
  }

  static async load(
    readInputs: () => Promise<RegistryInputs>,
    deps: LoadDeps,
    onReload: (report: ReloadReport) => void = () => undefined,
    first: FirstLoad = {},
  ): Promise<Registry> {
    const { snapshot, stamps } = await build(readInputs, deps, 1, [], first);
    const registry = new Registry(snapshot, readInputs, deps, onReload);
    registry.stamps = stamps;
    return registry;
  }

  current(): RegistrySnapshot {
    return this.snapshot;
  }

  /** The current snapshot, reloaded first if any file it was built from changed since. */
  async fresh(): Promise<RegistrySnapshot> {
    if (this.reloading || (await this.changed())) await this.reload();
    return this.snapshot;
  }

  /** Reload now; concurrent calls coalesce (one more reload runs after the one in progress). */
  reload(): Promise<ReloadReport> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = this.reloadOnce().finally(() => {
      this.reloading = undefined;
      if (this.reloadAgain) {
        this.reloadAgain = false;
        void this.reload();
      }
    });
    return this.reloading;
  }

  private async changed(): Promise<boolean> {
    const stamp = this.deps.fs.stamp?.bind(this.deps.fs);
    if (!stamp) return false;
    // Every event asks: all stamps at once, so the check costs one round trip through the
    // runtime's file-system threads rather than one per file.
    const seen = [...this.stamps];
    const now = await Promise.all(seen.map(([path]) => stamp(path)));
    return seen.some(([, stamped], index) => now[index] !== stamped);
  }

  private async reloadOnce(): Promise<ReloadReport> {
    const previous = this.snapshot;
    const { snapshot: next, stamps } = await build(this.readInputs, this.deps, previous.version + 1, [...this.stamps.keys()]);
    const before = new Map(previous.hooks.map((hook) => [hook.definition.id, hook]));
    const after = new Set(next.hooks.map((hook) => hook.definition.id));
    const report: ReloadReport = {
      version: next.version,
      added: next.hooks.filter((h) => !before.has(h.definition.id)).map((h) => h.definition.id),
      removed: previous.hooks.filter((h) => !after.has(h.definition.id)).map((h) => h.definition.id),
      changed: next.hooks
        .filter((h) => before.has(h.definition.id) && before.get(h.definition.id)?.spec?.handler.codeHash !== h.spec?.handler.codeHash)
        .map((h) => h.definition.id),
      broken: next.broken.map((b) => b.id),
      diagnostics: next.diagnostics,
    };
    this.snapshot = next;
    this.stamps = stamps;
    this.onReload(report);
    return report;
  }
}

/** How the first load goes: from a load made elsewhere (the snapshot cache), and who is told what it loaded. */
export interface FirstLoad {
  readonly seed?: { readonly inputs: RegistryInputs; readonly result: LoadResult };
  readonly loaded?: (load: { readonly inputs: RegistryInputs; readonly result: LoadResult }) => void;
}

async function build(
  readInputs: () => Promise<RegistryInputs>,
  deps: LoadDeps,
  version: number,
  known: readonly string[],
  first: FirstLoad = {},
): Promise<{ snapshot: RegistrySnapshot; stamps: ReadonlyMap<string, string> }> {
  const stamp = deps.fs.stamp?.bind(deps.fs);
  // Files known from the last load are stamped before this one reads them: one changed while it
  // loads still differs from its stamp at the next check. New files can only be stamped after.
  const before = new Map<string, string>(stamp ? await Promise.all(known.map(async (path) => [path, await stamp(path)] as const)) : []);
  const inputs = first.seed?.inputs ?? (await readInputs());
  // The loader (YAML, schemas, the transpiler) is loaded only when a load really reads files.
  const result = first.seed?.result ?? (await (await import("./load.ts")).loadHooks(inputs, deps));
  if (!first.seed) first.loaded?.({ inputs, result });
  const stamps = new Map<string, string>();
  if (stamp) {
    const paths = [...new Set([...(inputs.watched ?? []), ...result.inputs])];
    const tokens = await Promise.all(paths.map((path) => before.get(path) ?? stamp(path)));
    paths.forEach((path, index) => stamps.set(path, tokens[index] as string));
  }
  const snapshot = new RegistrySnapshot(
    result.hooks,
    result.operator,
    result.diagnostics,
    version,
    new Date().toISOString(),
    result.broken,
    inputs.operatorStatus,
  );
  return { snapshot, stamps };
}

export function isLoaded(entry: RegistryEntry): entry is LoadedHook {
  return !isBroken(entry);
}
