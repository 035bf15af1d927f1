import { describe, expect, it } from "vitest";
import { GIT_HARDENING_ARGS } from "../../src/capabilities/run/git-hardening.ts";
import { isReadOnlyCommand } from "../../src/decide/replay/read-only.ts";

/** What a replay runs for real (only commands that read), and its near misses: a truth table. */
describe("isReadOnlyCommand", () => {
  it.each([
    ["/usr/bin/git", ["diff", "--name-only", "-z", "--", "a"], true],
    ["/usr/bin/git", [...GIT_HARDENING_ARGS, "status", "--porcelain=v1"], true],
    ["/usr/bin/git", ["clean", "--dry-run", "-d", "--", "x"], true],
    ["/usr/bin/git", ["clean", "-nd"], true],
    ["/usr/bin/git", ["config", "--list", "--null"], true],
    ["/usr/bin/git", ["branch"], true],
    ["/usr/bin/cat", ["a.txt"], true],
    ["/usr/bin/grep", ["-F", "x", "a"], true],
    ["/bin/ls", ["-la"], true],
    // near misses: each writes, runs a program, or never ends
    ["/usr/bin/git", ["clean", "-fd"], false],
    ["/usr/bin/git", ["diff", "--output=/tmp/x"], false],
    ["/usr/bin/git", ["grep", "-O", "x"], false],
    ["/usr/bin/git", ["config", "user.name", "x"], false],
    ["/usr/bin/git", ["branch", "-D", "main"], false],
    ["/usr/bin/git", ["push", "--force"], false],
    ["/usr/bin/git", ["checkout", "--", "."], false],
    ["/usr/bin/git", [], false],
    ["/usr/bin/rg", ["--pre", "sh", "x"], false],
    ["/usr/bin/tail", ["-f", "log"], false],
    ["/usr/bin/touch", ["x"], false],
    ["/usr/bin/npm", ["test"], false],
    ["/usr/bin/find", [".", "-delete"], false],
    ["/usr/bin/sort", ["-o", "x", "y"], false],
    ["/tmp/cat-like/git-wrapper", ["diff"], false],
  ])("%s %j → %s", (program, args, expected) => {
    expect(isReadOnlyCommand(program, args)).toBe(expected);
  });
});
