import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directoryOptions, pathReadings, specialPathArgument } from "../../src/capabilities/run/special-paths.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { CANARY, deniedWith, hostEnv, invoke, prepare, removeDir, tempDir, testHost } from "./helpers.ts";

/**
 * F1: /proc, /sys and /dev are refused on the path an argument resolves to from the command's
 * working directory, however it is spelled. A truth table of spellings, each next to a permitted
 * neighbour, against a workspace holding symlinks of every kind.
 */

const ws = tempDir("hookbox-special-");
const up = "../".repeat(ws.split("/").length - 1);
beforeAll(() => {
  mkdirSync(`${ws}/src`);
  mkdirSync(`${ws}/dev`);
  writeFileSync(`${ws}/dev/notes.md`, "x\n");
  writeFileSync(`${ws}/a.txt`, "a\n");
  symlinkSync("/proc", `${ws}/procdir`);
  symlinkSync("/etc", `${ws}/etc-link`);
  symlinkSync("/dev/null", `${ws}/null-link`);
  symlinkSync(`${ws}/procdir`, `${ws}/chain`);
  symlinkSync("/nonexistent-target-xyz", `${ws}/dangling`);
  symlinkSync("loop-b", `${ws}/loop-a`);
  symlinkSync("loop-a", `${ws}/loop-b`);
  // A symlink into a directory two levels down: "deep/.." is / for the kernel, ws for a lexical reader.
  symlinkSync("/usr/lib", `${ws}/deep`);
});
afterAll(() => removeDir(ws));

describe("specialPathArgument: resolved, not textual", () => {
  const rows: [string[], RegExp | undefined][] = [
    [["/proc/self/environ"], /resolves to \/proc\/self\/environ, in \/proc/],
    [["//proc/self/environ"], /in \/proc/],
    [["/./proc/1/environ"], /in \/proc/],
    [["/tmp/../proc/1/environ"], /in \/proc/],
    [[`${up}proc/1/environ`], /in \/proc/],
    [["procdir/1/environ"], /resolves to \/proc\/1\/environ, in \/proc/],
    [["procdir/self/environ"], /in \/proc/],
    [["chain/self/environ"], /in \/proc/],
    [["./procdir"], /in \/proc/],
    [["deep/../../proc/self/environ"], /in \/proc/], // the kernel: /usr/lib/../../proc = /proc
    [["etc-link/../proc/self/environ"], /in \/proc/],
    [["--file=procdir/self/environ"], /"procdir\/self\/environ" in it\) resolves to \/proc/],
    [["host:/sys/kernel"], /in \/sys/],
    [["a,b,/dev/sda"], /in \/dev/],
    [["@/proc/self/environ"], /in \/proc/],
    [["/dev/tcp/127.0.0.1/80"], /in \/dev/],
    [["/dev/stdin"], /in \/(dev|proc)/],
    [["dangling"], /cannot be checked: .*dangling is a symbolic link that cannot be resolved/],
    [["loop-a"], /cannot be checked/],
    [["-C", "/", "proc/self/environ"], /argument 3 "proc\/self\/environ" resolves to \/proc\/self\/environ/], // tar -C /
    [["--directory=/", "sys/kernel"], /in \/sys/],
    [["-xvC", "etc-link/..", "proc/1/environ"], /in \/proc/],
    // Permitted neighbours.
    [["/dev/null"], undefined],
    [["null-link"], undefined],
    [["a.txt", "src", "dev/notes.md", "dev"], undefined],
    [["/process/x", "/procx", "proc/self/environ"], undefined],
    [["etc-link/hosts", "/etc/hosts", "../"], undefined],
    [["--format=%H", "HEAD:a.txt", "user@host", "a=b,c"], undefined],
    [["https://example.com/proc/self/environ"], undefined],
    [["-n", "-e", "s/a/b/", "--", "-"], undefined],
    [["no-such-file/../../x"], undefined],
  ];

  it.each(rows)("%j → %s", async (argv, expected) => {
    const why = await specialPathArgument(argv, ws, nodeCapabilityIO);
    if (expected === undefined) expect(why, JSON.stringify(argv)).toBeUndefined();
    else expect(why, JSON.stringify(argv)).toMatch(expected);
  });

  it("names the argument", async () => {
    expect(await specialPathArgument(["-n", "procdir/1/environ"], ws, nodeCapabilityIO)).toMatch(
      /^argument 2 "procdir\/1\/environ" resolves to \/proc\/1\/environ, in \/proc$/,
    );
  });

  it("a lookup budget bounds what one call costs: past it the call is refused, not slowed", async () => {
    const argv = Array.from({ length: 1024 }, (_, i) => `${"x,".repeat(8)}f${i}`);
    expect(await specialPathArgument(argv, ws, nodeCapabilityIO)).toMatch(/cannot be checked: more than \d+ file system lookups/);
  });
});

describe("readings and directory options", () => {
  it("an argument is read whole and after each =, :, , and @", () => {
    expect(pathReadings("--f=a:b,c@d")).toEqual(["--f=a:b,c@d", "a:b,c@d", "b,c@d", "c@d", "d"]);
    expect(pathReadings("a=")).toEqual(["a="]);
  });

  it("-C, --directory, --chdir … name directories relative paths may be read from", () => {
    expect(directoryOptions(["-C", "/", "x", "--directory=/a", "--chdir", "/b", "-C/c", "-xvC", "/d"]).map((d) => d.dir)).toEqual([
      "/",
      "/a",
      "/b",
      "/c",
      "/d",
    ]);
  });
});

describe("hook.run: /proc spelled any way is refused, and the daemon's secrets stay in it", () => {
  const host = testHost({ env: hostEnv() });
  const grants = prepare(host, { run: [{ cmd: "cat", args: ["*"], env: [] }] });
  const cat = async (arg: string) => invoke(host, await grants, ws).api("run", "cat", [arg]);

  it.each(["//proc/", "/./proc/", "/tmp/../proc/", "procdir/", "chain/"])("%s<pid>/environ", async (spelling) => {
    const message = await deniedWith(
      cat(`${spelling}${process.pid}/environ`),
      /is refused: argument 1 .* resolves to \/proc\/\d+\/environ, in \/proc, a kernel file system no command may reach .*No grant can allow this/,
    );
    expect(message).not.toContain(CANARY);
  });

  it("relative, from the workspace", async () => {
    await deniedWith(cat(`${up}proc/${process.pid}/environ`), /in \/proc/);
  });

  it("permitted neighbour: a file in the workspace", async () => {
    expect(((await cat("a.txt")) as { stdout: string }).stdout).toBe("a\n");
  });
});
