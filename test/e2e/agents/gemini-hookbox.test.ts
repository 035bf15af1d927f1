// The real Gemini CLI (offline, mock model) running `dist/hookbox emit <Event> --agent gemini` as
// its hook command. Skipped, saying why, when the CLI cannot run here.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { cleanupGeminiRun, findGeminiCli, GEMINI_EVENTS, runGemini, type GeminiEntry } from "./gemini-cli.ts";
import { useTool } from "./mock-gemini.ts";

const SHELL = "run_shell_command";
const DENY = "HOOKBOX_DENY: rm is not allowed in this project";
const HOOKS: Record<string, string> = {
  "no-rm.yaml": `id: no-rm
events: [PreToolUse]
match: { tool: Bash, fields: { tool_input.command: "(^|[;&|]\\\\s*)rm\\\\s" } }
handler: { code: "export default () => ({ action: 'deny', reason: '${DENY}' })" }
`,
  "context.yaml": `id: context
events: [UserPromptSubmit]
permissions: { inject_context: true }
handler: { code: "export default () => ({ context_injection: 'HOOKBOX_CTX_PROMPT' })" }
`,
  "witness.yaml": `id: witness
events: [SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop]
handler: { code: "export default (e) => ({ reason: 'saw ' + e.event_type })" }
`,
};

let gemini: GeminiEntry;
const cleanups: (() => void)[] = [];
beforeAll(() => {
  gemini = findGeminiCli();
  if (!gemini.ok) console.warn(`[gemini-hookbox] skipping: ${gemini.reason}`);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function requireGemini(ctx: TestContext): Extract<GeminiEntry, { ok: true }> {
  if (!gemini.ok) ctx.skip(gemini.reason);
  return gemini as Extract<GeminiEntry, { ok: true }>;
}

function hookDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-gemini-hooks-"));
  for (const [name, text] of Object.entries(HOOKS)) writeFileSync(join(dir, name), text);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("Gemini CLI runs `hookbox emit` as its hook command", () => {
  it("a Hookbox deny blocks the shell tool, the model sees the reason, and context reaches it", async (ctx) => {
    const entry = requireGemini(ctx);
    const hooks = hookDir();
    const result = await runGemini(entry, {
      prompt: "clean up",
      model: { script: [useTool(SHELL, { command: "rm -rf build && echo ran > denied.txt" })] },
      hooks: [{ events: GEMINI_EVENTS, command: (event) => `${BUILT_BINARY} emit ${event} --agent gemini --hooks ${hooks}`, timeoutMs: 60_000 }],
      timeoutMs: 90_000,
    });
    cleanups.push(() => cleanupGeminiRun(result));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(join(result.projectDir, "denied.txt"))).toBe(false);
    expect(result.model.resultOf(SHELL)?.response).toEqual({ error: `Tool execution blocked: ${DENY}` });
    const userParts = (result.model.turns()[0]?.contents.at(-1)?.parts ?? []).map((part) => part.text).join("\n");
    expect(userParts).toContain("HOOKBOX_CTX_PROMPT");
  });

  it("an allowed shell command really runs, and every Gemini event reached Hookbox as its native event", async (ctx) => {
    const entry = requireGemini(ctx);
    const hooks = hookDir();
    const result = await runGemini(entry, {
      prompt: "write the file",
      model: { script: [useTool(SHELL, { command: "echo hookbox-was-here > allowed.txt" })] },
      hooks: [{ events: GEMINI_EVENTS, command: (event) => `${BUILT_BINARY} emit ${event} --agent gemini --hooks ${hooks}`, timeoutMs: 60_000 }],
      timeoutMs: 90_000,
    });
    cleanups.push(() => cleanupGeminiRun(result));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(join(result.projectDir, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const audit = join(result.homeDir, ".local/share/hookbox/audit/hookbox-audit.jsonl");
    const events = new Set(
      readFileSync(audit, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { hook_id: string; event_type: string })
        .filter((r) => r.hook_id === "witness")
        .map((r) => r.event_type),
    );
    // Gemini's SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent, in Hookbox's names.
    expect(events).toEqual(new Set(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]));
  });
});
