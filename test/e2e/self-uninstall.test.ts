import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordCreatedFile } from "../../src/cli/install-records.ts";
import { createNodeHost } from "../../src/platform/node.ts";
import { difference, killProcessesNaming, processesNaming, snapshot } from "../helpers/account.ts";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";

const MARK = "# added by hookbox self-install; hookbox self-uninstall removes it";
const BASHRC = "# ~/.bashrc: executed by bash(1) for non-login shells.\nHISTSIZE=1000\nalias ll='ls -l'";
const PROFILE = '# ~/.profile\nif [ -n "$BASH_VERSION" ]; then . "$HOME/.bashrc"; fi\n';
const SETTINGS = '{\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n';

/**
 * A user's account as the README leaves it (self-install, install-agent in a project and for the
 * user, a daemon started by an agent's event), then `hookbox self-uninstall` run by that user.
 */
describe("hookbox self-uninstall", () => {
  let root: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;
  const installed = (): string => join(home, ".local", "bin", "hookbox");
  const hookbox = (args: readonly string[], binary = installed()): Promise<RunResult> => runProgram([binary, ...args], { cwd: project, env });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "hookbox-self-uninstall-"));
    home = join(root, "home");
    project = join(root, "work", "shop");
    mkdirSync(home, { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(root, "download"));
    copyFileSync(BUILT_BINARY, join(root, "download", "hookbox-linux-x64"));
    chmodSync(join(root, "download", "hookbox-linux-x64"), 0o755);
    env = { HOME: home, PATH: "/usr/bin:/bin", SHELL: "/bin/bash" };
  });
  afterEach(async () => {
    await killProcessesNaming(home);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** An agent's event through the entry install-agent wrote: it starts a daemon; wait for its socket, or (`listening: false`) only for its process. */
  async function eventStartingADaemon({ listening = true } = {}): Promise<void> {
    const payload = JSON.stringify({
      hook_event_name: "PreToolUse",
      session_id: "s1",
      cwd: project,
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    const answer = await runProgram([installed(), "emit", "PreToolUse", "--agent", "claude"], {
      cwd: project,
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      stdin: payload,
    });
    expect(answer.code, answer.stderr).toBe(0);
    const run = join(home, ".hookbox", "run");
    // Listening is not the end of its start: it warms the project's hooks next and logs that, and a
    // snapshot taken before the line lands sees daemon.log change under it.
    const log = join(home, ".local", "share", "hookbox", "daemon.log");
    const ready = (): boolean =>
      listening
        ? existsSync(run) &&
          readdirSync(run).some((name) => name.endsWith(".sock")) &&
          existsSync(log) &&
          readFileSync(log, "utf8").includes(" warmed ")
        : processesNaming(home).length > 0;
    for (let i = 0; i < 1000 && !ready(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(processesNaming(home).length, "a daemon serving this HOME").toBeGreaterThan(0);
  }

  it("undoes self-install and install-agent everywhere they wrote, stops the daemon, keeps config and data and says where", async () => {
    writeFileSync(join(home, ".bashrc"), BASHRC);
    writeFileSync(join(home, ".profile"), PROFILE);
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "settings.json"), SETTINGS);
    const self = await runProgram([join(root, "download", "hookbox-linux-x64"), "self-install", "--modify-path"], { cwd: root, env });
    expect(self.code, self.stderr).toBe(0);
    expect(self.stdout).toContain("put ~/.local/bin on PATH in ~/.profile, ~/.bashrc (one marked line each; hookbox self-uninstall removes them)");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe(
      `${BASHRC}\ncase ":$PATH:" in *":$HOME/.local/bin:"*) ;; *) export PATH="$HOME/.local/bin:$PATH" ;; esac  ${MARK}\n`,
    );
    // A shell started from that profile finds hookbox; a second run adds nothing.
    expect((await runProgram(["bash", "-c", `. ${join(home, ".profile")}; command -v hookbox`], { env })).stdout.trim()).toBe(installed());
    expect((await runProgram([join(root, "download", "hookbox-linux-x64"), "self-install", "--modify-path"], { cwd: root, env })).stdout).toContain(
      "is on PATH in ~/.profile, ~/.bashrc already",
    );
    expect(readFileSync(join(home, ".bashrc"), "utf8").split(MARK)).toHaveLength(2);

    expect((await hookbox(["install-agent", "claude"])).code).toBe(0);
    expect((await hookbox(["install-agent", "claude", "--local", "--events", "Stop"])).code).toBe(0);
    expect((await hookbox(["install-agent", "gemini", "--user"])).code).toBe(0);
    await eventStartingADaemon();
    // A line the user wrote: named, not edited.
    writeFileSync(join(home, ".bashrc"), `${readFileSync(join(home, ".bashrc"), "utf8")}eval "$(hookbox completion bash)"\n`);
    const before = snapshot(home);
    const projectBefore = snapshot(project);

    const refused = await hookbox(["self-uninstall"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "error[consent_required]: nothing was changed: there is no terminal to ask. To remove Hookbox, run again with --yes",
    );
    const dry = await hookbox(["self-uninstall", "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { agents: { file: string }[]; binaries: string[]; daemons: unknown[]; profiles: { file: string }[] };
    expect(plan.agents.map((change) => change.file).sort()).toEqual(
      [join(home, ".gemini", "settings.json"), join(project, ".claude", "settings.json"), join(project, ".claude", "settings.local.json")].sort(),
    );
    expect(plan.binaries).toEqual([installed()]);
    expect(plan.daemons).toHaveLength(1);
    expect(plan.profiles.map((profile) => profile.file)).toEqual([join(home, ".profile"), join(home, ".bashrc")]);
    expect(difference(before, snapshot(home))).toEqual({ added: [], removed: [], changed: [] });
    expect(difference(projectBefore, snapshot(project))).toEqual({ added: [], removed: [], changed: [] });

    const done = await hookbox(["self-uninstall", "--yes"]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^Hookbox is removed from this account:\n/);
    expect(done.stdout).toContain(
      `${join(project, ".claude", "settings.json")} (claude, project): 13 entries; the file restored byte for byte as it was before install-agent; backup: ${join(project, ".claude", "settings.json")}.hookbox-backup-`,
    );
    expect(done.stdout).toContain("~/.gemini/settings.json (gemini, user): 8 entries; the file goes (install-agent created it)");
    expect(done.stdout).toContain(
      `~/.bashrc:4: \`eval "$(hookbox completion bash)"\` runs hookbox, and you wrote it: remove it, or each new shell says hookbox: command not found`,
    );
    expect(done.stdout).toMatch(/kept \(your config and data; .*\n {2}~\/\.local\/share\/hookbox {2}\(data: /);

    expect(readFileSync(join(project, ".claude", "settings.json"), "utf8")).toBe(SETTINGS);
    expect(existsSync(join(project, ".claude", "settings.local.json"))).toBe(false);
    expect(existsSync(join(home, ".gemini"))).toBe(false);
    expect(readFileSync(join(home, ".profile"), "utf8")).toBe(PROFILE);
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe(`${BASHRC}\neval "$(hookbox completion bash)"\n`);
    expect(existsSync(join(home, ".local", "bin"))).toBe(false);
    expect(existsSync(join(home, ".hookbox"))).toBe(false);
    expect(processesNaming(home)).toEqual([]);
    expect(existsSync(join(home, ".local", "share", "hookbox", "audit", "hookbox-audit.jsonl"))).toBe(true);
    expect(readdirSync(join(home, ".local", "share", "hookbox", "installs"))).toEqual([]);
  });

  it("--purge takes config and data too: a fresh account is left with nothing of Hookbox's", async () => {
    const before = snapshot(home);
    expect((await runProgram([join(root, "download", "hookbox-linux-x64"), "self-install", "--modify-path"], { cwd: root, env })).code).toBe(0);
    mkdirSync(join(home, ".config", "hookbox"), { recursive: true });
    writeFileSync(join(home, ".config", "hookbox", "hookbox.yaml"), "builtin: [guard-secrets]\n");
    expect((await hookbox(["install-agent", "claude", "--local"])).code).toBe(0);
    // A daemon still starting (its lock taken, its socket not yet there) is waited for and stopped too.
    await eventStartingADaemon({ listening: false });
    const done = await hookbox(["self-uninstall", "--purge", "--yes", "--json"]);
    expect(done.code, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout) as {
      purged: { path: string }[];
      kept: unknown[];
      problems: string[];
      profiles: { removed_file: boolean }[];
    };
    expect(report.problems).toEqual([]);
    expect(report.purged.map((entry) => entry.path)).toEqual([join(home, ".config", "hookbox"), join(home, ".local", "share", "hookbox")]);
    expect(report.kept).toEqual([]);
    expect(report.profiles.every((profile) => profile.removed_file)).toBe(true);
    // What stays: the empty XDG base directories Hookbox's own went into.
    const left = difference(before, snapshot(home));
    expect(left).toEqual({ added: [".config", ".local", join(".local", "share")], removed: [], changed: [] });
    expect(processesNaming(home)).toEqual([]);
    expect(readdirSync(project)).toEqual([".git"]);
  });

  it("removes a file Hookbox created for the user while it is unchanged (install-agent's operator file); a changed one is theirs", async () => {
    const configDir = join(home, ".config", "hookbox");
    const dataDir = join(home, ".local", "share", "hookbox");
    const operator = join(configDir, "hookbox.yaml");
    const other = join(home, "team", "hookbox.yaml");
    mkdirSync(configDir, { recursive: true });
    mkdirSync(dirname(other));
    writeFileSync(operator, "builtin: [guard-secrets, bash-guard]\n");
    writeFileSync(other, "builtin: [guard-secrets]\n");
    const host = createNodeHost({ homeDir: () => home, env: { HOME: home } });
    await recordCreatedFile(host, dataDir, {
      file: operator,
      what: "the operator file (default guards)",
      text: readFileSync(operator, "utf8"),
      createdDirs: [join(home, ".config"), configDir],
    });
    await recordCreatedFile(host, dataDir, { file: other, what: "an operator file", text: readFileSync(other, "utf8"), createdDirs: [] });
    writeFileSync(other, "builtin: [guard-secrets]\nfail_closed: true\n");
    const done = await runProgram([join(root, "download", "hookbox-linux-x64"), "self-uninstall", "--yes"], { cwd: root, env });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(
      "files Hookbox created for you, unchanged since:\n  ~/.config/hookbox/hookbox.yaml  (the operator file (default guards))",
    );
    expect(done.stdout).toContain("~/team/hookbox.yaml: an operator file: changed since Hookbox created it, so it is yours now");
    expect(existsSync(join(home, ".config"))).toBe(false);
    expect(readFileSync(other, "utf8")).toContain("fail_closed");
    expect(done.stdout).not.toContain("~/.config/hookbox  (config");
  });

  it("run from the downloaded file, removes the copy self-install made and names the file it ran from", async () => {
    const download = join(root, "download", "hookbox-linux-x64");
    expect((await runProgram([download, "self-install", "--dir", join(home, "tools")], { cwd: root, env })).code).toBe(0);
    const done = await runProgram([download, "self-uninstall", "--yes"], { cwd: root, env });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("the binary:\n  ~/tools/hookbox\n");
    expect(done.stdout).toContain(`${download}: the file you ran (self-install copies it as hookbox): delete it when you are done`);
    expect(existsSync(join(home, "tools"))).toBe(false);
    expect(existsSync(download)).toBe(true);
    expect((await runProgram([download, "self-uninstall", "--yes"], { cwd: root, env })).stdout).toBe(
      "Hookbox has nothing installed on this account.\n",
    );
  });
});
