import type { CliContext } from "./context.ts";

/**
 * Write the operator file a command edited at the operator's request (import's approvals, add
 * --monitor, promote): the previous text is kept beside it first (`<file>.hookbox-backup-<time>`),
 * then the new one replaces it atomically with the same mode (0600 for a new file, in a 0700
 * directory). Returns the backup's path, if there was a file to back up.
 */
export async function writeOperatorFile(ctx: CliContext, file: string, text: string): Promise<string | undefined> {
  const fs = ctx.host.fs;
  const existing = (await fs.kind(file)) === "file" ? await fs.readText(file) : undefined;
  await fs.mkdirp(file.slice(0, file.lastIndexOf("/")), 0o700);
  let backup: string | undefined;
  if (existing !== undefined) {
    backup = `${file}.hookbox-backup-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await fs.writeTextAtomic(backup, existing, 0o600);
  }
  await fs.writeTextAtomic(file, text, (await fs.mode(file)) ?? 0o600);
  return backup;
}

/** The operator file's text, or undefined when there is none yet. */
export async function readOperatorText(ctx: CliContext, file: string): Promise<string | undefined> {
  return (await ctx.host.fs.kind(file)) === "file" ? ctx.host.fs.readText(file) : undefined;
}
