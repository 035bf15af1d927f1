// Shadow mode in the real Claude Code (offline, mock model), with the entries `hookbox install-agent
// claude` writes and a daemon serving them with its web console: guard-secrets marked `mode:
// monitor` in the operator file lets the .env write through — the file is written, the model sees
// success — while its would-be block is in `hookbox runs --would-block` and on the console's Shadow
// page. `hookbox promote guard-secrets` shows that block, takes the mode out of the operator file,
// and the next .env write is blocked. Skipped, saying why, when Claude Code cannot run here.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { call } from "../../helpers/daemon.ts";
import { findClaudeBinary, runClaudeIn } from "./claude-code.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import { installAgent, startDaemon } from "./hookbox-setup.ts";
import { toolResultText, useTool, lastToolResults } from "./mock-anthropic.ts";
import type { AgentWorkspace } from "./workspace.ts";

const suite = clientSuite("claude", [], () => findClaudeBinary());

const operatorFile = (ws: AgentWorkspace): string => join(ws.home, ".config/hookbox/hookbox.yaml");

async function writeEnv(binary: string, ws: AgentWorkspace, id: string) {
  const result = await runClaudeIn(binary, ws, {
    prompt: "store the key",
    timeoutMs: 120_000,
    model: { script: [useTool("Write", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, id)] },
  });
  expectFinished(result, "claude -p");
  const next = result.model.resultOf(id);
  const block = next ? lastToolResults(next.request).find((candidate) => candidate.tool_use_id === id) : undefined;
  return block ? toolResultText(block) : "";
}

describe("a guard in shadow mode (mode: monitor) in the real Claude Code", () => {
  it("lets the .env write through, shows its would-be block in runs --would-block and the console; after promote, it blocks", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(false);
    writeFileSync(
      operatorFile(ws),
      "# the operator's own file\nbuiltin: [guard-secrets, bash-guard]\ndaemon: { auto_start: false }\nhooks:\n  guard-secrets: { mode: monitor }   # see what it would block first\n",
    );
    await installAgent("claude", BUILT_BINARY)(ws);
    const daemon = await startDaemon(ws, BUILT_BINARY, ["--console", "127.0.0.1:0"]);
    try {
      // Shadow: the write goes through, and the model is told so.
      const result = await writeEnv(binary, ws, "toolu_01SHADOWENV00000000000001");
      expect(readFileSync(join(ws.project, ".env"), "utf8")).toBe("API_KEY=leaked\n");
      expect(result).not.toMatch(/hook error|guard-secrets/);

      // What it would have blocked: the run record, through hookbox runs.
      const runs = await runProgram([BUILT_BINARY, "runs", "--would-block", "--json"], { cwd: ws.project, env: ws.baseEnv() });
      expect(runs.code, runs.stderr).toBe(0);
      const records = runs.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { hook_id: string; mode?: string; status: string; would?: { decision: string; reason?: string } });
      expect(records).toEqual([
        expect.objectContaining({
          hook_id: "guard-secrets",
          mode: "monitor",
          status: "completed",
          would: expect.objectContaining({ decision: "deny" }),
        }),
      ]);
      expect(records[0]?.would?.reason).toMatch(/\.env/);
      const text = await runProgram([BUILT_BINARY, "runs", "--would-block"], { cwd: ws.project, env: ws.baseEnv() });
      expect(text.stdout).toMatch(/would-deny\s+guard-secrets\s+PreToolUse .*\.env.*\(monitor mode\)/);

      // The same over the daemon's HTTP API.
      const socket = join(ws.runtimeDir, "hookbox", "hookbox.sock");
      const api = (await call(socket, "GET", "/v1/runs?would_block=true")).json as { runs: { hook_id: string; would?: { decision: string } }[] };
      expect(api.runs).toEqual([expect.objectContaining({ hook_id: "guard-secrets", would: expect.objectContaining({ decision: "deny" }) })]);
      expect((await call(socket, "GET", "/v1/runs?would_block=perhaps")).status).toBe(400);

      // And on the console's Shadow page (signed in with the daemon's one-time link).
      const login = /sign in \(once, within 10 minutes\) at (http:\/\/127\.0\.0\.1:\d+\/login\?token=[0-9a-f]{64})/.exec(daemon.stderr)?.[1];
      expect(login, daemon.stderr).toBeDefined();
      const signedIn = await fetch(login as string, { redirect: "manual" });
      const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const page = await (await fetch(`${new URL(login as string).origin}/shadow`, { headers: { cookie } })).text();
      expect(page).toContain("Hooks in shadow mode");
      expect(page).toMatch(/<strong>guard-secrets<\/strong> — would have blocked 1 call/);
      expect(page).toContain(join(ws.project, ".env"));

      // promote: shows the would-be block, takes the mode out of the operator file (its comment kept), and it decides.
      const promoted = await runProgram([BUILT_BINARY, "promote", "guard-secrets", "--yes"], { cwd: ws.project, env: ws.baseEnv() });
      expect(promoted.code, promoted.stderr).toBe(0);
      expect(promoted.stderr).toMatch(/guard-secrets would have blocked 1 call so far/);
      expect(promoted.stderr).toContain(join(ws.project, ".env"));
      expect(promoted.stdout).toMatch(/^promoted guard-secrets: it decides from now on/);
      const after = readFileSync(operatorFile(ws), "utf8");
      expect(after).not.toContain("mode: monitor");
      expect(after).toContain("# the operator's own file");
      rmSync(join(ws.project, ".env"));
      const blocked = await writeEnv(binary, ws, "toolu_01SHADOWENV00000000000002");
      expect(existsSync(join(ws.project, ".env")), "the .env was written after promote").toBe(false);
      expect(blocked).toMatch(/^PreToolUse:Write hook error: guard-secrets: /);

      // Nothing left to promote.
      const again = await runProgram([BUILT_BINARY, "promote", "guard-secrets", "--yes"], { cwd: ws.project, env: ws.baseEnv() });
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/guard-secrets is not in monitor mode/);
    } finally {
      await daemon.stop();
    }
  });
});
