import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { killProcessesNaming } from "../helpers/account.ts";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";

interface Report {
  ok: boolean;
  checks: { name: string; ok: boolean; detail: string; note?: boolean }[];
}

/**
 * `install-agent` then `doctor`, as a user does it: a HOME where `hookbox` is not on PATH, the
 * binary copied to ~/bin/hookbox and installed from there. doctor passes; each broken link is
 * named, with a non-zero exit.
 */
describe("hookbox doctor checks the whole chain (the binary, in a temp HOME)", () => {
  let root: string;
  let home: string;
  let binary: string;
  let project: string;
  let env: Record<string, string>;
  const run = (exe: string, args: readonly string[]): Promise<RunResult> => runProgram([exe, ...args], { cwd: join(project, "src"), env });
  const doctor = async (): Promise<{ out: RunResult; report: Report }> => {
    // doctor itself runs from the build tree: the installed copy is what may be broken.
    const out = await run(BUILT_BINARY, ["doctor", "--json"]);
    return { out, report: JSON.parse(out.stdout) as Report };
  };
  const failing = (report: Report): string[] => report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), "hookbox-doctor-e2e-"));
    home = join(root, "home");
    binary = join(home, "bin", "hookbox");
    project = join(home, "work", "shop");
    mkdirSync(join(home, "bin"), { recursive: true });
    copyFileSync(BUILT_BINARY, binary);
    chmodSync(binary, 0o755);
    mkdirSync(join(project, "src"), { recursive: true });
    mkdirSync(join(project, ".git"));
    // No hookbox on PATH: the entries must name the binary.
    env = { HOME: home, PATH: "/usr/bin:/bin" };
    const installed = await run(binary, ["install-agent", "claude"]);
    expect(installed.code, installed.stderr).toBe(0);
  });
  afterEach(async () => {
    // doctor's test call through the Claude entry is an emit, which starts a daemon in this HOME
    // (as it would for the user): stop it before its HOME goes, or it writes there meanwhile.
    await run(BUILT_BINARY, ["daemon", "stop"]);
    // It may still finish writing after its socket went; what is left of it goes now.
    await killProcessesNaming(root);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it("after install-agent, doctor passes and has sent a test call through the Claude entry", async () => {
    const { out, report } = await doctor();
    expect(out.code, out.stdout).toBe(0);
    expect(failing(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === "claude (project)")?.detail).toMatch(
      new RegExp(`run ${binary}; a test PreToolUse is answered \\(exit 0\\), the same with and without the daemon`),
    );
    // Self-protection: a short line, then where Hookbox's state is, one place a line (validate and list print the short line only).
    const [line, ...places] = (report.checks.find((c) => c.name === "self-protection")?.detail ?? "").split("\n");
    expect(line).toBe("on: the agent may not change Hookbox's own state (hookbox doctor lists where it is)");
    expect(places).toEqual(
      expect.arrayContaining([
        "    operator file ~/.config/hookbox/hookbox.yaml (only it turns self-protection off: hooks: { self-protect: { enabled: false } })",
        "    data ~/.local/share/hookbox",
      ]),
    );
    // Its test call is marked as doctor's in the audit log: the console hides it by default.
    const audit = readFileSync(join(home, ".local/share/hookbox/audit/hookbox-audit.jsonl"), "utf8");
    expect(audit).toContain('"session_id":"hookbox-doctor"');
  });

  it("install-agent with no operator file wrote one with the standard guards: doctor names them", async () => {
    const { report } = await doctor();
    expect(report.checks.find((c) => c.name === "guards of claude (project)")).toMatchObject({
      ok: true,
      detail: "bash-guard, guard-secrets, and self-protect",
    });
  });

  it("an agent installed with --no-default-guards is protected by nothing but self-protect: doctor fails, naming it and the fix", async () => {
    rmSync(join(home, ".config", "hookbox", "hookbox.yaml"));
    const installed = await run(binary, ["install-agent", "claude", "--no-default-guards"]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).toContain("NO GUARD: claude");
    const { out, report } = await doctor();
    expect(out.code).toBe(1);
    expect(failing(report)).toEqual([
      `guards of claude (project): claude (${join(project, ".claude", "settings.json")}) is protected by nothing but self-protect: no guard checks its tool calls (a write to .env, rm -rf ~, curl … | sh all go through). Enable the standard guards in ${join(home, ".config", "hookbox", "hookbox.yaml")}: builtin: [guard-secrets, bash-guard] (hookbox list --builtin shows every one)`,
    ]);
    const text = await run(BUILT_BINARY, ["doctor"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^FAIL guards of claude \(project\): claude .* is protected by nothing but self-protect/m);
  });

  it("a deleted binary copy is named: every Claude hook would be off", async () => {
    rmSync(binary);
    const { out, report } = await doctor();
    expect(out.code).toBe(1);
    expect(failing(report).join("\n")).toMatch(new RegExp(`claude \\(project\\): .*settings\\.json: ${binary} does not run`));
  });

  it("a typo in the operator file is named with its line", async () => {
    mkdirSync(join(home, ".config", "hookbox"), { recursive: true });
    writeFileSync(join(home, ".config", "hookbox", "hookbox.yaml"), "builtin: [guard-secrets]\nfail_closd: true\n");
    const { out, report } = await doctor();
    expect(out.code).toBe(1);
    expect(failing(report).join("\n")).toMatch(/operator file: .*hookbox\.yaml:2:1: fail_closd: unknown key.*every event is denied/);
  });

  it("an audit log with a directory in its place is named", async () => {
    mkdirSync(join(home, ".local", "share", "hookbox", "audit", "hookbox-audit.jsonl"), { recursive: true });
    const { out, report } = await doctor();
    expect(out.code).toBe(1);
    expect(failing(report).join("\n")).toMatch(/audit log: .*hookbox-audit\.jsonl cannot be written/);
  });

  it("a broken project hook is named with its file and line", async () => {
    mkdirSync(join(project, ".hookbox", "hooks", "guard"), { recursive: true });
    writeFileSync(
      join(project, ".hookbox", "hooks", "guard", "hook.yaml"),
      "id: guard\nevents: [PreToolUse]\non_error: deny\nhandler: ./handler.ts\n",
    );
    writeFileSync(join(project, ".hookbox", "hooks", "guard", "handler.ts"), "export default () => { return {\n");
    const { out, report } = await doctor();
    expect(out.code).toBe(1);
    expect(failing(report).join("\n")).toMatch(/hook guard: broken, fails by on_error: deny .*handler\.ts:\d+:\d+/);
  });

  it("Codex entries never trusted are named, with what to do; after install-agent codex --trust the check passes", async () => {
    const installed = await run(binary, ["install-agent", "codex", "--user"]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/Codex skips new or changed hooks without a word until you trust them/);
    const untrusted = await doctor();
    expect(untrusted.out.code).toBe(1);
    expect(failing(untrusted.report).join("\n")).toMatch(
      new RegExp(
        `codex trust \\(user\\): Codex has not trusted 11 of Hookbox's 11 entries in ${join(home, ".codex", "hooks.json")} \\(PreToolUse, .*\\): it skips them without a word, so nothing is guarded\\. Review and trust them in Codex's /hooks, or run hookbox install-agent codex --user --trust`,
      ),
    );
    const trusted = await run(binary, ["install-agent", "codex", "--user", "--trust"]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(`trust recorded in ${join(home, ".codex", "config.toml")}`);
    const { out, report } = await doctor();
    expect(failing(report), out.stdout).toEqual([]);
    expect(report.checks.find((c) => c.name === "codex trust (user)")?.detail).toMatch(/trusts all 11 of Hookbox's entries/);
  });

  it("Claude's http hooks: a missing token and a daemon that does not answer are named (they fail open)", async () => {
    const installed = await run(binary, ["install-agent", "claude", "--http", "http://127.0.0.1:9", "--token-env", "HOOKBOX_TEST_TOKEN"]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).toMatch(/http hooks fail OPEN/);
    const noToken = await doctor();
    expect(noToken.out.code).toBe(1);
    expect(failing(noToken.report).join("\n")).toMatch(
      /claude \(project\) http: .*\$HOOKBOX_TEST_TOKEN, which is not set here: the daemon will answer 401 and Claude Code runs every tool unchecked/,
    );
    env = { ...env, HOOKBOX_TEST_TOKEN: "t0ken" };
    const noDaemon = await doctor();
    expect(failing(noDaemon.report).join("\n")).toMatch(/claude \(project\) http: .*nothing answers on http:\/\/127\.0\.0\.1:9\/v1\/agents\/claude/);
  });
});
