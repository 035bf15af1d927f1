import { arity, pathArg, stringArg } from "../args.ts";
import type { CallContext, HostMethod, InvocationScope } from "../capability.ts";
import { refused, renderCall } from "../denied.ts";
import { failed, invalidArgument } from "../errors.ts";
import { relativeTo } from "../paths/posix.ts";
import { capturedText } from "./output.ts";
import { RUN_DEFAULT_TIMEOUT_MS, STDERR_MAX_BYTES } from "./run-method.ts";

/** A diff is file content: it gets readFile's default cap, not run's 50 KiB. */
export const DIFF_MAX_BYTES = 1024 * 1024;
const DIFF_ARGS = ["diff", "--no-color", "--no-ext-diff"];
/** What a denial suggests granting: hook.gitDiff and hook.fileDiff run `git diff …`. */
const SUGGEST = ["diff", "**"];

/** A revision, never an option: "--output=…" as a base would be an argument injection. */
const REVISION = /^[A-Za-z0-9_./~^@{}:+][A-Za-z0-9_./~^@{}:+-]{0,255}$/;

/** `git diff …`'s output; a failure is an error unless `tolerateFailure` (then: undefined). */
async function gitDiff(
  scope: InvocationScope,
  call: CallContext,
  shown: string,
  args: readonly string[],
  tolerateFailure = false,
): Promise<string | undefined> {
  const result = await scope.runner.run({
    call: shown,
    cmd: "git",
    args,
    timeoutMs: RUN_DEFAULT_TIMEOUT_MS,
    stdout: { headBytes: DIFF_MAX_BYTES, tailBytes: 0 },
    stderr: { headBytes: STDERR_MAX_BYTES, tailBytes: 0 },
    suggestArgs: SUGGEST,
    signal: call.signal,
  });
  if (result.timedOut) throw failed("timeout", `${shown}: git diff took longer than ${RUN_DEFAULT_TIMEOUT_MS} ms`);
  if (result.exitCode !== 0) {
    if (tolerateFailure) return undefined;
    const stderr = capturedText(result.stderr).text.trim().split("\n")[0] ?? "";
    throw failed("command_failed", `${shown}: git diff exited with ${result.exitCode ?? result.signal}${stderr ? `: ${stderr}` : ""}`);
  }
  return capturedText(result.stdout).text;
}

/**
 * hook.gitDiff(base?) → `git diff` of the workspace: with `base`, `git diff <base>...HEAD` — what
 * the current branch changed since it left base (the seed engine's git_diff: a branch's review),
 * not the working tree against base; without, the unstaged changes. Needs a run grant for it,
 * e.g. `{ cmd: git, args: ["diff", "**"] }`.
 */
export function gitDiffMethod(scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("gitDiff", args, 1);
    const base = args[0] === undefined || args[0] === null ? undefined : stringArg("gitDiff", "base", args[0], 256);
    if (base !== undefined && !REVISION.test(base)) throw invalidArgument(`hook.gitDiff: base ${JSON.stringify(base)} is not a revision name`);
    call.target = base ?? "(working tree)";
    return (
      (await gitDiff(
        scope,
        call,
        renderCall("gitDiff", base === undefined ? [] : [base]),
        base === undefined ? DIFF_ARGS : [...DIFF_ARGS, `${base}...HEAD`, "--"],
      )) ?? ""
    );
  };
}

/**
 * hook.fileDiff(path) → `git diff HEAD -- <path>`: the file's changes since the last commit; when
 * that shows nothing or cannot run (no commit yet), `git diff --cached -- <path>` (the seed
 * engine's fallback). The diff shows the file's content, so the file must be readable under the
 * read grants too.
 */
export function fileDiffMethod(scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("fileDiff", args, 1);
    const path = pathArg("fileDiff", args[0]);
    call.target = path;
    const shown = renderCall("fileDiff", [path]);
    const { real } = await scope.paths.confine(shown, path);
    const workspace = await scope.paths.workspaceRealPath();
    const relative = workspace === undefined ? undefined : relativeTo(workspace, real);
    if (relative === undefined || relative === "") throw refused(scope.hookId, shown, "fileDiff shows files inside the workspace only");
    const sinceCommit = await gitDiff(scope, call, shown, [...DIFF_ARGS, "HEAD", "--", relative], true);
    if (sinceCommit) return sinceCommit;
    return (await gitDiff(scope, call, shown, [...DIFF_ARGS, "--cached", "--", relative])) ?? "";
  };
}
