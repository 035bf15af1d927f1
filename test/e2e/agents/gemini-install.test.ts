// The real Gemini CLI (offline, mock model) with a commented .gemini/settings.json that
// `hookbox install-agent gemini` edited in place: Gemini reads it (it strips comments), runs the
// absolute binary, and a hook from the user's hook directory blocks the tool. With a trailing
// comma Gemini does not start at all, which is what install-agent's note says. Skipped, saying
// why, when the CLI cannot run here.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { cleanupGeminiRun, findGeminiCli, runGemini, type GeminiEntry } from "./gemini-cli.ts";
import { INSTALLED_DENY, installSettings, type InstalledSettings } from "./installed-settings.ts";
import { useTool } from "./mock-gemini.ts";

const SHELL = "run_shell_command";
const COMMENTED = `{
  // the team's settings
  "ui": { "hideBanner": true } /* quiet */
}
`;

let gemini: GeminiEntry;
let installed: InstalledSettings;

beforeAll(async () => {
  gemini = findGeminiCli();
  if (!gemini.ok) console.warn(`[gemini-install] skipping: ${gemini.reason}`);
  installed = await installSettings("gemini", ".gemini/settings.json", COMMENTED);
});
afterAll(() => installed.cleanup());

function requireGemini(ctx: TestContext): Extract<GeminiEntry, { ok: true }> {
  if (!gemini.ok) ctx.skip(gemini.reason);
  return gemini as Extract<GeminiEntry, { ok: true }>;
}

async function rmUnder(
  entry: Extract<GeminiEntry, { ok: true }>,
  settings: string,
): Promise<{ ran: boolean; response: unknown; exitCode: number | null; stderr: string }> {
  const run = await runGemini(entry, {
    prompt: "clean up",
    model: { script: [useTool(SHELL, { command: "rm -rf build && echo ran > ran.txt" })] },
    hooks: [],
    files: { ".gemini/settings.json": settings },
    env: { XDG_CONFIG_HOME: installed.xdgConfigHome },
    timeoutMs: 90_000,
  });
  try {
    return {
      ran: existsSync(join(run.projectDir, "ran.txt")),
      response: run.model.resultOf(SHELL)?.response,
      exitCode: run.exitCode,
      stderr: run.stderr,
    };
  } finally {
    cleanupGeminiRun(run);
  }
}

describe("Gemini CLI with the commented settings install-agent edited", () => {
  it("keeps the comments, and Gemini runs the absolute binary: a hook from the user's hook directory blocks the tool", async (ctx) => {
    expect(installed.text).toContain("// the team's settings");
    expect(installed.text).toContain("/* quiet */");
    expect(installed.output).not.toMatch(/does not accept/);
    const entry = requireGemini(ctx);
    const outcome = await rmUnder(entry, installed.text);
    expect(outcome.ran, "the denied command ran").toBe(false);
    expect(outcome.response).toEqual({ error: `Tool execution blocked: ${INSTALLED_DENY}` });
  });

  it("refuses to start when the file has a trailing comma (what install-agent's note says)", async (ctx) => {
    const entry = requireGemini(ctx);
    const spoiled = installed.text.replace(/\n}\n$/, ",\n}\n");
    expect(spoiled).not.toBe(installed.text);
    const outcome = await rmUnder(entry, spoiled);
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stderr).toMatch(/settings\.json: .*JSON[\s\S]*Please fix the configuration file/);
    expect(outcome.ran).toBe(false);
  });
});
