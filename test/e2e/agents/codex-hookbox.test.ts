// The real Codex CLI (offline, mock Responses API) with the entries `hookbox install-agent codex
// --user` writes, trusted as Codex's /hooks would record it, the standard guards on and a project
// hook injecting context — once evaluating in emit's own process, once through a daemon. Then the
// same entries never trusted: Codex skips them without a word, and `hookbox doctor` says so.
// Skipped, saying why, when Codex is not installed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { runCodex, type CodexRun, type CodexRunOptions } from "./codex-cli.ts";
import { WITNESSED_EVENTS, auditRecords, contextMarker, daemonEvents, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { CUSTOM_INPUT, requestText, useTool } from "./mock-openai.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ENV_WRITE = "echo API_KEY=leaked > .env && echo wrote";
const ENV_PATCH = "*** Begin Patch\n*** Add File: .env\n+API_KEY=leaked\n*** End Patch\n";
const ALLOWED = "echo hookbox-was-here > allowed.txt && echo wrote";

const suite = clientSuite("codex");

async function run(binary: string, ws: AgentWorkspace, options: Omit<CodexRunOptions, "install">): Promise<CodexRun> {
  const result = await runCodex(binary, ws, { install: installAgent("codex", BUILT_BINARY), ...options });
  expectFinished(result, "codex exec");
  return result;
}

describe.each(EVALUATION_MODES)("Codex CLI with Hookbox's hooks, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write through the shell, and the model's next request carries the reason", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "store the key",
      model: { script: [useTool("exec_command", { cmd: ENV_WRITE }, "call_env_shell")] },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    const next = result.model.resultOf("call_env_shell");
    expect(next?.output.text).toMatch(/^Command blocked by PreToolUse hook: guard-secrets: This command writes to \.env/);
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThan(0);
  });

  it("guard-secrets blocks a .env created through apply_patch", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "store the key",
      model: { script: [useTool("apply_patch", { [CUSTOM_INPUT]: ENV_PATCH }, "call_env_patch")] },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_patch")?.output.text).toContain("guard-secrets");
    expect(auditRecords(ws).some((r) => r.hook_id === "guard-secrets" && r.event_type === "PreToolUse" && r.status === "denied")).toBe(true);
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "write the file",
      model: { script: [useTool("exec_command", { cmd: ALLOWED }, "call_allowed")] },
    });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf("call_allowed");
    expect(next?.output.text).toMatch(/Output:\nwrote\n/);
    const first = requestText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(requestText(next!.request)).toContain(contextMarker("PostToolUse"));
    expect(witnessedEvents(ws)).toEqual([...WITNESSED_EVENTS]);
    if (withDaemon) expect(Object.keys(await daemonEvents(ws))).toEqual(expect.arrayContaining(["SessionStart", "PreToolUse", "PostToolUse"]));
  });
});

describe("Codex CLI with Hookbox's hooks installed but never trusted in /hooks", () => {
  it("skips every hook without a word: the .env is written, Hookbox never hears of it, the run succeeds", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(false);
    const result = await run(binary, ws, {
      prompt: "store the key",
      trustHooks: false,
      model: { script: [useTool("exec_command", { cmd: ENV_WRITE }, "call_env_shell")] },
    });
    expect(readFileSync(join(ws.project, ".env"), "utf8")).toBe("API_KEY=leaked\n");
    expect(result.model.resultOf("call_env_shell")?.output.text).toMatch(/Output:\nwrote\n/);
    expect(auditRecords(ws)).toEqual([]);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/hook/i);
    // What Codex does not say, doctor does: the entries are there, and not trusted.
    const doctor = await runProgram([BUILT_BINARY, "doctor", "--json"], { cwd: ws.project, env: ws.baseEnv(), timeoutMs: 120_000 });
    expect(doctor.code).toBe(1);
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks;
    expect(checks.find((check) => check.name === "codex trust (user)")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^Codex has not trusted 11 of Hookbox's 11 entries in .*\/\.codex\/hooks\.json .*it skips them without a word/),
    });
  });
});
