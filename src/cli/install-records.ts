import { sha256Hex } from "../../sandbox/index.ts";
import { isInstallAgent } from "../agents/installers.ts";
import { parseRecord, recordPath, type InstallRecordV1 } from "../agents/shared/install/record.ts";
import type { RuntimeHost } from "../platform/index.ts";

/**
 * Hookbox's install records, in <data dir>/installs/ (0600 files in a 0700 directory): what each
 * command that changed the account outside Hookbox's own directories did, so `self-uninstall`
 * undoes exactly that. Three kinds:
 * - an agent's settings file install-agent wrote (InstallRecordV1, src/agents/shared/install/record.ts), one per file;
 * - a file Hookbox created for the user (`created_file`: the operator file install-agent creates
 *   with the default guards), one per file, named like the agent records;
 * - self-install's binaries and shell-profile lines (`self-install.json`).
 */
type RecordHost = Pick<RuntimeHost, "fs">;

/** A file Hookbox created where the user keeps their own (the operator file): `self-uninstall --purge` removes it while it still holds what was written. */
export interface CreatedFileRecordV1 {
  readonly v: 1;
  readonly kind: "created_file";
  readonly file: string;
  /** What it is, for self-uninstall's list: "the operator file (default guards)". */
  readonly what: string;
  /** SHA-256 of the text written: a file changed since is the user's, and stays. */
  readonly after_sha256: string;
  /** Directories created for it, outermost first: removed again when empty. */
  readonly created_dirs: readonly string[];
  readonly created_at: string;
}

export interface SelfInstalledBinary {
  readonly path: string;
  /** Directories self-install created for it, outermost first (~/.local, ~/.local/bin): removed again when empty. */
  readonly created_dirs: readonly string[];
  readonly installed_at: string;
}

export interface ProfileLineRecord {
  readonly file: string;
  readonly line: string;
  /** self-install created the file: it goes when nothing else is in it. */
  readonly created_file: boolean;
  readonly created_dirs: readonly string[];
  /** The file did not end with a newline: self-install added one before its line. */
  readonly added_newline: boolean;
}

export interface SelfInstallRecordV1 {
  readonly v: 1;
  readonly kind: "self_install";
  readonly binaries: readonly SelfInstalledBinary[];
  readonly profile_lines: readonly ProfileLineRecord[];
}

export const EMPTY_SELF_RECORD: SelfInstallRecordV1 = { v: 1, kind: "self_install", binaries: [], profile_lines: [] };

export function selfRecordPath(dataDir: string): string {
  return `${dataDir}/installs/self-install.json`;
}

async function readJson(host: RecordHost, path: string): Promise<unknown> {
  try {
    return JSON.parse(await host.fs.readText(path)) as unknown;
  } catch {
    return undefined;
  }
}

async function writeJson(host: RecordHost, dataDir: string, path: string, value: unknown): Promise<void> {
  await host.fs.mkdirp(`${dataDir}/installs`, 0o700, true);
  await host.fs.writeTextAtomic(path, `${JSON.stringify(value, null, 2)}\n`, 0o600);
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/** self-install's record; an empty one when there is none or it is damaged (then self-uninstall finds less, never more). */
export async function readSelfRecord(host: RecordHost, dataDir: string): Promise<SelfInstallRecordV1> {
  const value = (await readJson(host, selfRecordPath(dataDir))) as Partial<SelfInstallRecordV1> | undefined;
  if (value?.v !== 1 || value.kind !== "self_install") return EMPTY_SELF_RECORD;
  const binaries = (Array.isArray(value.binaries) ? value.binaries : []).filter(
    (entry) => typeof entry?.path === "string" && strings(entry.created_dirs),
  );
  const lines = (Array.isArray(value.profile_lines) ? value.profile_lines : []).filter(
    (entry) => typeof entry?.file === "string" && typeof entry.line === "string" && strings(entry.created_dirs),
  );
  return { ...EMPTY_SELF_RECORD, binaries, profile_lines: lines };
}

export async function writeSelfRecord(host: RecordHost, dataDir: string, record: SelfInstallRecordV1): Promise<void> {
  await writeJson(host, dataDir, selfRecordPath(dataDir), record);
}

/** Record that Hookbox created `file` with `text` (call it after writing the file). */
export async function recordCreatedFile(
  host: RecordHost,
  dataDir: string,
  created: { readonly file: string; readonly what: string; readonly text: string; readonly createdDirs: readonly string[] },
): Promise<void> {
  const record: CreatedFileRecordV1 = {
    v: 1,
    kind: "created_file",
    file: created.file,
    what: created.what,
    after_sha256: await sha256Hex(created.text),
    created_dirs: created.createdDirs,
    created_at: new Date().toISOString(),
  };
  await writeJson(host, dataDir, await recordPath(dataDir, created.file), record);
}

function parseCreatedFile(value: unknown): CreatedFileRecordV1 | undefined {
  const record = value as Partial<CreatedFileRecordV1> | undefined;
  return record?.v === 1 &&
    record.kind === "created_file" &&
    typeof record.file === "string" &&
    typeof record.after_sha256 === "string" &&
    strings(record.created_dirs)
    ? (record as CreatedFileRecordV1)
    : undefined;
}

/** Every record in <data dir>/installs, by kind, with the file each was read from. Damaged ones are skipped. */
export async function readInstallRecords(
  host: RecordHost,
  dataDir: string,
): Promise<{
  readonly agents: readonly { readonly path: string; readonly record: InstallRecordV1 }[];
  readonly created: readonly { readonly path: string; readonly record: CreatedFileRecordV1 }[];
}> {
  const dir = `${dataDir}/installs`;
  const entries = await host.fs.listDir(dir).catch(() => []);
  const agents: { path: string; record: InstallRecordV1 }[] = [];
  const created: { path: string; record: CreatedFileRecordV1 }[] = [];
  for (const entry of entries) {
    if (!/^[0-9a-f]{32}\.json$/.test(entry.name)) continue;
    const path = `${dir}/${entry.name}`;
    const value = await readJson(host, path);
    const file = (value as { file?: unknown } | undefined)?.file;
    if (typeof file !== "string") continue;
    const agent = parseRecord(JSON.stringify(value), file);
    if (agent !== undefined && isInstallAgent(agent.agent)) agents.push({ path, record: agent });
    const createdFile = parseCreatedFile(value);
    if (createdFile !== undefined) created.push({ path, record: createdFile });
  }
  return { agents, created };
}
