import { GIT_HARDENING_ARGS, GIT_HARDENING_ENV } from "../../capabilities/run/git-hardening.ts";
import { resolveCommand } from "../../capabilities/run/command.ts";
import { HookboxError } from "../../core/errors.ts";
import type { CapabilityIO } from "../../platform/index.ts";

const CLONE_TIMEOUT_MS = 120_000;

/**
 * A repository cloned the way a hook's own git is run (src/capabilities/run/git-hardening.ts):
 * no system or global configuration, no hooks (an empty template, core.hooksPath=/dev/null), no
 * fsmonitor, pager or credential helper, symlinks checked out as plain files, no submodules, and
 * only the file and https protocols (protocol.allow=never plus an allow-list, GIT_ALLOW_PROTOCOL).
 */
export async function cloneRepository(
  io: CapabilityIO,
  hostEnv: Readonly<Record<string, string | undefined>>,
  home: string,
  url: string,
  ref: string | undefined,
  into: string,
): Promise<{ commit: string }> {
  const git = await resolveCommand("git", hostEnv.PATH, io);
  if (!git.ok || git.ref.path === undefined)
    throw new HookboxError("not_found", `git is needed to add a package from a repository: ${git.ok ? "not found" : git.error}`);
  const program = git.ref.path;
  const env = {
    ...GIT_HARDENING_ENV,
    GIT_ALLOW_PROTOCOL: "file:https",
    GIT_TERMINAL_PROMPT: "0",
    GIT_LFS_SKIP_SMUDGE: "1",
    HOME: home,
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
  };
  const config = [
    ...GIT_HARDENING_ARGS,
    "-c",
    "protocol.allow=never",
    "-c",
    "protocol.file.allow=always",
    "-c",
    "protocol.https.allow=always",
    "-c",
    "core.symlinks=false",
    "-c",
    "submodule.recurse=false",
  ];
  const run = async (args: readonly string[], cwd: string) => {
    const result = await io.spawn({
      file: program,
      args: [...config, ...args],
      cwd,
      env,
      timeoutMs: CLONE_TIMEOUT_MS,
      stdout: { headBytes: 64 * 1024, tailBytes: 0 },
      stderr: { headBytes: 8 * 1024, tailBytes: 0 },
      signal: new AbortController().signal,
    });
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
    if (result.exitCode !== 0)
      throw new HookboxError(
        "not_found",
        `git ${args[0]} ${url} failed (${result.timedOut ? `no answer in ${CLONE_TIMEOUT_MS / 1000} s` : text(result.stderr.head).split("\n").slice(-1)[0] || `exit ${result.exitCode}`})`,
      );
    return text(result.stdout.head);
  };
  const parent = into.slice(0, into.lastIndexOf("/")) || "/";
  await run(
    ["clone", "--quiet", "--template=", "--no-recurse-submodules", "--depth", "1", ...(ref ? ["--branch", ref] : []), "--", url, into],
    parent,
  );
  return { commit: await run(["rev-parse", "HEAD"], into) };
}
