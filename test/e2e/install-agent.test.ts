import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { killProcessesNaming } from "../helpers/account.ts";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";

const SAMPLE = readFileSync(resolve(import.meta.dirname, "../contracts/install-samples/claude-settings.json"), "utf8");
const WRITE_ENV = (project: string): string =>
  JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: "s1",
    cwd: join(project, "src", "deep"),
    tool_name: "Write",
    tool_input: { file_path: join(project, ".env"), content: "A=1" },
  });

/** Every path under `dir`, relative, sorted: what a user would see with `find`. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((path) => relative(dir, join(dir, path)))
    .sort();
}

/**
 * A user's machine: a HOME where `hookbox` is not on PATH, the binary copied to ~/bin/hookbox,
 * guard-secrets enabled in the operator file, and a project with a subdirectory.
 */
describe("hookbox install-agent / uninstall-agent (the binary, as a user runs it)", () => {
  let root: string;
  let home: string;
  let binary: string;
  let project: string;
  let env: Record<string, string>;
  const hookbox = (args: readonly string[], cwd = project): Promise<RunResult> => runProgram([binary, ...args], { cwd, env });
  const settingsPath = (): string => join(project, ".claude", "settings.json");

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "hookbox-install-e2e-"));
    home = join(root, "home");
    binary = join(home, "bin", "hookbox");
    project = join(home, "work", "shop");
    mkdirSync(join(home, "bin"), { recursive: true });
    copyFileSync(BUILT_BINARY, binary);
    chmodSync(binary, 0o755);
    mkdirSync(join(project, "src", "deep"), { recursive: true });
    mkdirSync(join(home, ".config", "hookbox"), { recursive: true });
    writeFileSync(join(home, ".config", "hookbox", "hookbox.yaml"), "builtin: [guard-secrets]\n");
    env = { HOME: home, PATH: "/usr/bin:/bin" };
  });
  // The daemon an emit started writes under HOME until it is gone: stop it before removing HOME.
  afterEach(async () => {
    await killProcessesNaming(root);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it("writes entries that run the absolute binary: Claude's PreToolUse through sh -c from a subdirectory gets a valid answer, exit 0", async () => {
    expect((await runProgram(["sh", "-c", "cat >/dev/null; command -v hookbox"], { env })).code).not.toBe(0);
    const install = await hookbox(["install-agent", "claude"]);
    expect(install.code, install.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(settingsPath(), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const commands = Object.values(settings.hooks).flatMap((groups) => groups.flatMap((group) => group.hooks.map((handler) => handler.command)));
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) expect(command.startsWith(`${binary} emit `), command).toBe(true);

    const preToolUse = settings.hooks.PreToolUse?.[0]?.hooks[0]?.command as string;
    const claudeEnv = { ...env, CLAUDE_PROJECT_DIR: project };
    const denied = await runProgram(["sh", "-c", preToolUse], { cwd: join(project, "src", "deep"), env: claudeEnv, stdin: WRITE_ENV(project) });
    expect(denied.code, denied.stderr).toBe(0);
    expect(JSON.parse(denied.stdout)).toMatchObject({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("guard-secrets"),
      },
    });
    const allowed = await runProgram(["sh", "-c", preToolUse], {
      cwd: join(project, "src", "deep"),
      env: claudeEnv,
      stdin: WRITE_ENV(project).replace(".env", "notes.md"),
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).not.toMatch(/deny|block/);
  });

  it("writes the path it was run by when that is a symlink to it (an upgrade replacing the target keeps working), by path or found on PATH", async () => {
    mkdirSync(join(home, ".local", "bin"), { recursive: true });
    const link = join(home, ".local", "bin", "hookbox");
    symlinkSync(binary, link);
    for (const invoked of [link, "hookbox"]) {
      const result = await runProgram([invoked, "install-agent", "codex", "--dry-run", "--json"], {
        cwd: project,
        env: { ...env, PATH: `${join(home, ".local", "bin")}:/usr/bin:/bin` },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ command: link });
    }
  });

  it("uninstall-agent removes the file and the directory install created: the project is as it was", async () => {
    const before = tree(project);
    expect((await hookbox(["install-agent", "claude"])).code).toBe(0);
    const uninstall = await hookbox(["uninstall-agent", "claude"]);
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(uninstall.stdout).toContain(`removed the empty directory ${join(project, ".claude")}`);
    expect(tree(project)).toEqual(before);
  });

  it("restores an existing settings file byte for byte; with another change in between, only Hookbox's entries go", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(settingsPath(), SAMPLE);
    expect((await hookbox(["install-agent", "claude"])).code).toBe(0);
    expect(readFileSync(settingsPath(), "utf8")).not.toBe(SAMPLE);
    expect((await hookbox(["uninstall-agent", "claude"])).code).toBe(0);
    expect(readFileSync(settingsPath(), "utf8")).toBe(SAMPLE);

    expect((await hookbox(["install-agent", "claude", "--fail-closed"])).code).toBe(0);
    const installed = JSON.parse(readFileSync(settingsPath(), "utf8")) as { permissions: { allow: string[] } };
    installed.permissions.allow.push("Bash(npm run lint)");
    writeFileSync(settingsPath(), JSON.stringify(installed, null, 2));
    const uninstall = await hookbox(["uninstall-agent", "claude", "--json"]);
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(JSON.parse(uninstall.stdout)).toMatchObject({ changed: true, method: "entries_removed" });
    const expected = JSON.parse(SAMPLE) as { permissions: { allow: string[] } };
    expected.permissions.allow.push("Bash(npm run lint)");
    expect(JSON.parse(readFileSync(settingsPath(), "utf8"))).toEqual(expected);
  });

  it("edits a Gemini settings file with comments in place and gives it back unchanged", async () => {
    const commented = '{\n  // my theme\n  "theme": "GitHub", /* dark later */\n  "hooksConfig": { "enabled": true }\n}\n';
    mkdirSync(join(project, ".gemini"));
    writeFileSync(join(project, ".gemini", "settings.json"), commented);
    const dry = await hookbox(["install-agent", "gemini", "--dry-run", "--events", "BeforeTool"]);
    expect(dry.stdout).toContain('-  "hooksConfig": { "enabled": true }\n+  "hooksConfig": { "enabled": true },\n+  "hooks": {');
    expect((await hookbox(["install-agent", "gemini"])).code).toBe(0);
    const installed = readFileSync(join(project, ".gemini", "settings.json"), "utf8");
    expect(installed).toContain("// my theme");
    expect(installed).toContain("/* dark later */");
    expect(installed).toContain(`"command": "${binary} emit BeforeTool --agent gemini"`);
    expect((await hookbox(["uninstall-agent", "gemini"])).code).toBe(0);
    expect(readFileSync(join(project, ".gemini", "settings.json"), "utf8")).toBe(commented);
  });
});
