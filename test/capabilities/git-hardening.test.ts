import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GIT_HARDENING_ARGS, hardenedGitArgs, parseConfigList, programKey } from "../../src/capabilities/run/git-hardening.ts";
import { refusedArguments } from "../../src/capabilities/run/refused-args.ts";
import { CANARY, deniedWith, hostEnv, invoke, prepare, removeDir, tempDir, testHost } from "./helpers.ts";

/**
 * F2: the repository's configuration names programs git runs as children of the daemon. Every
 * git a hook runs is hardened by the host, and a repository configured to run programs is refused.
 */

describe("programKey: which configuration runs programs", () => {
  const rows: [string, string, RegExp | undefined][] = [
    ["core.fsmonitor", "/tmp/x.sh", /fsmonitor/],
    ["core.fsmonitor", "true", /fsmonitor/],
    ["core.fsmonitor", "false", undefined],
    ["filter.lfs.clean", "git-lfs clean -- %f", /filter driver/],
    ["filter.x.process", "sh", /filter driver/],
    ["filter.x.required", "true", /filter driver/],
    ["diff.pdf.textconv", "pdftotext", /textconv/],
    ["diff.x.command", "sh", /names a program/],
    ["diff.external", "sh", /external diff/],
    ["merge.x.driver", "sh %A", /names a program/],
    ["core.pager", "less", /names a program/],
    ["core.editor", "vim", /names a program/],
    ["core.sshCommand", "ssh -o ProxyCommand=x", /names a program/],
    ["credential.helper", "store", /names a program/],
    ["credential.https://x.helper", "store", /names a program/],
    ["gpg.program", "gpg2", /names a program/],
    ["remote.origin.vcs", "evil", /names a program/],
    ["remote.origin.uploadpack", "sh", /names a program/],
    ["include.path", "../x", /includes another/],
    ["includeIf.gitdir:/x/.path", "../x", /includes another/],
    ["alias.st", "!sh -c id", /alias/],
    ["alias.st", "status", undefined],
    ["pager.log", "sh -c id", /pager/],
    ["pager.log", "false", undefined],
    ["core.hooksPath", ".husky", undefined], // overridden by the host; husky sets it
    ["core.repositoryformatversion", "0", undefined],
    ["remote.origin.url", "https://example.com/x.git", undefined],
    ["user.email", "a@b", undefined],
    ["diff.x.binary", "true", undefined],
  ];
  it.each(rows)("%s = %s", (key, value, expected) => {
    const why = programKey(key, value);
    if (expected === undefined) expect(why).toBeUndefined();
    else expect(why).toMatch(expected);
  });

  it("git's --list --null output: key\\nvalue, NUL-terminated; a bare key is true", () => {
    expect(parseConfigList("core.bare\nfalse\0filter.x.clean\ncat a\nb\0core.x\0")).toEqual([
      ["core.bare", "false"],
      ["filter.x.clean", "cat a\nb"],
      ["core.x", "true"],
    ]);
  });
});

describe("hardenedGitArgs: the host's overrides come first, the diff flags after the subcommand", () => {
  it.each([
    [
      ["diff", "--stat"],
      [...GIT_HARDENING_ARGS, "diff", "--no-textconv", "--no-ext-diff", "--stat"],
    ],
    [
      ["log", "-1", "--", "a"],
      [...GIT_HARDENING_ARGS, "log", "--no-textconv", "--no-ext-diff", "-1", "--", "a"],
    ],
    [
      ["--no-pager", "show", "HEAD"],
      [...GIT_HARDENING_ARGS, "--no-pager", "show", "--no-textconv", "--no-ext-diff", "HEAD"],
    ],
    [
      ["grep", "-n", "x"],
      [...GIT_HARDENING_ARGS, "grep", "--no-textconv", "-n", "x"],
    ],
    [
      ["status", "--short"],
      [...GIT_HARDENING_ARGS, "status", "--short"],
    ],
    [["--version"], [...GIT_HARDENING_ARGS, "--version"]],
  ])("%j", (argv, expected) => {
    expect(hardenedGitArgs(argv)).toEqual(expected);
  });

  it("the guest cannot ask for textconv or an external diff", () => {
    expect(refusedArguments(["git"], ["diff", "--textconv"])).toMatch(/textconv/);
    expect(refusedArguments(["git"], ["log", "--ext-diff"])).toMatch(/external diff/);
    expect(refusedArguments(["git"], ["diff", "--no-textconv"])).toBeUndefined();
  });
});

describe("git through hook.run / gitDiff in a hostile repository", () => {
  let ws: string;
  const git = (...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, env: { PATH: process.env.PATH, HOME: ws } }).toString();
  const host = testHost({ env: hostEnv() });
  const grants = prepare(host, { read: ["${workspace}/**"], run: [{ cmd: "git", args: ["**"], env: [] }] });
  const api = async (name: string, ...args: unknown[]) => invoke(host, await grants, ws).api(name, ...args);
  /** A program the repository names: it leaves a mark if it ever runs. */
  const evil = (name: string): string => {
    const script = `${ws}/.git/${name}.sh`;
    writeFileSync(
      script,
      `#!/bin/sh\ncat /proc/$PPID/environ > "${ws}/.git/${name}.ran" 2>/dev/null; echo ran >> "${ws}/.git/${name}.ran"\nexit 1\n`,
      { mode: 0o755 },
    );
    return script;
  };

  beforeEach(() => {
    ws = tempDir("hookbox-githard-");
    git("init", "-q", ".");
    writeFileSync(`${ws}/a.txt`, "one\n");
    git("add", "a.txt");
    git("commit", "-qm", "init");
    writeFileSync(`${ws}/a.txt`, "two\n");
  });
  afterEach(() => removeDir(ws));

  it("permitted: a plain repository diffs, and the diff is the workspace's", async () => {
    expect(await api("gitDiff")).toMatch(/-one\n\+two/);
  });

  it("core.fsmonitor in .git/config: gitDiff is refused naming the key, and the program never runs", async () => {
    git("config", "core.fsmonitor", evil("fsmonitor"));
    const message = await deniedWith(
      api("gitDiff"),
      /the repository's configuration sets core\.fsmonitor \(core\.fsmonitor runs a program on every status and diff\); git does not run in a repository configured to run programs/,
    );
    expect(message).not.toContain(CANARY);
    expect(existsSync(`${ws}/.git/fsmonitor.ran`)).toBe(false);
  });

  it.each([
    ["filter.x.clean", "filter driver"],
    ["diff.x.textconv", "textconv"],
    ["core.pager", "names a program"],
    ["include.path", "includes another"],
  ])("%s in .git/config: hook.run git status is refused too (a plain run grant gets the same hardening)", async (key, why) => {
    const value = key === "include.path" ? `${ws}/.git/extra.cfg` : evil("prog");
    writeFileSync(`${ws}/.git/extra.cfg`, "[user]\n\tname = x\n");
    git("config", key, value);
    writeFileSync(`${ws}/.gitattributes`, "*.txt filter=x diff=x\n");
    await deniedWith(api("run", "git", ["status", "--short"]), new RegExp(`sets ${key.replace(".", "\\.")} \\(.*${why}`));
    expect(existsSync(`${ws}/.git/prog.ran`)).toBe(false);
  });

  it("repository hooks never run: .git/hooks/post-index-change, which git status would run, does not (core.hooksPath=/dev/null from the host)", async () => {
    // An unchanged tracked file whose stat changes: status then refreshes its entry and rewrites
    // the index, every time (a modified file's entry is not refreshed, so it would not).
    writeFileSync(`${ws}/b.txt`, "same\n");
    git("add", "b.txt");
    git("commit", "-qm", "b");
    mkdirSync(`${ws}/.git/hooks`, { recursive: true });
    writeFileSync(`${ws}/.git/hooks/post-index-change`, `#!/bin/sh\necho ran > "${ws}/.git/hook.ran"\n`, { mode: 0o755 });
    execFileSync("touch", ["-d", "2001-01-01", `${ws}/b.txt`]);
    const result = (await api("run", "git", ["status", "--short"])) as { exitCode: number; stdout: string };
    expect(result).toMatchObject({ exitCode: 0, stdout: " M a.txt\n" });
    expect(existsSync(`${ws}/.git/hook.ran`)).toBe(false);
    // The same status without the host's hardening runs it: the check above means something.
    execFileSync("touch", ["-d", "2002-01-01", `${ws}/b.txt`]);
    git("status", "--short");
    expect(existsSync(`${ws}/.git/hook.ran`)).toBe(true);
  });

  it("permitted neighbour: husky's core.hooksPath is allowed (the host overrides it)", async () => {
    git("config", "core.hooksPath", ".husky");
    expect(((await api("run", "git", ["status", "--short"])) as { stdout: string }).stdout).toBe(" M a.txt\n");
  });

  it("a submodule's own configuration is checked too (.git/modules/<name>/config)", async () => {
    mkdirSync(`${ws}/.git/modules/sub`, { recursive: true });
    writeFileSync(`${ws}/.git/modules/sub/config`, `[core]\n\trepositoryformatversion = 0\n[filter "x"]\n\tclean = ${evil("sub")}\n`);
    await deniedWith(api("gitDiff"), /modules\/sub\/config sets filter\.x\.clean/);
  });

  it("from a linked worktree (.git is a file): the repository's configuration is found and checked", async () => {
    const wt = `${ws}-wt`;
    try {
      git("worktree", "add", "-q", wt);
      git("config", "core.fsmonitor", evil("wt"));
      const host2 = testHost({ env: hostEnv() });
      const g = await prepare(host2, { read: ["${workspace}/**"], run: [{ cmd: "git", args: ["**"], env: [] }] });
      await deniedWith(invoke(host2, g, wt).api("gitDiff"), /sets core\.fsmonitor/);
      expect(existsSync(`${ws}/.git/wt.ran`)).toBe(false);
    } finally {
      removeDir(wt);
    }
  });

  it("outside any repository git still runs (nothing to check)", async () => {
    removeDir(`${ws}/.git`);
    const result = (await api("run", "git", ["--version"])) as { exitCode: number; stdout: string };
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^git version/);
  });
});
