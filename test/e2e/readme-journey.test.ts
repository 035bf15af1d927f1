import { createHash } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { difference, killProcessesNaming, processesNaming, snapshot } from "../helpers/account.ts";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { ROOT } from "../helpers/daemon.ts";
import { minisignMissing } from "../helpers/minisign.ts";
import { readmeCommands } from "../helpers/readme.ts";

/** A new account's startup files, as Debian's /etc/skel gives them (abridged): ~/.profile reads ~/.bashrc, which stops at once outside a terminal. */
const SKEL = {
  ".profile":
    '# ~/.profile: executed by the command interpreter for login shells.\nif [ -n "$BASH_VERSION" ]; then\n    if [ -f "$HOME/.bashrc" ]; then\n\t. "$HOME/.bashrc"\n    fi\nfi\n',
  ".bashrc": "# ~/.bashrc: executed by bash(1) for non-login shells.\ncase $- in\n    *i*) ;;\n      *) return;;\nesac\nHISTCONTROL=ignoreboth\n",
  ".bash_logout": "# ~/.bash_logout: executed by bash(1) when login shell exits.\n",
};

/**
 * The README, section by section, as a newcomer follows it on a fresh account: download and
 * install (at a terminal, saying yes to PATH), protect a project, write a hook, add a package,
 * and remove Hookbox again. Afterwards the account holds nothing of Hookbox's: no file in HOME
 * that was not there before (startup files byte for byte as they were), no agent entries, no
 * daemon. Commands after the install run in a new login shell, as the README tells the reader.
 */
describe("README: the whole journey on a fresh account", () => {
  let root: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;
  let before: Map<string, string>;
  let packageStepRan = false;
  const minisign = minisignMissing();

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "hookbox-journey-"));
    home = join(root, "home");
    project = join(root, "work", "shop");
    mkdirSync(home);
    for (const [name, text] of Object.entries(SKEL)) writeFileSync(join(home, name), text);
    mkdirSync(project, { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: project });
    // Hookbox is not on the PATH the account starts with; the test's own PATH gives the tools (minisign) a reader has.
    env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", SHELL: "/bin/bash", LANG: "C.UTF-8", USER: "dev" };
    before = snapshot(home);
  });
  afterAll(async () => {
    await killProcessesNaming(home);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** The lines at a terminal (script(1)), answering its questions with `input`: self-install's and self-uninstall's. */
  const atTerminal = (lines: readonly string[], cwd: string, input: string): { status: number | null; output: string } => {
    const file = join(root, `terminal-${createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 8)}.sh`);
    writeFileSync(file, `set -euo pipefail\n${lines.join("\n")}\n`);
    const run = spawnSync("script", ["-qec", `bash --login ${file}`, "/dev/null"], { cwd, env, input, encoding: "utf8", timeout: 180_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };
  /** The lines in a new login shell, which reads the startup files self-install changed. */
  const newShell = (lines: readonly string[], cwd: string): string =>
    execFileSync("bash", ["--login", "-c", `set -euo pipefail\n${lines.join("\n")}`], {
      cwd,
      env,
      encoding: "utf8",
      timeout: 180_000,
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("download, install, protect a project, write a hook, add a package, self-uninstall: nothing of Hookbox's is left", async (ctx) => {
    if (spawnSync("script", ["--version"]).status !== 0) return ctx.skip("script(1) is not installed (util-linux; .ci/install-tools installs it)");

    // Install: one file — the download and its SHA256SUMS, checked, installed, yes to PATH.
    const downloads = join(home, "Downloads");
    mkdirSync(downloads);
    copyFileSync(BUILT_BINARY, join(downloads, "hookbox-linux-x64"));
    chmodSync(join(downloads, "hookbox-linux-x64"), 0o644);
    writeFileSync(join(downloads, "SHA256SUMS"), `${createHash("sha256").update(readFileSync(BUILT_BINARY)).digest("hex")}  hookbox-linux-x64\n`);
    const install = atTerminal(readmeCommands("Install: one file"), downloads, "y\n");
    expect(install.status, install.output).toBe(0);
    expect(install.output).toContain("hookbox-linux-x64: OK");
    expect(install.output).toContain(`installed ${home}/.local/bin/hookbox`);
    expect(install.output).toContain("put ~/.local/bin on PATH in ~/.profile, ~/.bashrc");
    expect(install.output).toMatch(/ok +sandbox: QuickJS ran in a worker process/);
    expect(newShell(["command -v hookbox"], home).trim()).toBe(`${home}/.local/bin/hookbox`);
    // The download itself is the reader's to delete; the rest of the journey does not need it.
    rmSync(downloads, { recursive: true });

    // Use it from your agent: protect the project, then an agent's event through the entry written.
    newShell(readmeCommands("Use it from your agent"), project);
    const local = JSON.parse(readFileSync(join(project, ".claude", "settings.local.json"), "utf8")) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const preToolUse = local.hooks.PreToolUse?.[0]?.hooks[0]?.command as string;
    expect(preToolUse).toBe(`${home}/.local/bin/hookbox emit PreToolUse --agent claude`);
    expect(readFileSync(join(home, ".gemini", "settings.json"), "utf8")).toContain(`${home}/.local/bin/hookbox emit BeforeTool --agent gemini`);

    // Write a hook: the commands of the section, in the project.
    const authoring = newShell(
      readmeCommands("Write a hook").filter((line) => line.startsWith("hookbox ")),
      project,
    );
    expect(authoring).toContain("fixtures passed");
    const event = {
      hook_event_name: "PreToolUse",
      session_id: "s1",
      cwd: project,
      tool_name: "Write",
      tool_input: { file_path: join(project, "notes.md"), content: "A=1" },
    };
    const answered = await runProgram(["sh", "-c", preToolUse], {
      cwd: project,
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      stdin: JSON.stringify(event),
    });
    expect(answered.code, answered.stderr).toBe(0);
    for (let i = 0; i < 200 && processesNaming(home).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesNaming(home).length, "the daemon the event started").toBeGreaterThan(0);

    // Community hooks: pack, sign, verify, add, from a checkout's examples (needs minisign).
    if (!minisign) {
      const checkout = join(root, "checkout");
      cpSync(join(ROOT, "examples", "packages"), join(checkout, "examples", "packages"), { recursive: true });
      expect(newShell(readmeCommands("Community hooks, and the hooks you already have"), checkout)).toContain("installed deny-env 1.0.0");
      expect(existsSync(join(checkout, "publisher.key"))).toBe(false);
      packageStepRan = true;
    }

    // Uninstall, at a terminal, answering yes.
    const uninstall = atTerminal(readmeCommands("Uninstall"), project, "y\n");
    expect(uninstall.status, uninstall.output).toBe(0);
    expect(uninstall.output).toContain("Hookbox is removed from this account:");
    expect(uninstall.output).not.toContain("not done:");

    // Nothing of Hookbox's is left: HOME as it was (but for the empty base directories its own
    // went into, and the publisher's keys the README made), no agent entries, no daemon, no PATH line.
    const left = difference(before, snapshot(home));
    expect(left.changed, "startup files changed").toEqual([]);
    expect(left.removed).toEqual([]);
    const keys = packageStepRan ? [".minisign", join(".minisign", "publisher.key"), join(".minisign", "publisher.pub")] : [];
    // Only the XDG base directories may stay (empty: anything in them would be listed too).
    const baseDirs = [".config", ".local", join(".local", "share")];
    expect(
      left.added.filter((path) => !keys.includes(path) && !baseDirs.includes(path)),
      "files Hookbox left in HOME",
    ).toEqual([]);
    expect(existsSync(join(project, ".claude"))).toBe(false);
    expect(existsSync(join(project, ".hookbox", "hooks", "my-guard", "hook.yaml")), "the hook the reader wrote stays theirs").toBe(true);
    expect(processesNaming(home)).toEqual([]);
    expect(spawnSync("bash", ["--login", "-c", "command -v hookbox"], { env, encoding: "utf8" }).status).not.toBe(0);
  });

  it("the journey's package step ran (it needs minisign)", (ctx) => {
    if (minisign) return ctx.skip(minisign);
    expect(packageStepRan).toBe(true);
  });
});
