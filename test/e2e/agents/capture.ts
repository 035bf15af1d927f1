// Regenerates captured/: the payloads Claude Code and Gemini CLI really send to hooks, with the
// scratch paths rewritten to /home/dev/... Run: npx tsx test/e2e/agents/capture.ts
import { createServer } from "node:http";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupRun, findClaudeBinary, runClaude } from "./claude-code.ts";
import { cleanupGeminiRun, findGeminiCli, runGemini } from "./gemini-cli.ts";
import { HookRecorder } from "./hook-recorder.ts";
import { closeServer, listenLocal, parseJson, readBody, sendJson } from "./local-http.ts";
import { useTool } from "./script.ts";

const OUT = join(import.meta.dirname, "captured");
const CLAUDE_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolBatch",
  "MessageDisplay",
  "Stop",
  "SessionEnd",
];
const GEMINI_EVENTS = ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"];

/** Scratch paths (also in Claude's dashed project-key form) and PIDs made stable. */
function normalize(text: string, projectDir: string): string {
  const scratch = projectDir.replace(/\/project$/, "");
  return text
    .replaceAll(scratch.replaceAll("/", "-"), "-home-dev")
    .replaceAll(scratch, "/home/dev")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/Process Group PGID: \d+/g, "Process Group PGID: 12345");
}

function save(agent: string, name: string, value: unknown, projectDir: string): void {
  mkdirSync(join(OUT, agent), { recursive: true });
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  writeFileSync(join(OUT, agent, name), `${normalize(text, projectDir).trimEnd()}\n`);
}

/** The first payload of each event. */
function saveFirstOfEach(agent: string, hooks: HookRecorder, projectDir: string): void {
  const seen = new Set<string>();
  for (const call of hooks.calls()) {
    if (seen.has(call.event)) continue;
    seen.add(call.event);
    save(agent, `${call.event}.json`, call.payload, projectDir);
  }
}

rmSync(OUT, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });

const claude = findClaudeBinary();
if (!claude.ok) throw new Error(claude.reason);
const claudeHooks = new HookRecorder();
const claudeRun = await runClaude(claude.path, {
  prompt: "write the file",
  model: {
    script: [
      useTool("Bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, "toolu_01HOOKBOXE2E0000000000001"),
    ],
  },
  hooks: [{ type: "command", events: CLAUDE_EVENTS, command: claudeHooks.command }],
});
saveFirstOfEach("claude-code", claudeHooks, claudeRun.projectDir);
save("claude-code", "stream-json.jsonl", claudeRun.events.map((event) => JSON.stringify(event)).join("\n"), claudeRun.projectDir);
cleanupRun(claudeRun);
claudeHooks.cleanup();

const requests: unknown[] = [];
const server = createServer((req, res) => {
  void readBody(req).then((raw) => {
    requests.push({ method: req.method, url: req.url, headers: req.headers, body: parseJson(raw) });
    sendJson(res, 200, {});
  });
});
const baseUrl = await listenLocal(server);
const httpRun = await runClaude(claude.path, {
  prompt: "write the file",
  model: { script: [useTool("Bash", { command: "echo wrote", description: "write" }, "toolu_01HOOKBOXE2E0000000000001")] },
  hooks: [
    {
      type: "http",
      events: ["PreToolUse"],
      url: (event) => `${baseUrl}/hooks/${event}`,
      headers: { Authorization: "Bearer $HOOKBOX_E2E_TOKEN" },
      allowedEnvVars: ["HOOKBOX_E2E_TOKEN"],
    },
  ],
  env: { HOOKBOX_E2E_TOKEN: "e2e-token-123" },
});
await closeServer(server);
save("claude-code", "http-PreToolUse-request.json", requests[0], httpRun.projectDir);
cleanupRun(httpRun);

const gemini = findGeminiCli();
if (!gemini.ok) throw new Error(gemini.reason);
const geminiHooks = new HookRecorder();
const geminiRun = await runGemini(gemini, {
  prompt: "write the file",
  model: { script: [useTool("run_shell_command", { command: "echo hookbox-was-here > allowed.txt" })] },
  hooks: [{ events: GEMINI_EVENTS, command: geminiHooks.command }],
});
saveFirstOfEach("gemini-cli", geminiHooks, geminiRun.projectDir);
save("gemini-cli", "stream-json.jsonl", geminiRun.events.map((event) => JSON.stringify(event)).join("\n"), geminiRun.projectDir);
cleanupGeminiRun(geminiRun);
geminiHooks.cleanup();
console.log(`captured: ${claude.version}, Gemini CLI ${gemini.version} → ${OUT}`);
