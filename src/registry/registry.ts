import type { Diagnostic } from "../config/diagnostics.ts";
import type { OperatorFile } from "../config/schema.ts";
import type { NativeEvent } from "../events/types.ts";
import { loadHooks, type LoadDeps, type LoadedHook, type LoadInputs } from "./load.ts";

/**
 * An immutable view of the loaded hooks. An event is dispatched against the snapshot that was
 * current when it arrived, so a reload can never show it half the old hooks and half the new.
 */
export class RegistrySnapshot {
  private readonly byEvent = new Map<string, LoadedHook[]>();
  private readonly byId = new Map<string, LoadedHook>();

  constructor(
    readonly hooks: readonly LoadedHook[],
    readonly operator: OperatorFile,
    /** Problems of the load that made this snapshot (hooks kept at their last good version included). */
    readonly diagnostics: readonly Diagnostic[],
    readonly version: number,
    readonly loadedAt: string,
  ) {
    for (const hook of hooks) {
      this.byId.set(hook.definition.id, hook);
      if (!hook.definition.enabled) continue;
      for (const event of hook.definition.events) {
        const list = this.byEvent.get(event) ?? [];
        list.push(hook);
        this.byEvent.set(event, list);
      }
    }
    // Deterministic order: ascending priority, ties by id.
    for (const list of this.byEvent.values()) {
      list.sort((a, b) => a.definition.priority - b.definition.priority || (a.definition.id < b.definition.id ? -1 : a.definition.id > b.definition.id ? 1 : 0));
    }
  }

  get(id: string): LoadedHook | undefined {
    return this.byId.get(id);
  }

  /** Enabled hooks registered for this event type, in run order. */
  registeredFor(eventType: string): readonly LoadedHook[] {
    return this.byEvent.get(eventType) ?? [];
  }

  /** Enabled hooks whose matcher accepts this event, in run order. */
  match(event: NativeEvent): LoadedHook[] {
    return this.registeredFor(event.event_type).filter((hook) => hook.matcher.matches(event));
  }

  eventTypes(): string[] {
    return [...this.byEvent.keys()].sort();
  }
}

export interface ReloadReport {
  readonly version: number;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  /** Hooks whose file is broken now: their last good version stays loaded. */
  readonly keptLastGood: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Owns the current snapshot. Reloads build a complete new snapshot off to the side and swap it
 * in with one assignment; a hook whose file became invalid keeps its last good version.
 */
export class Registry {
  private snapshot: RegistrySnapshot;
  private reloading: Promise<ReloadReport> | undefined;
  private reloadAgain = false;

  private constructor(
    snapshot: RegistrySnapshot,
    private readonly readInputs: () => Promise<LoadInputs>,
    private readonly deps: LoadDeps,
    private readonly onReload: (report: ReloadReport) => void,
  ) {
    this.snapshot = snapshot;
  }

  static async load(readInputs: () => Promise<LoadInputs>, deps: LoadDeps, onReload: (report: ReloadReport) => void = () => undefined): Promise<Registry> {
    const result = await loadHooks(await readInputs(), deps);
    return new Registry(new RegistrySnapshot(result.hooks, result.operator, result.diagnostics, 1, new Date().toISOString()), readInputs, deps, onReload);
  }

  current(): RegistrySnapshot {
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

  private async reloadOnce(): Promise<ReloadReport> {
    const previous = this.snapshot;
    const result = await loadHooks(await this.readInputs(), this.deps);
    const fresh = new Map(result.hooks.map((hook) => [hook.definition.id, hook]));
    const keptLastGood: string[] = [];
    // A hook that failed to load while its file still exists keeps its last good version. Its
    // problems are reported at the YAML or, for a handler that does not compile, at the .ts file.
    for (const old of previous.hooks) {
      if (fresh.has(old.definition.id) || !result.files.has(old.file)) continue;
      const handlerPath = old.definition.handler.kind === "file" ? old.definition.handler.path : undefined;
      if (result.diagnostics.some((d) => d.file === old.file || (handlerPath !== undefined && d.file === handlerPath))) {
        fresh.set(old.definition.id, old);
        keptLastGood.push(old.definition.id);
      }
    }
    const hooks = [...fresh.values()];
    const next = new RegistrySnapshot(hooks, result.operator, result.diagnostics, previous.version + 1, new Date().toISOString());
    const before = new Map(previous.hooks.map((hook) => [hook.definition.id, hook]));
    const report: ReloadReport = {
      version: next.version,
      added: hooks.filter((h) => !before.has(h.definition.id)).map((h) => h.definition.id),
      removed: previous.hooks.filter((h) => !fresh.has(h.definition.id)).map((h) => h.definition.id),
      changed: hooks.filter((h) => before.has(h.definition.id) && before.get(h.definition.id) !== h && !keptLastGood.includes(h.definition.id)).map((h) => h.definition.id),
      keptLastGood: [...new Set(keptLastGood)],
      diagnostics: result.diagnostics,
    };
    this.snapshot = next;
    this.onReload(report);
    return report;
  }
}
