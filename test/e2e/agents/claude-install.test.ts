// The real Claude Code CLI (offline, mock model) with the settings `hookbox install-agent claude`
// wrote: the entries run the binary by its absolute path, with no flags, and Hookbox finds the
// user's hooks on its own. And why install-agent warns about comments in Claude's settings:
// Claude Code then ignores the whole file, Hookbox's hooks included. Skipped, saying why, when
// the CLI cannot run here.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { cleanupRun, findClaudeBinary, runClaude, type ClaudeBinary } from "./claude-code.ts";
import { toolResultText, useTool } from "./mock-anthropic.ts";

const TOOL_ID = "toolu_01HOOKBOXINSTALL000000001";
const DENY = "HOOKBOX_INSTALLED_DENY: rm is not allowed";
const NO_RM = `id: no-rm
events: [PreToolUse]
match: { tool: Bash, fields: { tool_input.command: "(^|[;&|]\\\\s*)rm\\\\s" } }
handler: { code: "export default () => ({ action: 'deny', reason: '${DENY}' })" }
`;

let claude: ClaudeBinary;
let root: string;
/** XDG_CONFIG_HOME for Claude's hooks: hookbox/hooks/no-rm.yaml, the user's own hook directory. */
let xdgConfig: string;
/** .claude/settings.json as install-agent wrote it. */
let installed: string;

beforeAll(async () => {
  claude = findClaudeBinary();
  if (!claude.ok) console.warn(`[claude-install] skipping: ${claude.reason}`);
  root = mkdtempSync(join(tmpdir(), "hookbox-claude-install-"));
  const binary = join(root, "bin", "hookbox");
  mkdirSync(join(root, "bin"));
  copyFileSync(BUILT_BINARY, binary);
  chmodSync(binary, 0o755);
  xdgConfig = join(root, "config");
  mkdirSync(join(xdgConfig, "hookbox", "hooks"), { recursive: true });
  writeFileSync(join(xdgConfig, "hookbox", "hooks", "no-rm.yaml"), NO_RM);
  const project = join(root, "project");
  mkdirSync(project);
  const install = await runProgram([binary, "install-agent", "claude"], { cwd: project, env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" } });
  expect(install.code, install.stderr).toBe(0);
  installed = readFileSync(join(project, ".claude", "settings.json"), "utf8");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function requireClaude(ctx: TestContext): string {
  if (!claude.ok) ctx.skip(claude.reason);
  return claude.path;
}

/** Claude Code with `settings` as the project's .claude/settings.json, asked to run `rm -rf build`: did the rm run, and what did the model get back? */
async function rmUnder(binary: string, settings: string): Promise<{ ran: boolean; result: string }> {
  const run = await runClaude(binary, {
    prompt: "clean up the build",
    model: { script: [useTool("Bash", { command: "rm -rf build && echo ran > ran.txt", description: "clean" }, TOOL_ID)] },
    hooks: [],
    files: { ".claude/settings.json": settings },
    env: { XDG_CONFIG_HOME: xdgConfig },
    timeoutMs: 90_000,
  });
  try {
    expect(run.exitCode, `claude -p failed\nstderr: ${run.stderr}`).toBe(0);
    return { ran: existsSync(join(run.projectDir, "ran.txt")), result: toolResultText(run.model.resultOf(TOOL_ID)!.result) };
  } finally {
    cleanupRun(run);
  }
}

describe("Claude Code with the settings install-agent wrote", () => {
  it("runs the absolute binary with no flags, and a hook from the user's hook directory blocks the tool", async (ctx) => {
    const binary = requireClaude(ctx);
    const outcome = await rmUnder(binary, installed);
    expect(outcome.ran, "the denied command ran").toBe(false);
    expect(outcome.result).toContain(DENY);
  });

  it.for([
    ["a comment", (text: string) => `// hooks by hookbox\n${text}`],
    ["a trailing comma", (text: string) => text.replace(/\n}\n$/, ",\n}\n")],
  ] as const)("ignores the whole file, Hookbox's hooks included, when it has %s (what install-agent's note says)", async ([, spoil], ctx) => {
    const binary = requireClaude(ctx);
    expect(spoil(installed)).not.toBe(installed);
    const outcome = await rmUnder(binary, spoil(installed));
    expect(outcome.ran).toBe(true);
    expect(outcome.result).not.toContain(DENY);
  });
});
