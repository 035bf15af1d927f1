// src/hooks/registry/snapshot owns the snapshot cache of `emit` without a daemon; it must not import src/decide, a YAML parser, schema or transpiler.
// A registry load kept on disk, valid while every file it read is unchanged: a hit must not load them.
import type { Diagnostic } from "../../config/diagnostic.ts";
// src/hooks/registry/snapshot owns the snapshot cache of `emit` without a daemon: a registry load kept
// on disk, valid while every file it read is unchanged. It imports no YAML parser, schema or
// transpiler: a hit must not load them. It must not import src/decide.
import { createHandlerSpec, type CompiledHandler } from "../../../../sandbox/index.ts";
import { HOOK_API_METHODS, type CapabilityHost } from "../../../capabilities/types.ts";
import type { HookDefinition } from "../../config/resolve.ts";
import type { OperatorFile } from "../../config/schema.ts";
import type { DigestHost } from "../../../platform/index.ts";
import type { LoadedHook, LoadResult } from "../load.ts";
import { compileMatcher } from "../matcher.ts";
import type { RegistryInputs } from "../registry.ts";
import { fingerprint, unchanged, type FingerprintFiles, type InputFingerprint } from "./fingerprint.ts";
import { AuthenticatedStore, type StoreFiles } from "./store.ts";

/** A registry load as the cache keeps it: everything but what is rebuilt in memory (grants, matchers, specs). */
interface CachedLoadV1 {
  readonly v: 1;
  /** The key it was stored under, repeated inside the authenticated payload: a file renamed to another key is not that key's. */
  readonly key: string;
  readonly inputs: readonly InputFingerprint[];
  readonly operator: { readonly operator: OperatorFile; readonly file: string | null; readonly watched: readonly string[] };
  readonly hooks: readonly {
    readonly definition: HookDefinition;
    readonly file: string;
    /** Null for a hook written in YAML alone (steps and then, or a prompt). */
    readonly handler: CompiledHandler | null;
    readonly digest: string;
    /** What preparing its grants warned about (a declared command not on PATH, an llm endpoint not configured): recomputed on a hit, and a difference is a miss. */
    readonly warnings: readonly string[];
    /** A project hook the user has not trusted: it runs without grants (the trust record is an input, so trusting it is a miss). */
    readonly untrusted: { readonly project: string } | null;
  }[];
  readonly files: readonly (readonly [string, string | null])[];
  readonly loadInputs: readonly string[];
  /** The load's warnings, as reported (only grant warnings are ever cached). */
  readonly diagnostics?: readonly Diagnostic[];
}

/** A load the registry can be built from (as Registry.load builds its own). */
export interface SeededLoad {
  readonly inputs: RegistryInputs;
  readonly result: LoadResult;
}

/**
 * Everything besides the files a load reads that can change its outcome. The key names the cache
 * file; the files themselves are fingerprinted inside it.
 */
export interface SnapshotKeyMaterial {
  /** The build: its code, its standard hooks and guest library (the embedded inputs). */
  readonly build: string;
  /** The hook-set identity (operator file path, --builtin flags, --hooks directories, user hooks directory, data directory, home). */
  readonly identity: unknown;
  /** The environment variables loading reads (HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, PATH). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What the operator-file layer adds from the machine rather than from files (self-protect's locations). */
  readonly machine?: unknown;
}

/** The environment variables a load depends on: where files are found, and PATH for `run` grants. */
export const LOADER_ENV = ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "PATH"] as const;

export interface SnapshotCacheOptions {
  readonly fs: FingerprintFiles & StoreFiles;
  readonly digest: DigestHost;
  /** Where the key and the cached loads live: `<data dir>/cache`. */
  readonly dir: string;
  readonly material: SnapshotKeyMaterial;
}

/**
 * The snapshot cache of `emit` without a daemon. A cached load is used only when its file is
 * authentic (store.ts), was stored under the same key (build, identity, environment, project),
 * and every file it read still has the same content (fingerprint.ts). Grants, matchers and
 * handler specs are rebuilt from it as a fresh load would build them; anything a fresh load
 * would have warned about or broken is never cached. Whatever goes wrong reading it is a miss.
 */
export class SnapshotCache {
  private readonly store: AuthenticatedStore;

  constructor(private readonly options: SnapshotCacheOptions) {
    this.store = new AuthenticatedStore(options.fs, options.digest, options.dir);
  }

  async key(project: string | undefined): Promise<string> {
    const { build, identity, env, machine } = this.options.material;
    return this.options.digest.sha256Hex(
      JSON.stringify({
        v: 1,
        build,
        identity,
        machine: machine ?? null,
        project: project ?? null,
        env: Object.fromEntries(LOADER_ENV.map((name) => [name, env[name] ?? null])),
      }),
    );
  }

  /** The cached load of this project, rebuilt, when it is valid; undefined otherwise. */
  async lookup(project: string | undefined, capabilities: CapabilityHost, embedded: RegistryInputs["embedded"]): Promise<SeededLoad | undefined> {
    const key = await this.key(project);
    const payload = await this.store.read(fileName(key));
    if (payload === undefined) return undefined;
    let cached: CachedLoadV1;
    try {
      cached = JSON.parse(payload) as CachedLoadV1;
    } catch {
      return undefined;
    }
    if (cached.v !== 1 || cached.key !== key || !Array.isArray(cached.inputs) || !Array.isArray(cached.hooks)) return undefined;
    if (!(await unchanged(this.options.fs, this.options.digest, cached.inputs))) return undefined;
    return rebuild(cached, capabilities, embedded);
  }

  /**
   * Keep a load that went cleanly: every hook loaded, the operator file in force, and nothing to
   * warn about but what preparing grants says (which a hit recomputes: see rebuild). A standard
   * prompt hook enabled before an llm endpoint is configured warns on every load; refusing to
   * cache it would make every emit a cold one.
   */
  async save(project: string | undefined, load: SeededLoad): Promise<void> {
    const { inputs, result } = load;
    if (result.broken.length > 0 || (inputs.operatorStatus && inputs.operatorStatus.state !== "ok")) return;
    if (!result.diagnostics.every(isGrantWarning)) return;
    const key = await this.key(project);
    const paths = [...new Set([...(inputs.watched ?? []), ...result.inputs])];
    const fingerprints: InputFingerprint[] = [];
    for (const path of paths) fingerprints.push(await fingerprint(this.options.fs, this.options.digest, path));
    const cached: CachedLoadV1 = {
      v: 1,
      key,
      inputs: fingerprints,
      operator: { operator: result.operator, file: inputs.operatorFile ?? null, watched: inputs.watched ?? [] },
      hooks: result.hooks.map((hook) => ({
        definition: hook.definition,
        file: hook.file,
        handler: hook.spec?.handler ?? null,
        digest: hook.digest,
        warnings: result.diagnostics.filter((d) => d.file === hook.file).map((d) => d.message),
        untrusted: hook.review.untrusted ?? null,
      })),
      diagnostics: result.diagnostics,
      files: [...result.files].map(([file, id]) => [file, id ?? null] as const),
      loadInputs: result.inputs,
    };
    await this.store.write(fileName(key), JSON.stringify(cached));
  }
}

/** A warning from preparing a hook's grants (load.ts): recomputed by rebuild, so safe to keep. */
function isGrantWarning(diagnostic: Diagnostic): boolean {
  return diagnostic.severity === "warning" && diagnostic.field === "permissions";
}

function fileName(key: string): string {
  return `snapshot-${key.slice(0, 32)}.json`;
}

/**
 * Compiled handlers by code hash: the standard hooks' code (most of a cached load) is one string
 * per process, however many projects' hook sets a daemon holds. Bounded like the transpiler's cache.
 */
const interned = new Map<string, CompiledHandler>();
const INTERNED_ENTRIES = 512;

function intern(handler: CompiledHandler): CompiledHandler {
  const known = interned.get(handler.codeHash);
  if (known && known.code === handler.code && known.filename === handler.filename) return known;
  interned.set(handler.codeHash, handler);
  if (interned.size > INTERNED_ENTRIES) interned.delete(interned.keys().next().value as string);
  return handler;
}

/** Grants, matchers and specs, built again from the cached definitions; undefined (a miss) if any would not build cleanly. */
async function rebuild(cached: CachedLoadV1, capabilities: CapabilityHost, embedded: RegistryInputs["embedded"]): Promise<SeededLoad | undefined> {
  const operator = cached.operator.operator;
  const hooks: LoadedHook[] = [];
  for (const { definition, file, handler, digest, untrusted, warnings } of cached.hooks) {
    if (typeof digest !== "string") return undefined;
    const prepared = await capabilities.prepare(
      { hookId: definition.id, permissions: definition.permissions, file, origin: definition.source.origin, ...(untrusted ? { untrusted } : {}) },
      operator,
    );
    if (!prepared.ok || JSON.stringify(prepared.warnings ?? []) !== JSON.stringify(warnings ?? [])) return undefined;
    const matcher = compileMatcher(definition.match);
    if (!matcher.ok) return undefined;
    if ((handler === null) !== (definition.handler === undefined)) return undefined;
    const spec = handler
      ? await createHandlerSpec({
          id: definition.id,
          handler: intern(handler),
          hostFunctions: HOOK_API_METHODS,
          hookData: { id: definition.id, config: definition.config },
          isolation: definition.isolation,
        })
      : undefined;
    hooks.push({ definition, spec, grants: prepared.grants, review: capabilities.review(prepared.grants), digest, matcher: matcher.matcher, file });
  }
  const operatorFile = cached.operator.file ?? undefined;
  return {
    inputs: { sources: [], operator, operatorFile, embedded, operatorStatus: { state: "ok" }, watched: cached.operator.watched },
    result: {
      hooks,
      broken: [],
      operator,
      diagnostics: cached.diagnostics ?? [],
      files: new Map(cached.files.map(([file, id]) => [file, id ?? undefined])),
      inputs: cached.loadInputs,
    },
  };
}
