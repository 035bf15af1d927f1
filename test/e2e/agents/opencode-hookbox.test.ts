// The real opencode (offline, mock Chat Completions API) with the plugin `hookbox install-agent
// opencode --user` writes (src/agents/opencode/plugin.ts), the standard guards on and a project
// hook injecting context — once with no daemon, once through a daemon (the plugin always runs
// `hookbox emit`, which lets the daemon decide once it has proven it genuine). Skipped, saying why,
// when opencode is not installed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { contextMarker, daemonEvents, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { requestText, useTool } from "./mock-openai.ts";
import { runOpencode, type OpencodeRun } from "./opencode.ts";
import type { OpenAIClientOptions } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

const suite = clientSuite("opencode", ["opencode-plugin"]);

/** Rewrites the bash command that writes original.txt into one that writes rewritten.txt. */
const REWRITE_HOOK = `id: rewrite
events: [PreToolUse]
match: { tool: Bash }
permissions: { modify: [tool_input.command] }
handler: { code: "export default (e) => e.tool_input.command.includes('original') ? { action: 'modify', data: { ...e.tool_input, command: 'echo rewritten > rewritten.txt && echo rewritten' } } : {}" }
`;

/**
 * The plugin's executable: hookbox behind a wrapper that logs each call, so a test sees the plugin
 * run `hookbox emit` for each event (it never talks to a socket itself).
 */
function emitLog(ws: AgentWorkspace): { readonly wrapper: string; calls(): string[] } {
  const wrapper = join(ws.root, "bin", "hookbox");
  const log = join(ws.root, "emit-calls.log");
  mkdirSync(dirname(wrapper), { recursive: true });
  writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${BUILT_BINARY}' "$@"\n`, { mode: 0o755 });
  return { wrapper, calls: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []) };
}

async function run(binary: string, ws: AgentWorkspace, options: Omit<OpenAIClientOptions, "install">, command: string): Promise<OpencodeRun> {
  const result = await runOpencode(binary, ws, { install: installAgent("opencode", BUILT_BINARY, { command }), ...options });
  expectFinished(result, "opencode run");
  return result;
}

/** Each event ran `hookbox emit` (through a daemon too: the daemon's own audit shows it answered). */
function expectPath(calls: readonly string[]): void {
  expect(calls).toEqual(expect.arrayContaining([expect.stringMatching(/^emit PreToolUse --agent native$/)]));
}

describe.each(EVALUATION_MODES)("opencode with the Hookbox plugin, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write through bash and through the write tool; the model's next requests carry the reasons", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const emit = emitLog(ws);
    const result = await run(
      binary,
      ws,
      {
        prompt: "store the key",
        model: {
          script: [
            useTool("bash", { command: "echo API_KEY=leaked > .env && echo wrote", description: "store" }, "call_env_bash"),
            useTool("write", { filePath: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, "call_env_write"),
          ],
        },
      },
      emit.wrapper,
    );
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expectPath(emit.calls());
    expect(result.model.resultOf("call_env_bash")?.output.text).toMatch(/guard-secrets: This command writes to \.env/);
    expect(result.model.resultOf("call_env_write")?.output.text).toMatch(/guard-secrets: Write on \S+\/\.env: blocked/);
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThanOrEqual(2);
  });

  it("a transform's rewrite is what opencode runs: the rewritten command, never the original", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    // A user hook (the operator's tier: its modify grant holds as declared).
    ws.write("home", { ".config/hookbox/hooks/rewrite/hook.yaml": REWRITE_HOOK });
    const emit = emitLog(ws);
    const result = await run(
      binary,
      ws,
      {
        prompt: "write the file",
        model: { script: [useTool("bash", { command: "echo original > original.txt && echo original", description: "write" }, "call_rewritten")] },
      },
      emit.wrapper,
    );
    expect(existsSync(join(ws.project, "original.txt")), "the original command ran").toBe(false);
    expect(readFileSync(join(ws.project, "rewritten.txt"), "utf8")).toBe("rewritten\n");
    expect(result.model.resultOf("call_rewritten")?.output.text).toMatch(/^rewritten\n/);
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const emit = emitLog(ws);
    const result = await run(
      binary,
      ws,
      {
        prompt: "write the file",
        model: { script: [useTool("bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, "call_allowed")] },
      },
      emit.wrapper,
    );
    expectPath(emit.calls());
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf("call_allowed");
    expect(next?.output.text).toMatch(/^wrote\n/);
    const first = requestText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(next?.output.text).toContain(contextMarker("PostToolUse"));
    expect(witnessedEvents(ws)).toEqual(expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"]));
  });
});
