// The real Gemini CLI (offline, mock model) with a commented .gemini/settings.json that
// `hookbox install-agent gemini` edited in place: Gemini reads it (it strips comments), runs the
// absolute binary, and a hook from the user's hook directory blocks the tool. With a trailing
// comma Gemini does not start at all, which is what install-agent's note says. Skipped, saying
// why, when the CLI cannot run here.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { cleanupGeminiRun, findGeminiCli, runGemini, type GeminiEntry } from "./gemini-cli.ts";
import { useTool } from "./mock-gemini.ts";

const SHELL = "run_shell_command";
const DENY = "HOOKBOX_INSTALLED_DENY: rm is not allowed";
const NO_RM = `id: no-rm
events: [PreToolUse]
match: { tool: Bash, fields: { tool_input.command: "(^|[;&|]\\\\s*)rm\\\\s" } }
handler: { code: "export default () => ({ action: 'deny', reason: '${DENY}' })" }
`;
const COMMENTED = `{
  // the team's settings
  "ui": { "hideBanner": true } /* quiet */
}
`;

let gemini: GeminiEntry;
let root: string;
let xdgConfig: string;
let installed: string;
let installOutput: string;

beforeAll(async () => {
  gemini = findGeminiCli();
  if (!gemini.ok) console.warn(`[gemini-install] skipping: ${gemini.reason}`);
  root = mkdtempSync(join(tmpdir(), "hookbox-gemini-install-"));
  const binary = join(root, "bin", "hookbox");
  mkdirSync(join(root, "bin"));
  copyFileSync(BUILT_BINARY, binary);
  chmodSync(binary, 0o755);
  xdgConfig = join(root, "config");
  mkdirSync(join(xdgConfig, "hookbox", "hooks"), { recursive: true });
  writeFileSync(join(xdgConfig, "hookbox", "hooks", "no-rm.yaml"), NO_RM);
  const project = join(root, "project");
  mkdirSync(join(project, ".gemini"), { recursive: true });
  writeFileSync(join(project, ".gemini", "settings.json"), COMMENTED);
  const install = await runProgram([binary, "install-agent", "gemini"], { cwd: project, env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" } });
  expect(install.code, install.stderr).toBe(0);
  installOutput = install.stdout;
  installed = readFileSync(join(project, ".gemini", "settings.json"), "utf8");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function requireGemini(ctx: TestContext): Extract<GeminiEntry, { ok: true }> {
  if (!gemini.ok) ctx.skip(gemini.reason);
  return gemini as Extract<GeminiEntry, { ok: true }>;
}

async function rmUnder(entry: Extract<GeminiEntry, { ok: true }>, settings: string): Promise<{ ran: boolean; response: unknown; exitCode: number | null; stderr: string }> {
  const run = await runGemini(entry, {
    prompt: "clean up",
    model: { script: [useTool(SHELL, { command: "rm -rf build && echo ran > ran.txt" })] },
    hooks: [],
    files: { ".gemini/settings.json": settings },
    env: { XDG_CONFIG_HOME: xdgConfig },
    timeoutMs: 90_000,
  });
  try {
    return { ran: existsSync(join(run.projectDir, "ran.txt")), response: run.model.resultOf(SHELL)?.response, exitCode: run.exitCode, stderr: run.stderr };
  } finally {
    cleanupGeminiRun(run);
  }
}

describe("Gemini CLI with the commented settings install-agent edited", () => {
  it("keeps the comments, and Gemini runs the absolute binary: a hook from the user's hook directory blocks the tool", async (ctx) => {
    expect(installed).toContain("// the team's settings");
    expect(installed).toContain("/* quiet */");
    expect(installOutput).not.toMatch(/does not accept/);
    const entry = requireGemini(ctx);
    const outcome = await rmUnder(entry, installed);
    expect(outcome.ran, "the denied command ran").toBe(false);
    expect(outcome.response).toEqual({ error: `Tool execution blocked: ${DENY}` });
  });

  it("refuses to start when the file has a trailing comma (what install-agent's note says)", async (ctx) => {
    const entry = requireGemini(ctx);
    const spoiled = installed.replace(/\n}\n$/, ",\n}\n");
    expect(spoiled).not.toBe(installed);
    const outcome = await rmUnder(entry, spoiled);
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stderr).toMatch(/settings\.json: .*JSON[\s\S]*Please fix the configuration file/);
    expect(outcome.ran).toBe(false);
  });
});
