import { sha256Hex } from "../../../../sandbox/index.ts";
import type { InstallAgent, InstallScope } from "./types.ts";

/**
 * What `install-agent` remembers about a config file it wrote, so that `uninstall-agent` can put
 * the file back exactly as it was when nothing else changed it since. Kept in the data directory
 * (<dataDir>/installs/), mode 0600: `before` is the user's own config, which may hold secrets.
 */
export interface InstallRecordV1 {
  readonly v: 1;
  readonly file: string;
  readonly agent: InstallAgent;
  readonly scope: InstallScope;
  /** The file's text without Hookbox's entries; null when install created the file. */
  readonly before: string | null;
  /** SHA-256 of the text install wrote: the file still holds it if nobody changed it since. */
  readonly after_sha256: string;
  /** Directories install created for the file, outermost first: removed again if empty. */
  readonly created_dirs: readonly string[];
  readonly installed_at: string;
}

/** One record per config file, named by a hash of its path. */
export async function recordPath(dataDir: string, file: string): Promise<string> {
  return `${dataDir}/installs/${(await sha256Hex(file)).slice(0, 32)}.json`;
}

/** A record read back; undefined when it is not one for this file (a damaged record only costs the exact restore). */
export function parseRecord(text: string | undefined, file: string): InstallRecordV1 | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<InstallRecordV1>;
    const valid =
      value.v === 1 &&
      value.file === file &&
      (value.before === null || typeof value.before === "string") &&
      typeof value.after_sha256 === "string" &&
      Array.isArray(value.created_dirs) &&
      value.created_dirs.every((dir) => typeof dir === "string");
    return valid ? (value as InstallRecordV1) : undefined;
  } catch {
    return undefined;
  }
}

/** The record, when the file still holds exactly what install wrote (then its `before` is the file without Hookbox); else undefined. */
export async function recordIfUntouched(record: InstallRecordV1 | undefined, currentText: string | undefined): Promise<InstallRecordV1 | undefined> {
  return record !== undefined && currentText !== undefined && (await sha256Hex(currentText)) === record.after_sha256 ? record : undefined;
}

export interface InstallWrite {
  readonly file: string;
  readonly agent: InstallAgent;
  readonly scope: InstallScope;
  /** The file before this install; undefined when there was none. */
  readonly existingText: string | undefined;
  /** The existing text with Hookbox's entries removed (planUninstall): what `before` is when no earlier record holds; null when without them there is no file (opencode's plugin). */
  readonly existingWithoutHookbox: string | null | undefined;
  readonly writtenText: string;
  readonly createdDirs: readonly string[];
  readonly now: Date;
}

/**
 * The record after an install wrote the file. When the file was untouched since the previous
 * install, the earlier `before` still holds (Hookbox only changed its own entries since); else
 * `before` is the file as it was, less any Hookbox entries, so a restore never brings them back.
 */
export async function nextRecord(previous: InstallRecordV1 | undefined, write: InstallWrite): Promise<InstallRecordV1> {
  const untouched = await recordIfUntouched(previous, write.existingText);
  return {
    v: 1,
    file: write.file,
    agent: write.agent,
    scope: write.scope,
    before: untouched
      ? untouched.before
      : write.existingText === undefined
        ? null
        : write.existingWithoutHookbox === undefined
          ? write.existingText
          : write.existingWithoutHookbox,
    after_sha256: await sha256Hex(write.writtenText),
    created_dirs: untouched ? untouched.created_dirs : write.createdDirs,
    installed_at: write.now.toISOString(),
  };
}
