// hookbox/agent-sdk with the real Claude Agent SDK (its bundled Claude Code, offline against
// MockAnthropic): `hooks: hookboxHooks()` and no settings files at all, so only the adapter can
// have stopped anything. Through the workspace's daemon the model's .env write is denied by
// guard-secrets, the write does not happen and the reason is the model's tool result; an allowed
// command runs and context reaches the model. With no daemon the write is refused all the same,
// saying why. examples/agent-sdk/guarded-agent.mjs runs as written, from a project that depends
// on both packages. And hookboxHooks() type-checks as the SDK's own `Options["hooks"]`.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hookboxHooks } from "../../../src/agent-sdk/index.ts";
import { runProgram } from "../../helpers/binary.ts";
import { runAgentSdk, type SdkHooks, type SdkRun } from "./claude-agent-sdk.ts";
import { claudeOfflineEnv } from "./claude-code.ts";
import { clientSuite } from "./client-suite.ts";
import { contextMarker, daemonEvents } from "./hookbox-setup.ts";
import { MockAnthropic, systemMessageText, toolResultText, useTool } from "./mock-anthropic.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ENV_WRITE = "toolu_01HOOKBOXADAPTERENV000001";
const ALLOWED = "toolu_01HOOKBOXADAPTERALLOWED1";
const ROOT = resolve(import.meta.dirname, "../../..");

const suite = clientSuite("claude-agent-sdk");

async function run(sdkDir: string, ws: AgentWorkspace, hooks: ReturnType<typeof hookboxHooks>): Promise<SdkRun> {
  const result = await runAgentSdk(sdkDir, ws, {
    prompt: "store the key, then write the file",
    model: {
      script: [
        useTool("Write", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, ENV_WRITE),
        useTool("Bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, ALLOWED),
      ],
    },
    settingSources: [],
    hooks: hooks as SdkHooks,
  });
  expect(result.timedOut, "the query timed out").toBe(false);
  expect(result.result?.subtype, JSON.stringify(result.result)).toBe("success");
  return result;
}

describe("hookbox/agent-sdk: hookboxHooks() in the real Claude Agent SDK", () => {
  it("through the daemon: .env denied by guard-secrets with the reason reaching the model, the write not done; an allowed command run; context reached", async (ctx) => {
    const sdkDir = suite.require(ctx);
    const ws = await suite.workspace(true);
    const result = await run(sdkDir, ws, hookboxHooks({ socket: join(ws.runtimeDir, "hookbox", "hookbox.sock") }));
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    const denied = result.model.resultOf(ENV_WRITE);
    expect(denied?.result.is_error).toBe(true);
    expect(toolResultText(denied!.result)).toMatch(/guard-secrets: Write on \S+\/\.env: blocked because dotenv files hold environment secrets/);
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    expect(toolResultText(result.model.resultOf(ALLOWED)!.result)).toBe("wrote");
    expect(systemMessageText(result.model.turns()[0]!)).toContain(contextMarker("UserPromptSubmit"));
    expect(systemMessageText(result.model.turns().at(-1)!)).toContain(contextMarker("PostToolUse"));
    // The daemon answered them: no hookbox process ran for the agent.
    expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThanOrEqual(2);
  });

  it("with no daemon: the tool calls are refused, saying Hookbox could not be asked, and nothing is written", async (ctx) => {
    const sdkDir = suite.require(ctx);
    const ws = await suite.workspace(false);
    const result = await run(sdkDir, ws, hookboxHooks({ socket: join(ws.runtimeDir, "hookbox", "hookbox.sock"), retryDelayMs: 50 }));
    expect(existsSync(join(ws.project, ".env"))).toBe(false);
    expect(existsSync(join(ws.project, "allowed.txt"))).toBe(false);
    expect(toolResultText(result.model.resultOf(ENV_WRITE)!.result)).toMatch(
      /Hookbox could not evaluate this PreToolUse \(no Hookbox daemon answers on \S+hookbox\.sock.*\), so it is blocked/,
    );
  });

  it("examples/agent-sdk/guarded-agent.mjs as written (hookbox/agent-sdk imported by name, the daemon found as emit finds it): .env refused with the reason, an allowed command run", async (ctx) => {
    const sdkDir = suite.require(ctx);
    const ws = await suite.workspace(true);
    // The project depends on both packages, as a user's would.
    mkdirSync(join(ws.project, "node_modules", "@anthropic-ai"), { recursive: true });
    symlinkSync(ROOT, join(ws.project, "node_modules", "hookbox"));
    symlinkSync(sdkDir, join(ws.project, "node_modules", "@anthropic-ai", "claude-agent-sdk"));
    writeFileSync(join(ws.project, "package.json"), JSON.stringify({ private: true, type: "module" }));
    writeFileSync(join(ws.project, "guarded-agent.mjs"), readFileSync(join(ROOT, "examples/agent-sdk/guarded-agent.mjs")));
    const model = new MockAnthropic({
      script: [
        useTool("Write", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, ENV_WRITE),
        useTool("Bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, ALLOWED),
      ],
    });
    const baseUrl = await model.start();
    try {
      const run = await runProgram([process.execPath, "guarded-agent.mjs", "store the key, then write the file"], {
        cwd: ws.project,
        env: { ...ws.baseEnv(), ...claudeOfflineEnv(baseUrl) },
        timeoutMs: 120_000,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('"result":"success"');
      expect(existsSync(join(ws.project, ".env"))).toBe(false);
      expect(toolResultText(model.resultOf(ENV_WRITE)!.result)).toMatch(/guard-secrets: Write on \S+\/\.env: blocked/);
      expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    } finally {
      await model.close();
    }
  });

  it("type-checks as the SDK's own Options['hooks'] (its sdk.d.ts)", async (ctx) => {
    const sdkDir = suite.require(ctx);
    const ws = await suite.workspace(false);
    writeFileSync(
      join(ws.project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          types: ["node"],
          typeRoots: [join(ROOT, "node_modules/@types")],
        },
        files: ["check.ts"],
      }),
    );
    writeFileSync(
      join(ws.project, "check.ts"),
      `import type { Options } from ${JSON.stringify(join(sdkDir, "sdk.d.ts").replace(/\.d\.ts$/, ".js"))};
import { hookboxHooks } from ${JSON.stringify(join(ROOT, "src/agent-sdk/index.ts"))};
export const hooks: Options["hooks"] = hookboxHooks({ events: ["PreToolUse", "PostToolUse", "PermissionRequest", "UserPromptSubmit"] });
`,
    );
    const check = await runProgram([join(ROOT, "node_modules/.bin/tsc"), "-p", "."], { cwd: ws.project, timeoutMs: 120_000 });
    expect(
      check.stdout.split("\n").filter((line) => line.startsWith("check.ts")),
      check.stdout,
    ).toEqual([]);
  });
});
