// The real Claude Code CLI (offline, mock model) with a project hook selected by a permission rule
// (`match.if: "Bash(git commit:*)"`), run by `hookbox emit` as install-agent writes it: the model's
// compound `ls && git commit` is blocked with the hook's reason, a near miss (`git commit-tree`
// spelled as a string to echo) runs. Skipped, saying why, when the CLI cannot run here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { CLAUDE_EVENTS, cleanupRun, findClaudeBinary, runClaude, type ClaudeBinary, type ClaudeRun, type ClaudeRunOptions } from "./claude-code.ts";
import { toolResultText, useTool } from "./mock-anthropic.ts";

const DENIED_ID = "toolu_01HOOKBOXRULE000000000001";
const ALLOWED_ID = "toolu_01HOOKBOXRULE000000000002";
const REASON = "HOOKBOX_RULE: commits go through review";

let claude: ClaudeBinary;
const cleanups: (() => void)[] = [];
beforeAll(() => {
  claude = findClaudeBinary();
  if (!claude.ok) console.warn(`[claude-permission-rules] skipping: ${claude.reason}`);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function requireClaude(ctx: TestContext): string {
  if (!claude.ok) ctx.skip(claude.reason);
  return claude.path;
}

async function run(binary: string, options: ClaudeRunOptions): Promise<ClaudeRun> {
  const result = await runClaude(binary, { timeoutMs: 90_000, ...options });
  cleanups.push(() => cleanupRun(result));
  expect(result.timedOut, `claude -p timed out\nstderr: ${result.stderr}`).toBe(false);
  expect(result.exitCode, `claude -p failed\nstderr: ${result.stderr}`).toBe(0);
  return result;
}

describe("match.if with the real Claude Code", () => {
  it("Bash(git commit:*) selects the hook for `ls && git commit`, not for a line that only mentions it", async (ctx) => {
    const binary = requireClaude(ctx);
    const result = await run(binary, {
      prompt: "commit the work",
      model: {
        script: [
          useTool("Bash", { command: "ls && git commit --allow-empty -m wip && echo ran > committed.txt", description: "commit" }, DENIED_ID),
          useTool("Bash", { command: "echo 'git commit-tree' > mentioned.txt", description: "note" }, ALLOWED_ID),
        ],
      },
      files: {
        ".hookbox/hooks/commit-guard/hook.yaml": `id: commit-guard\nevents: [PreToolUse]\nmatch:\n  if: "Bash(git commit:*)"\nhandler:\n  code: "export default () => ({ action: 'deny', reason: '${REASON}' })"\n`,
      },
      // No --hooks: the project's own hooks, found from the event's project.
      hooks: [{ type: "command", events: CLAUDE_EVENTS, command: (event) => `${BUILT_BINARY} emit ${event} --agent claude`, timeoutSec: 60 }],
    });
    expect(existsSync(join(result.projectDir, "committed.txt")), "the compound line ran").toBe(false);
    expect(toolResultText(result.model.resultOf(DENIED_ID)!.result)).toContain(REASON);
    expect(readFileSync(join(result.projectDir, "mentioned.txt"), "utf8")).toBe("git commit-tree\n");
  });
});
