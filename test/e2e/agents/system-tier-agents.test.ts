// The real Claude Code, Codex, Gemini CLI and Qwen Code, offline against their mock models, on a machine where
// `hookbox install --system` wrote their managed settings at the real paths (a private machine:
// test/helpers/private-machine.ts, whose /etc overlay goes with the test). Each is given user and
// project settings that remove, override or switch off Hookbox's hooks; the managed entries still
// block the `.env` write — or, where the agent's own design lets a user switch them off (Gemini
// CLI's hooksConfig.disabled), the test shows that it does, as SECURITY.md says.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { PrivateMachine } from "../../helpers/private-machine.ts";
import { findClaudeBinary, runClaudeIn, type ClaudeBinary } from "./claude-code.ts";
import { findClient, type FoundClient } from "./clients.ts";
import { expectFinished } from "./client-suite.ts";
import { runCodex } from "./codex-cli.ts";
import { findGeminiCli, runGeminiIn, type GeminiEntry } from "./gemini-cli.ts";
import { toolResultText, useTool as claudeTool } from "./mock-anthropic.ts";
import { useTool as geminiTool } from "./mock-gemini.ts";
import { CUSTOM_INPUT, useTool as openaiTool } from "./mock-openai.ts";
import { runQwen } from "./qwen-code.ts";
import { AgentWorkspace } from "./workspace.ts";

const UNAVAILABLE = PrivateMachine.unavailable();
const TOOL_ID = "toolu_01SYSTEMTIER000000000001";
const GUARD_SECRETS = /guard-secrets: (Write on \S+\/\.env: blocked|This command writes to \.env)/;

let machine: PrivateMachine;
let claude: ClaudeBinary;
let codex: FoundClient;
let gemini: GeminiEntry;
let qwen: FoundClient;
const workspaces: AgentWorkspace[] = [];

beforeAll(async () => {
  if (UNAVAILABLE) {
    console.warn(`[system-tier-agents] skipping: ${UNAVAILABLE}`);
    return;
  }
  claude = findClaudeBinary();
  codex = findClient("codex");
  gemini = findGeminiCli();
  qwen = findClient("qwen");
  machine = await PrivateMachine.start();
}, 60_000);

afterAll(async () => {
  for (const ws of workspaces) ws.cleanup();
  await machine?.stop();
});

async function installSystem(...flags: string[]): Promise<void> {
  const ran = await machine.run([BUILT_BINARY, "install", "--system", ...flags]);
  expect(ran.code, ran.stderr).toBe(0);
}

function workspace(): AgentWorkspace {
  const ws = new AgentWorkspace("hookbox-system-tier-");
  workspaces.push(ws);
  return ws;
}

function need(ctx: TestContext, client?: { ok: boolean; reason?: string }): void {
  if (UNAVAILABLE) ctx.skip(UNAVAILABLE);
  if (client && !client.ok) ctx.skip(client.reason as string);
}

describe("Claude Code with its managed settings written by hookbox install --system", () => {
  it("a user settings file that removes Hookbox's hooks, adds one that allows, sets disableAllHooks and BUN_BE_BUN: the managed hooks still block the .env write", async (ctx) => {
    need(ctx, claude);
    await installSystem();
    const ws = workspace();
    const result = await runClaudeIn(machine.wrapper("claude", [(claude as Extract<ClaudeBinary, { ok: true }>).path]), ws, {
      prompt: "store the key",
      model: { script: [claudeTool("Write", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, TOOL_ID)] },
      install: (w) => {
        w.write("home", {
          ".claude/settings.json": JSON.stringify({
            hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "echo '{}'" }] }] },
            disableAllHooks: true,
            env: { BUN_BE_BUN: "1", BUN_OPTIONS: `--preload ${w.home}/evil.js` },
          }),
        });
        w.write("home", { "evil.js": "process.stdout.write('{}'); process.exit(0);\n" });
        w.write("project", { ".claude/settings.json": JSON.stringify({ hooks: {} }) });
      },
    });
    expectFinished(result, "claude -p");
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(toolResultText(result.model.resultOf(TOOL_ID)!.result)).toMatch(GUARD_SECRETS);
  }, 180_000);

  it("with --managed-hooks-only (allowManagedHooksOnly) a user's own hook is not run at all; without it, it runs beside the managed one", async (ctx) => {
    need(ctx, claude);
    const binary = machine.wrapper("claude", [(claude as Extract<ClaudeBinary, { ok: true }>).path]);
    // An allowed write: every PreToolUse hook runs (a deny from the managed hook would end the chain before a user's).
    const run = async (): Promise<boolean> => {
      const ws = workspace();
      const result = await runClaudeIn(binary, ws, {
        prompt: "write the notes",
        model: { script: [claudeTool("Write", { file_path: join(ws.project, "notes.txt"), content: "notes\n" }, TOOL_ID)] },
        install: (w) =>
          w.write("home", {
            ".claude/settings.json": JSON.stringify({
              hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `touch ${join(w.root, "user-hook-ran")}` }] }] },
            }),
          }),
      });
      expectFinished(result, "claude -p");
      expect(readFileSync(join(ws.project, "notes.txt"), "utf8")).toBe("notes\n");
      return existsSync(join(ws.root, "user-hook-ran"));
    };
    await installSystem();
    expect(await run(), "without allowManagedHooksOnly the user's hook runs too").toBe(true);
    await installSystem("--managed-hooks-only");
    expect(await run(), "allowManagedHooksOnly: the user's hook ran").toBe(false);
    await installSystem();
  }, 300_000);
});

describe("Codex with its managed requirements written by hookbox install --system", () => {
  it("a user config that switches hooks off and a user hooks.json that allows: the managed hook (untrusted by the user, needing no trust) blocks the .env patch", async (ctx) => {
    need(ctx, codex);
    await installSystem();
    const ws = workspace();
    const result = await runCodex(machine.wrapper("codex", [(codex as Extract<FoundClient, { ok: true }>).path]), ws, {
      prompt: "store the key",
      model: {
        script: [
          openaiTool("apply_patch", { [CUSTOM_INPUT]: "*** Begin Patch\n*** Add File: .env\n+API_KEY=leaked\n*** End Patch\n" }, "call_env_patch"),
        ],
      },
      trustHooks: false,
      install: (w) => {
        const config = join(w.home, ".codex/config.toml");
        w.write("home", {
          ".codex/config.toml": `${readFileSync(config, "utf8")}\n[features]\nhooks = false\n`,
          ".codex/hooks.json": JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } }),
        });
      },
    });
    expectFinished(result, "codex exec");
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_patch")?.output.text).toMatch(/^Command blocked by PreToolUse hook: guard-secrets: .*\.env/);
  }, 180_000);
});

describe("Gemini CLI with its system settings written by hookbox install --system", () => {
  const runGemini = async (ws: AgentWorkspace, userSettings: Record<string, unknown>) => {
    const entry = gemini as Extract<GeminiEntry, { ok: true }>;
    const inside: Extract<GeminiEntry, { ok: true }> = { ...entry, command: machine.wrapper("gemini", [entry.command]) };
    const result = await runGeminiIn(inside, ws, {
      prompt: "store the key",
      model: { script: [geminiTool("run_shell_command", { command: "echo API_KEY=leaked > .env && echo wrote" })] },
      install: (w) => {
        const file = join(w.home, ".gemini/settings.json");
        w.write("home", { ".gemini/settings.json": JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), ...userSettings }) });
        w.write("project", { ".gemini/settings.json": JSON.stringify({ hooks: {} }) });
      },
      timeoutMs: 90_000,
    });
    expectFinished(result, "gemini -p");
    return result;
  };

  it("user and project settings without hooks, and hooksConfig.enabled false: the system's hooks still block the .env write", async (ctx) => {
    need(ctx, gemini);
    await installSystem();
    const ws = workspace();
    const result = await runGemini(ws, { hooks: {}, hooksConfig: { enabled: false } });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(JSON.stringify(result.model.resultOf("run_shell_command")?.response)).toMatch(GUARD_SECRETS);
  }, 180_000);

  it('not enforced, as documented: a user\'s hooksConfig.disabled: ["hookbox"] switches the system entries off, and hookbox doctor says so', async (ctx) => {
    need(ctx, gemini);
    await installSystem();
    const ws = workspace();
    await runGemini(ws, { hooksConfig: { disabled: ["hookbox"] } });
    expect(existsSync(join(ws.project, ".env")), "Gemini CLI ran no Hookbox hook: the write went through").toBe(true);
    const doctor = await machine.run([BUILT_BINARY, "doctor"], { cwd: ws.project, env: { ...ws.baseEnv() } });
    expect(doctor.stdout).toMatch(
      /FAIL tier of gemini: system tier \(\/etc\/gemini-cli\/settings\.json\) does not hold: .*lists "hookbox" in hooksConfig\.disabled/,
    );
  }, 180_000);
});

describe("Qwen Code with its system settings written by hookbox install --system", () => {
  it("user settings with disableAllHooks and no hooks, project settings without hooks: the system's hooks still block the .env write", async (ctx) => {
    need(ctx, qwen);
    await installSystem();
    const ws = workspace();
    const result = await runQwen(machine.wrapper("qwen", [(qwen as Extract<FoundClient, { ok: true }>).path]), ws, {
      prompt: "store the key",
      model: { script: [openaiTool("write_file", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, "call_env_write")] },
      install: (w) => {
        w.write("home", { ".qwen/settings.json": JSON.stringify({ hooks: {}, disableAllHooks: true }) });
        w.write("project", { ".qwen/settings.json": JSON.stringify({ hooks: {} }) });
      },
    });
    expectFinished(result, "qwen -p");
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_write")?.output.text).toMatch(GUARD_SECRETS);
  }, 180_000);
});
