// The real Gemini CLI (offline, mock model) with the entries `hookbox install-agent gemini` writes
// and a user hook selected by a permission rule in Claude Code's syntax (`match.if:
// "Bash(git commit:*)"`): Gemini's run_shell_command is Bash to the rule, so the model's
// `ls && git commit` is blocked with the hook's reason, and a line that only mentions a commit
// runs. Skipped, saying why, when the CLI cannot run here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import { findGeminiCli, runGeminiIn, type GeminiEntry } from "./gemini-cli.ts";
import { installAgent } from "./hookbox-setup.ts";
import { useTool } from "./mock-gemini.ts";

const SHELL = "run_shell_command";
const REASON = "HOOKBOX_RULE: commits go through review";
const HOOK = `id: commit-guard
events: [PreToolUse]
match:
  if: "Bash(git commit:*)"
handler:
  code: "export default () => ({ action: 'deny', reason: '${REASON}' })"
`;

const suite = clientSuite("gemini", [], () => {
  const entry = findGeminiCli();
  return entry.ok ? { ok: true, path: entry.args[0] as string, version: entry.version } : entry;
});

describe("match.if with the real Gemini CLI", () => {
  const ROWS: [command: string, blocked: boolean][] = [
    ["ls && git commit --allow-empty -m wip && echo ran > committed.txt", true],
    ["echo 'git commit-tree' > mentioned.txt", false],
  ];
  for (const [command, blocked] of ROWS)
    it(`${JSON.stringify(command)} is blocked: ${blocked}`, async (ctx) => {
      const bundle = suite.require(ctx);
      const ws = await suite.workspace(false);
      ws.write("home", { ".config/hookbox/hooks/commit-guard/hook.yaml": HOOK });
      const entry: Extract<GeminiEntry, { ok: true }> = { ok: true, command: process.execPath, args: [bundle], version: "" };
      const result = await runGeminiIn(entry, ws, {
        install: installAgent("gemini", BUILT_BINARY),
        timeoutMs: 90_000,
        prompt: "do it",
        model: { script: [useTool(SHELL, { command })] },
      });
      expectFinished(result, "gemini -p");
      const response = JSON.stringify(result.model.resultOf(SHELL)?.response);
      if (blocked) {
        expect(response).toContain(REASON);
        expect(existsSync(join(ws.project, "committed.txt"))).toBe(false);
      } else {
        expect(response).not.toContain(REASON);
        expect(readFileSync(join(ws.project, "mentioned.txt"), "utf8")).toBe("git commit-tree\n");
      }
    });
});
