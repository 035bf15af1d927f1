import { HookboxError } from "../../core/errors.ts";
import { dirname } from "../../core/text/posix-path.ts";
import { MANAGED_SETTINGS, type ManagedOptions } from "../../agents/managed.ts";
import type { InstallAgent } from "../../agents/installers.ts";
import { defaultSystemPolicyText } from "../../hooks/config/default-operator-file.ts";
import { systemTierPaths, type SystemTierPaths } from "../../hooks/config/system-tier.ts";
import type { RuntimeHost } from "../../platform/index.ts";
import type { RecordedFile, SystemRecord } from "./record.ts";

/** One file `install --system` or `uninstall --system` changes. */
export interface Change {
  readonly path: string;
  readonly what: string;
  readonly agent?: InstallAgent;
  /** What is there now (undefined: nothing). */
  readonly before: Uint8Array | undefined;
  /** What goes there (undefined: the file goes). */
  readonly after: Uint8Array | undefined;
  readonly mode: number;
  /** Shown as its size and digest, not as a diff. */
  readonly binary: boolean;
  readonly summary: readonly string[];
  /** Settings besides the hooks Hookbox set (managed settings). */
  readonly added: readonly string[];
}

export interface InstallChoices {
  readonly root: string;
  /** The binary to install (default: this one). */
  readonly binary: string;
  readonly agents: readonly InstallAgent[];
  readonly managedHooksOnly: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const POLICY_WHAT = "the system policy";
export const BINARY_WHAT = "the hookbox binary (root's, on the default PATH)";

/** Every file the system tier consists of, as it would be after `install --system` (unchanged ones included, with no change). */
export async function planSystemInstall(host: RuntimeHost, choices: InstallChoices, previous: SystemRecord | undefined): Promise<Change[]> {
  const paths = systemTierPaths(choices.root);
  const changes: Change[] = [];
  const binary = await host.fs.readBytes(choices.binary);
  changes.push({
    path: paths.binary,
    what: BINARY_WHAT,
    before: await readOrUndefined(host, paths.binary),
    after: binary,
    mode: 0o755,
    binary: true,
    summary: [],
    added: [],
  });
  const policy = await readOrUndefined(host, paths.policyFile);
  changes.push({
    path: paths.policyFile,
    what: POLICY_WHAT,
    before: policy,
    // An existing policy is the administrator's: kept as it is.
    after: policy ?? encoder.encode(defaultSystemPolicyText()),
    mode: 0o644,
    binary: false,
    summary: policy ? ["= kept as it is (root's)"] : ["+ the standard guards, fail_closed"],
    added: [],
  });
  for (const agent of choices.agents) {
    const managed = MANAGED_SETTINGS[agent];
    if (!managed) continue;
    const file = managed.path(paths.root);
    const existing = await readOrUndefined(host, file);
    const plan = managed.planInstall(
      existing === undefined ? undefined : decoder.decode(existing),
      managedOptions(paths, file, choices.managedHooksOnly),
    );
    const already = previous?.files.find((entry) => entry.path === file)?.added ?? [];
    changes.push({
      path: file,
      what: managed.label,
      agent,
      before: existing,
      after: encoder.encode(plan.text),
      mode: (await host.fs.mode(file)) ?? 0o644,
      binary: false,
      summary: plan.summary,
      added: [...new Set([...already, ...plan.added])],
    });
  }
  return changes;
}

export function managedOptions(paths: SystemTierPaths, file: string, managedHooksOnly: boolean): ManagedOptions {
  return { hookboxCommand: paths.binary, root: paths.root, file, managedHooksOnly, policyDir: paths.policyDir };
}

/**
 * What `uninstall --system` does to each file the record names: a file as Hookbox left it goes
 * back to what it was, byte for byte (or goes, when Hookbox created it); a managed settings file
 * changed since loses Hookbox's entries only; the binary and the policy, changed since, are kept
 * and named. Without a record, Hookbox's entries come out of every agent's managed settings.
 */
export async function planSystemUninstall(
  host: RuntimeHost,
  root: string,
  record: SystemRecord | undefined,
  backups: (entry: RecordedFile) => Promise<Uint8Array>,
): Promise<{ changes: Change[]; kept: string[] }> {
  const paths = systemTierPaths(root);
  const changes: Change[] = [];
  const kept: string[] = [];
  const entries = record?.files ?? [];
  for (const entry of entries) {
    const current = await readOrUndefined(host, entry.path);
    const mode = (await host.fs.mode(entry.path)) ?? entry.after.mode;
    const untouched = current !== undefined && (await host.digest.sha256Hex(current)) === entry.after.sha256;
    if (untouched || current === undefined) {
      const original = entry.before ? await backups(entry) : undefined;
      if (current === undefined && original === undefined) continue;
      changes.push({
        path: entry.path,
        what: entry.what,
        ...(entry.agent ? { agent: entry.agent as InstallAgent } : {}),
        before: current,
        after: original,
        mode: entry.before?.mode ?? mode,
        binary: entry.what === BINARY_WHAT,
        summary: [original === undefined ? "- removed (install --system created it)" : "~ restored as it was before install --system"],
        added: [],
      });
      continue;
    }
    const managed = entry.agent ? MANAGED_SETTINGS[entry.agent as InstallAgent] : undefined;
    if (!managed) {
      kept.push(`${entry.path} (${entry.what}) changed since install --system: kept as it is; remove it yourself if it should go`);
      continue;
    }
    const plan = managed.planUninstall(decoder.decode(current), managedOptions(paths, entry.path, false), entry.added);
    if (!plan.changed) continue;
    changes.push({
      path: entry.path,
      what: entry.what,
      agent: entry.agent as InstallAgent,
      before: current,
      after: plan.removesFile ? undefined : encoder.encode(plan.text),
      mode,
      binary: false,
      summary: [...plan.summary, "(changed since install --system: Hookbox's entries taken out, the rest kept)"],
      added: [],
    });
  }
  if (!record) {
    for (const [agent, managed] of Object.entries(MANAGED_SETTINGS)) {
      const file = managed.path(paths.root);
      const current = await readOrUndefined(host, file);
      if (current === undefined) continue;
      const plan = managed.planUninstall(decoder.decode(current), managedOptions(paths, file, false), []);
      if (!plan.changed) continue;
      changes.push({
        path: file,
        what: managed.label,
        agent: agent as InstallAgent,
        before: current,
        after: plan.removesFile ? undefined : encoder.encode(plan.text),
        mode: (await host.fs.mode(file)) ?? 0o644,
        binary: false,
        summary: plan.summary,
        added: [],
      });
    }
    kept.push(
      `no install record (${paths.record}): Hookbox's entries come out of the agents' managed settings; ${paths.binary} and ${paths.policyFile} are left for you to remove`,
    );
  }
  return { changes, kept };
}

/** The directories `paths` need that do not exist yet, outermost first. */
export async function missingDirectories(host: RuntimeHost, paths: readonly string[]): Promise<string[]> {
  const missing = new Set<string>();
  for (const path of paths) {
    const chain: string[] = [];
    for (let dir = dirname(path); dir !== "/" && (await host.fs.kind(dir)) === "missing"; dir = dirname(dir)) chain.unshift(dir);
    for (const dir of chain) missing.add(dir);
  }
  return [...missing].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
}

export async function readOrUndefined(host: RuntimeHost, path: string): Promise<Uint8Array | undefined> {
  const kind = await host.fs.kind(path);
  if (kind === "missing") return undefined;
  if (kind !== "file") throw new HookboxError("config_invalid", `${path} is a ${kind}, not a file: move it away first, nothing was changed`);
  return host.fs.readBytes(path);
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
