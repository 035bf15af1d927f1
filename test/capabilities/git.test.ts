import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deniedWith, invoke, prepare, rejection, removeDir, tempDir, testHost } from "./helpers.ts";

let ws: string;

beforeAll(() => {
  ws = tempDir("hookbox-git-");
  execFileSync("git", ["init", "-q", ws]);
  writeFileSync(`${ws}/a.txt`, "one\n");
  writeFileSync(`${ws}/b.txt`, "b\n");
  execFileSync("git", ["-C", ws, "add", "."]);
  execFileSync("git", ["-C", ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]);
  // A branch with one commit of its own, off "base": gitDiff("base") shows what it changed since.
  execFileSync("git", ["-C", ws, "branch", "base"]);
  writeFileSync(`${ws}/c.txt`, "c\n");
  execFileSync("git", ["-C", ws, "add", "c.txt"]);
  execFileSync("git", ["-C", ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"]);
  writeFileSync(`${ws}/a.txt`, "two\n");
  writeFileSync(`${ws}/b.txt`, "bb\n");
  symlinkSync("/etc/hosts", `${ws}/hosts-link`);
});
afterAll(() => removeDir(ws));

describe("hook.gitDiff / hook.fileDiff (built on run)", () => {
  const host = testHost();
  const grants = prepare(host, { read: ["${workspace}/**"], run: [{ cmd: "git", args: ["diff", "**"], env: [] }] });
  const api = async (name: string, ...args: unknown[]) => invoke(host, await grants, ws).api(name, ...args);

  it("gitDiff() shows the unstaged changes; gitDiff(base) what the branch committed since base (base...HEAD), not the working tree", async () => {
    expect(await api("gitDiff")).toMatch(/-one\n\+two/);
    const sinceBase = (await api("gitDiff", "base")) as string;
    expect(sinceBase).toMatch(/\+\+\+ b\/c\.txt\n@@ .* @@\n\+c/);
    expect(sinceBase).not.toContain("a.txt");
    expect(await api("gitDiff", "HEAD")).toBe("");
  });

  it("fileDiff falls back to the staged change (git diff --cached) when HEAD shows nothing", async () => {
    const fresh = tempDir("hookbox-git-fresh-");
    try {
      execFileSync("git", ["init", "-q", fresh]);
      writeFileSync(`${fresh}/new.txt`, "first\n");
      execFileSync("git", ["-C", fresh, "add", "new.txt"]);
      const diff = (await invoke(host, await grants, fresh).api("fileDiff", "new.txt")) as string;
      expect(diff).toMatch(/\+first/);
    } finally {
      removeDir(fresh);
    }
  });

  it("fileDiff(path) shows one file", async () => {
    const diff = (await api("fileDiff", "a.txt")) as string;
    expect(diff).toMatch(/-one\n\+two/);
    expect(diff).not.toContain("b.txt");
  });

  it.each([["--output=/tmp/x"], ["-c"], ["HEAD;id"], ["$(id)"], [""]])("a base that is not a revision is refused: %j", async (base) => {
    const e = await rejection(api("gitDiff", base));
    expect(e).toMatchObject({ name: "TypeError", code: "invalid_argument" });
  });

  it("fileDiff needs read access: a symlink out of the workspace is refused", async () => {
    await deniedWith(api("fileDiff", "hosts-link"), /resolving to "\/etc\/hosts" through a symbolic link/);
    await deniedWith(api("fileDiff", "/etc/hosts"), /is not granted/);
  });

  it("a failing git is an error with git's own first line", async () => {
    const e = await rejection(api("gitDiff", "no-such-revision"));
    expect(e).toMatchObject({ code: "command_failed" });
    expect(e.message).toMatch(/git diff exited with 128: fatal: /);
  });

  it("without a run grant for git diff, the denial suggests one", async () => {
    const bare = testHost();
    const none = await prepare(bare, { read: ["${workspace}/**"] });
    await deniedWith(
      invoke(bare, none, ws).api("gitDiff"),
      /to allow it add to its YAML: {2}permissions: \{ run: \[\{ cmd: git, args: \["diff", "\*\*"\] \}\] \}/,
    );
  });
});
