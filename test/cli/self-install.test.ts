import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { selfInstall } from "../../src/cli/self-install.ts";
import { createNodeHost } from "../../src/runtime/node.ts";
import { BUILT_BINARY, LoneBinary, runProgram } from "../helpers/binary.ts";

// The binary run as a user would from a download: alone in a directory, a fresh HOME, and a PATH
// whose first entry is an empty directory.
describe("hookbox self-install", () => {
  let binary: LoneBinary;
  let home: string;
  let bin: string;
  let env: Record<string, string>;
  beforeEach(() => {
    binary = new LoneBinary();
    home = join(binary.dir, "home");
    bin = join(home, "bin");
    mkdirSync(bin, { recursive: true });
    env = { HOME: home, PATH: `${bin}:/usr/bin:/bin`, SHELL: "/bin/bash" };
  });
  afterEach(() => binary.cleanup());

  const commandV = (path: string): string => execFileSync("bash", ["-c", "command -v hookbox"], { env: { HOME: home, PATH: path }, encoding: "utf8" }).trim();

  it("puts the binary into a directory on PATH, where the shell finds it and it runs", async () => {
    const run = await binary.run(["self-install", "--dir", bin], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`installed ${bin}/hookbox`);
    expect(run.stdout).toContain("next: hookbox doctor");
    expect(commandV(env.PATH as string)).toBe(join(bin, "hookbox"));
    expect(readFileSync(join(bin, "hookbox")).equals(readFileSync(BUILT_BINARY))).toBe(true);
    expect(statSync(join(bin, "hookbox")).mode & 0o777).toBe(0o755);
    expect(execFileSync("hookbox", ["--version"], { env, encoding: "utf8" })).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("is idempotent: the same bytes there already leave the file untouched", async () => {
    await binary.run(["self-install", "--dir", bin], { env });
    const before = statSync(join(bin, "hookbox"));
    const again = await binary.run(["self-install", "--dir", bin, "--json"], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: "unchanged", on_path: true });
    expect(statSync(join(bin, "hookbox")).ino).toBe(before.ino);
    // The installed copy asked to install itself: nothing to do either.
    const itself = await runProgram([join(bin, "hookbox"), "self-install", "--dir", bin], { env, cwd: home });
    expect(itself.stdout).toContain("nothing to do");
  });

  it("replaces a different binary atomically: a new file renamed over the old one", async () => {
    writeFileSync(join(bin, "hookbox"), "#!/bin/sh\necho old\n");
    chmodSync(join(bin, "hookbox"), 0o755);
    const before = statSync(join(bin, "hookbox")).ino;
    const run = await binary.run(["self-install", "--dir", bin, "--json"], { env });
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "replaced", path: join(bin, "hookbox") });
    expect(statSync(join(bin, "hookbox")).ino).not.toBe(before);
    expect(readFileSync(join(bin, "hookbox")).equals(readFileSync(BUILT_BINARY))).toBe(true);
  });

  it("defaults to ~/.local/bin and, off PATH, prints the line for the user's shell", async () => {
    const bash = await binary.run(["self-install"], { env: { ...env, PATH: "/usr/bin:/bin" } });
    expect(bash.stdout).toContain(`installed ${home}/.local/bin/hookbox`);
    expect(bash.stdout).toContain(`echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc`);
    const fish = await binary.run(["self-install", "--dir=~/tools"], { env: { ...env, SHELL: "/usr/bin/fish" } });
    expect(fish.stdout).toContain("fish_add_path $HOME/tools");
    expect(commandV(`${home}/tools:/usr/bin:/bin`)).toBe(`${home}/tools/hookbox`);
  });

  it("warns when another hookbox comes first on PATH", async () => {
    const earlier = join(home, "earlier");
    mkdirSync(earlier);
    writeFileSync(join(earlier, "hookbox"), "#!/bin/sh\n");
    chmodSync(join(earlier, "hookbox"), 0o755);
    const run = await binary.run(["self-install", "--dir", bin], { env: { ...env, PATH: `${earlier}:${bin}:/usr/bin:/bin` } });
    expect(run.stdout).toContain(`warning: ${earlier}/hookbox comes earlier on PATH`);
  });

  it("refuses, saying why and what to run, when Hookbox runs from sources", async () => {
    await expect(selfInstall(createNodeHost(), bin)).rejects.toMatchObject({ code: "usage", message: expect.stringContaining("npm run build") });
  });
});
