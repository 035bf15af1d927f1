import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { selfInstall } from "../../src/cli/self-install.ts";
import { createNodeHost } from "../../src/platform/node.ts";
import { BUILT_BINARY, LoneBinary, runProgram } from "../helpers/binary.ts";

const MARK = "# added by hookbox self-install; hookbox self-uninstall removes it";

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

  const commandV = (path: string): string =>
    execFileSync("bash", ["-c", "command -v hookbox"], { env: { HOME: home, PATH: path }, encoding: "utf8" }).trim();

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

  it("off PATH and without a terminal, changes no startup file and says how to (--modify-path)", async () => {
    const run = await binary.run(["self-install"], { env: { ...env, PATH: "/usr/bin:/bin" } });
    expect(run.stdout).toContain("is not on PATH; add it (then open a new shell), or run self-install again with --modify-path:");
    expect(run.stdout).toContain(`next: ${home}/.local/bin/hookbox doctor`);
    expect(existsSync(join(home, ".profile"))).toBe(false);
    expect(existsSync(join(home, ".bashrc"))).toBe(false);
  });

  it("--modify-path: one marked line in each startup file of the user's shells, added once; a new login shell finds hookbox", async () => {
    writeFileSync(join(home, ".zshrc"), "bindkey -e\n");
    const offPath = { ...env, PATH: "/usr/bin:/bin", SHELL: "/usr/bin/fish" };
    const run = await binary.run(["self-install", "--modify-path", "--json"], { env: offPath });
    const report = JSON.parse(run.stdout) as { profiles: { file: string; change: string }[]; profile_line?: string };
    expect(report.profiles).toEqual([
      { file: join(home, ".profile"), change: "created" },
      { file: join(home, ".zshrc"), change: "added" },
      { file: join(home, ".config", "fish", "conf.d", "hookbox.fish"), change: "created" },
    ]);
    expect(report.profile_line).toBeUndefined();
    const line = `case ":$PATH:" in *":$HOME/.local/bin:"*) ;; *) export PATH="$HOME/.local/bin:$PATH" ;; esac  ${MARK}\n`;
    expect(readFileSync(join(home, ".profile"), "utf8")).toBe(line);
    expect(readFileSync(join(home, ".zshrc"), "utf8")).toBe(`bindkey -e\n${line}`);
    expect(readFileSync(join(home, ".config", "fish", "conf.d", "hookbox.fish"), "utf8")).toBe(
      `contains -- "$HOME/.local/bin" $PATH; or set -gx PATH "$HOME/.local/bin" $PATH  ${MARK}\n`,
    );
    expect(
      execFileSync("sh", ["-c", `. ${home}/.profile; . ${home}/.profile; echo "$PATH"`], {
        env: { HOME: home, PATH: "/usr/bin:/bin" },
        encoding: "utf8",
      }).trim(),
    ).toBe(`${home}/.local/bin:/usr/bin:/bin`);
    const again = await binary.run(["self-install", "--modify-path", "--json"], { env: offPath });
    expect((JSON.parse(again.stdout) as { profiles: { change: string }[] }).profiles.map((profile) => profile.change)).toEqual([
      "present",
      "present",
      "present",
    ]);
    expect(readFileSync(join(home, ".zshrc"), "utf8")).toBe(`bindkey -e\n${line}`);
  });

  it("at a terminal, asks before changing a startup file; no means the line is printed instead", async (ctx) => {
    if (spawnSync("script", ["--version"]).status !== 0) return ctx.skip("script(1) is not installed (util-linux; .ci/install-tools installs it)");
    const ask = (answer: string): string =>
      spawnSync("script", ["-qec", `${binary.path} self-install`, "/dev/null"], {
        cwd: home,
        env: { ...env, PATH: "/usr/bin:/bin" },
        input: `${answer}\n`,
        encoding: "utf8",
        timeout: 30_000,
      }).stdout;
    const no = ask("n");
    expect(no).toContain(
      `${home}/.local/bin is not on PATH. Add it in ~/.profile, ~/.bashrc (one marked line each; hookbox self-uninstall removes them)? [Y/n]`,
    );
    expect(no).toContain('export PATH="$HOME/.local/bin:$PATH"');
    expect(existsSync(join(home, ".profile"))).toBe(false);
    const yes = ask("");
    expect(yes).toContain("put ~/.local/bin on PATH in ~/.profile, ~/.bashrc");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toContain(MARK);
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
