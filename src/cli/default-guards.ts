import { DEFAULT_GUARDS, defaultOperatorFileText } from "../hooks/config/default-operator-file.ts";
import type { FileHost } from "../platform/index.ts";
import { dirname } from "../core/text/posix-path.ts";
import { recordCreatedFile } from "./install-records.ts";

/** The operator file as install-agent (or serve --default-guards) found it, and what it wrote there. */
export interface DefaultOperatorFile {
  readonly path: string;
  /** True when there was none, so the recommended one is written (with a dry run: would be). */
  readonly created: boolean;
  /** The new file's text, when created. */
  readonly text: string | undefined;
  /** The guards the new file enables; none when one was there already. */
  readonly guards: readonly string[];
}

/**
 * The recommended operator file (the standard guards on) at `path` when nothing is there; an
 * existing file — or a symlink, even a dangling one — is never touched. Private (0600, in a 0700
 * directory when it creates one): the operator may add an API key to it later.
 */
export async function ensureDefaultOperatorFile(
  fs: FileHost,
  path: string,
  writtenBy: string,
  { dryRun = false, dataDir }: { dryRun?: boolean; dataDir?: string } = {},
): Promise<DefaultOperatorFile> {
  if ((await fs.kind(path)) !== "missing") return { path, created: false, text: undefined, guards: [] };
  const text = defaultOperatorFileText(writtenBy);
  if (!dryRun) {
    const createdDirs: string[] = [];
    for (let dir = dirname(path); dir !== "/" && (await fs.kind(dir)) === "missing"; dir = dirname(dir)) createdDirs.unshift(dir);
    await fs.mkdirp(dirname(path), 0o700);
    await fs.writeTextAtomic(path, text, 0o600);
    // self-uninstall removes it again while it still holds what was written here.
    if (dataDir !== undefined)
      await recordCreatedFile({ fs }, dataDir, { file: path, what: "the operator file (default guards)", text, createdDirs });
  }
  return { path, created: true, text, guards: [...DEFAULT_GUARDS] };
}
