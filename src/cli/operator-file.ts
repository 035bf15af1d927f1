import { HookboxError } from "../core/errors.ts";
import { describeOperatorProblems, operatorFileSource } from "../decide/operator-source.ts";
import type { Locations } from "../hooks/config/locations.ts";
import type { OperatorFile } from "../hooks/config/schema.ts";
import type { CliContext } from "./context.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

/**
 * The operator file a command is about to act on (add, update, promote …), read as it is on disk:
 * one that cannot be used is refused with its problems, never taken for an empty one.
 */
export async function usableOperator(ctx: CliContext, runtime: HookRuntimeFactory, locations: Locations): Promise<OperatorFile> {
  const view = await operatorFileSource({
    fs: ctx.host.fs,
    path: locations.operatorFile.path,
    explicit: locations.operatorFile.explicit,
    systemPolicy: locations.system,
    builtinFlags: [],
    embeddedIds: [...runtime.embedded().keys()],
    keepLastGood: false,
  }).read();
  if (view.status.state !== "ok")
    throw new HookboxError(
      "config_invalid",
      `the operator file cannot be used (${describeOperatorProblems(view.status.problems)}): fix it first (hookbox validate)`,
    );
  return view.operator;
}

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
