import { grantKeys } from "../../capabilities/grants/keys.ts";
import type { CapabilityHost } from "../../capabilities/types.ts";
import { permissionsSchema } from "../../capabilities/grants/schema.ts";
import type { BundleSourceConfig, OperatorFile } from "../config/schema.ts";
import { errorMessage } from "../../core/errors.ts";
import type { CapabilityIO, FileHost, PackageIO } from "../../platform/index.ts";
import { bundleNameMismatch, MAX_BUNDLE_BYTES, parseBundleFileName, unpackBundle } from "./bundle.ts";
import { fetchUrl } from "./fetch.ts";
import { inspectPackage } from "./inspect.ts";
import { installPackage, readLock } from "./install.ts";
import { parsePublicKey, verifyMinisign, type PublicKey } from "./minisign.ts";
import { hex, sha256 } from "./tree.ts";
import { compareVersions } from "./version.ts";

/**
 * Fleets on infrastructure a team already has (OPA's bundle-service model, with no Hookbox
 * server): the operator file names bundle sources — a directory, or an https URL serving
 * index.json beside the bundles — and the daemon polls them (conditional requests, ETag),
 * verifies each bundle's signature, and installs or updates only what the source's consent
 * policy (`accept`) allows. A bundle asking for more is reported, never installed: a widening
 * needs a person (hookbox update). It manages only the packages it installed itself.
 */

export interface FleetDeps {
  readonly fs: FileHost;
  readonly io: CapabilityIO;
  readonly packageIO: PackageIO;
  readonly capabilities: CapabilityHost;
  /** The operator file in force now (re-read each tick: sources can change while the daemon runs). */
  readonly operator: () => Promise<OperatorFile>;
  readonly hooksDir: string;
  /** Where the last poll of each source is reported (JSON, for people and tests). */
  readonly statusFile: string;
  readonly log: (line: string) => void;
}

interface Listed {
  readonly file: string;
  readonly id: string;
  readonly version: string;
}

interface SourceState {
  dueAt: number;
  etag?: string;
  listed: readonly Listed[];
  /** The last refusal of each bundle (its bytes, signature and reason): logged once, not at every poll. */
  readonly refused: Map<string, string>;
  report?: SourceReport;
}

export interface SourceReport {
  readonly source: string;
  readonly polled_at: string;
  readonly bundles: number;
  readonly installed: readonly string[];
  readonly refused: readonly { readonly file: string; readonly reason: string }[];
  readonly error?: string;
}

const TICK_MS = 1000;

export function sourceName(source: BundleSourceConfig): string {
  return source.url ?? (source.dir as string);
}

export class FleetPoller {
  private readonly states = new Map<string, SourceState>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: FleetDeps) {}

  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      const running = this.pollDue().then(
        () => undefined,
        (error: unknown) => this.deps.log(`bundle sources: ${errorMessage(error)}`),
      );
      this.running = running;
      void running.finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, TICK_MS);
      });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Poll every source whose interval is up (all of them with `force`). */
  async pollDue(force = false): Promise<SourceReport[]> {
    const operator = await this.deps.operator();
    const reports: SourceReport[] = [];
    for (const source of operator.packages.sources) {
      const name = sourceName(source);
      const state: SourceState = this.states.get(name) ?? { dueAt: 0, listed: [], refused: new Map() };
      this.states.set(name, state);
      if (!force && Date.now() < state.dueAt) continue;
      state.dueAt = Date.now() + source.poll_seconds * 1000;
      state.report = await this.pollSource(source, state, operator);
      reports.push(state.report);
    }
    if (reports.length > 0) await this.writeStatus();
    return reports;
  }

  private async pollSource(source: BundleSourceConfig, state: SourceState, operator: OperatorFile): Promise<SourceReport> {
    const name = sourceName(source);
    const report = {
      source: name,
      polled_at: new Date().toISOString(),
      bundles: 0,
      installed: [] as string[],
      refused: [] as { file: string; reason: string }[],
    };
    try {
      state.listed = await this.list(source, state);
    } catch (error) {
      this.deps.log(`bundle source ${name}: cannot be listed: ${errorMessage(error)}`);
      return { ...report, error: errorMessage(error) };
    }
    report.bundles = state.listed.length;
    const newest = new Map<string, Listed>();
    for (const bundle of state.listed) {
      const current = newest.get(bundle.id);
      if (!current || compareVersions(bundle.version, current.version) > 0) newest.set(bundle.id, bundle);
    }
    const keys = [...source.keys, ...operator.packages.trusted_keys].map(parsePublicKey).filter((key): key is PublicKey => typeof key !== "string");
    for (const bundle of newest.values()) {
      const outcome = await this.consider(source, bundle, keys, state, operator).catch((error: unknown): { refused: string; first?: boolean } => ({
        refused: errorMessage(error),
      }));
      if (outcome === undefined) continue;
      if ("installed" in outcome) {
        report.installed.push(`${bundle.id} ${bundle.version}`);
        this.deps.log(`bundle source ${name}: ${outcome.installed} ${bundle.id} ${bundle.version} (signed by ${outcome.signer})`);
      } else {
        report.refused.push({ file: bundle.file, reason: outcome.refused });
        if (outcome.first !== false) this.deps.log(`bundle source ${name}: refused ${bundle.file}: ${outcome.refused}`);
      }
    }
    return report;
  }

  /** One bundle: undefined when there is nothing to do, else what was done or why not. */
  private async consider(
    source: BundleSourceConfig,
    bundle: Listed,
    keys: readonly PublicKey[],
    state: SourceState,
    operator: OperatorFile,
  ): Promise<{ installed: string; signer: string } | { refused: string; first?: boolean } | undefined> {
    const origin = `source:${sourceName(source)}`;
    const lock = await readLock(this.deps.fs, this.deps.hooksDir);
    const entry = Object.hasOwn(lock.packages, bundle.id) ? lock.packages[bundle.id] : undefined;
    if (entry && entry.source !== origin) return undefined; // installed by a person: theirs to update
    if (!entry) {
      const taken = operator.builtin.includes(bundle.id) ? "a standard hook the operator enabled" : await this.hookFileDeclaring(bundle.id);
      if (taken) {
        const reason = `the id ${bundle.id} is already taken by ${taken}`;
        const first = state.refused.get(bundle.file) !== `taken ${reason}`;
        state.refused.set(bundle.file, `taken ${reason}`);
        return { refused: reason, first };
      }
    }
    if (entry?.version && compareVersions(bundle.version, entry.version) <= 0) return undefined;
    const bytes = await this.read(source, bundle.file, MAX_BUNDLE_BYTES);
    if (!bytes) return { refused: "listed, but not there" };
    const signature = await this.read(source, `${bundle.file}.minisig`, 4096);
    // Every poll decides afresh (a signature published late, a wider policy, a key added count at
    // once); a refusal is logged once for the same bytes, signature and reason.
    const fingerprint = `${hex(await sha256(bytes))}:${signature ? hex(await sha256(signature)) : "unsigned"}`;
    const refuse = (reason: string) => {
      const first = state.refused.get(bundle.file) !== `${fingerprint} ${reason}`;
      state.refused.set(bundle.file, `${fingerprint} ${reason}`);
      return { refused: reason, first };
    };
    if (!signature) return refuse("it has no signature (a bundle source's bundles must be signed)");
    const verified = await verifyMinisign(bytes, new TextDecoder().decode(signature), keys, this.deps.packageIO);
    if (!verified.ok) return refuse(verified.reason);
    const unpacked = await unpackBundle(bytes, this.deps.packageIO);
    if (!unpacked.ok) return refuse(unpacked.error);
    const inspected = await inspectPackage(unpacked.tree, `${base(sourceName(source))}${bundle.file}`, operator, this.deps.capabilities).catch(
      (error: unknown) => errorMessage(error),
    );
    if (typeof inspected === "string") return refuse(inspected);
    const mismatch = bundleNameMismatch(bundle.file, inspected.id, inspected.version);
    if (mismatch) return refuse(mismatch);
    const accepted = new Set([...(entry?.grants ?? []), ...grantKeys(permissionsSchema.parse(source.accept))]);
    const beyond = inspected.grants.filter((key) => !accepted.has(key));
    if (beyond.length > 0)
      return refuse(
        `it asks for grants the source's consent policy (packages.sources accept) does not cover: ${beyond.join("; ")}. A person must accept them: hookbox update ${bundle.id} --from <the bundle>`,
      );
    await installPackage(this.deps.fs, this.deps.hooksDir, bundle.id, unpacked.tree, {
      version: inspected.version,
      source: origin,
      grants: inspected.grants,
      signer: { key_id: verified.keyId, trusted_comment: verified.trustedComment },
      onError: inspected.onError,
    });
    state.refused.delete(bundle.file);
    return { installed: entry ? "updated" : "installed", signer: verified.keyId };
  }

  /** A hook file in the hooks directory that declares this id (one of the user's own hooks), if any. */
  private async hookFileDeclaring(id: string): Promise<string | undefined> {
    const entries = await this.deps.fs.listDir(this.deps.hooksDir).catch(() => []);
    const declares = new RegExp(`^id:\\s*["']?${id}["']?\\s*(#.*)?$`, "m");
    for (const entry of entries) {
      const file =
        entry.kind === "dir"
          ? `${this.deps.hooksDir}/${entry.name}/hook.yaml`
          : /\.ya?ml$/.test(entry.name)
            ? `${this.deps.hooksDir}/${entry.name}`
            : undefined;
      const text = file === undefined ? undefined : await this.deps.fs.readText(file).catch(() => undefined);
      if (text !== undefined && declares.test(text)) return file;
    }
    return undefined;
  }

  private async list(source: BundleSourceConfig, state: SourceState): Promise<readonly Listed[]> {
    if (source.dir !== undefined) {
      const entries = await this.deps.fs.listDir(source.dir);
      return entries.flatMap((entry) => {
        const parsed = entry.kind === "file" ? parseBundleFileName(entry.name) : undefined;
        return parsed ? [{ file: entry.name, ...parsed }] : [];
      });
    }
    const fetched = await fetchUrl(this.deps.io, `${base(source.url as string)}index.json`, {
      maxBytes: 1024 * 1024,
      ...(state.etag ? { etag: state.etag } : {}),
    });
    if (fetched.status === 304) return state.listed;
    if (fetched.status === 404) throw new Error("no index.json there (hookbox pack --out <dir> --index writes it)");
    state.etag = fetched.etag;
    const index = JSON.parse(new TextDecoder().decode(fetched.body)) as { v?: unknown; bundles?: { file?: unknown }[] };
    if (index.v !== 1 || !Array.isArray(index.bundles)) throw new Error("index.json is not a version 1 index");
    return index.bundles.flatMap((bundle) => {
      const parsed = typeof bundle.file === "string" && !bundle.file.includes("/") ? parseBundleFileName(bundle.file) : undefined;
      return parsed ? [{ file: bundle.file as string, ...parsed }] : [];
    });
  }

  private async read(source: BundleSourceConfig, file: string, maxBytes: number): Promise<Uint8Array | undefined> {
    if (source.dir !== undefined) {
      const path = `${source.dir}/${file}`;
      const size = await this.deps.fs.size(path);
      if (size === undefined) return undefined;
      if (size > maxBytes) throw new Error(`${file}: more than ${maxBytes} bytes`);
      return this.deps.fs.readBytes(path);
    }
    const fetched = await fetchUrl(this.deps.io, `${base(source.url as string)}${encodeURIComponent(file)}`, { maxBytes });
    return fetched.status === 200 ? fetched.body : undefined;
  }

  private async writeStatus(): Promise<void> {
    const sources = [...this.states.values()].flatMap((state) => (state.report ? [state.report] : []));
    const dir = this.deps.statusFile.slice(0, this.deps.statusFile.lastIndexOf("/"));
    await this.deps.fs.mkdirp(dir, 0o700);
    await this.deps.fs.writeTextAtomic(this.deps.statusFile, `${JSON.stringify({ v: 1, sources }, null, 2)}\n`, 0o600);
  }
}

function base(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}
