import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

// Issue 16's forms, as an attacker tried them against the binary: each one through
// `hookbox emit` with the standard guards enabled (--builtin guard-secrets,bash-guard), in the
// agent's own payload shape, from a real workspace (so a symbolic link really points at .env).
// Denied in the agent's own words; the near misses pass.

let root: string;
let ws: string;
let world: DaemonWorld;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-guards-")));
  ws = join(root, "project");
  mkdirSync(join(ws, "src"), { recursive: true });
  writeFileSync(join(ws, ".env"), "K=1\n");
  writeFileSync(join(ws, ".env.example"), "K=\n");
  writeFileSync(join(ws, "src/app.ts"), "export {}\n");
  symlinkSync(".env", join(ws, "notes.txt"));
  world = new DaemonWorld();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  world.cleanup();
});

/** `hookbox emit` as the agent runs it, from the workspace: without a daemon unless `daemon` (then the running serve answers). */
function emit(agent: string, event: string, payload: object, daemon = false): Promise<RunResult> {
  const args = ["emit", event, "--agent", agent, ...(daemon ? [] : ["--builtin", "guard-secrets,bash-guard"])];
  return runProgram([BUILT_BINARY, ...args], { stdin: JSON.stringify(payload), env: world.env(), cwd: ws });
}

const claude = (tool_name: string, tool_input: object): object => ({
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: ws,
  prompt_id: "p1",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name,
  tool_input,
  tool_use_id: "toolu_1",
});
const codexPatch = (patch: string): object => ({
  session_id: "s1",
  turn_id: "1",
  transcript_path: null,
  cwd: ws,
  hook_event_name: "PreToolUse",
  model: "gpt-5-codex",
  permission_mode: "default",
  tool_name: "apply_patch",
  tool_input: { command: patch },
  tool_use_id: "call_1",
});
const cursor = (tool_name: string, tool_input: object): object => ({
  conversation_id: "c1",
  generation_id: "g1",
  cursor_version: "2.0.77",
  workspace_roots: [ws],
  user_email: null,
  hook_event_name: "preToolUse",
  session_id: "c1",
  tool_name,
  tool_input,
  tool_use_id: "t1",
});

/** Claude's deny: JSON on stdout with permissionDecision "deny". */
function claudeDenied(out: RunResult): string | undefined {
  if (out.stdout.trim() === "") return undefined;
  const answer = JSON.parse(out.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  return answer.hookSpecificOutput?.permissionDecision === "deny" ? answer.hookSpecificOutput.permissionDecisionReason : undefined;
}

const BASH_FORMS: [string, string, string][] = [
  ["a redirection to a glob bash expands to .env", "echo K=2 > .en?", ".en?"],
  ["cp onto a glob", "cp /tmp/x .e*", ".e*"],
  ["tee to a glob", "echo K=2 | tee .en?", ".en?"],
  ["python3 -c open('.env','w')", `python3 -c "open('.env','w').write('x')"`, ".env"],
  ["node -e writeFileSync", `node -e "require('fs').writeFileSync('.env','x')"`, ".env"],
  ["awk print > .env", `awk '{print > ".env"}' src/app.ts`, ".env"],
  ["git checkout other -- .env", "git checkout other -- .env", ".env"],
  ["F=.env; > $F", "F=.env; echo K=2 > $F", ".env"],
  ["> $(echo .env)", "echo K=2 > $(echo .env)", ".env"],
  ["> $F with F set nowhere", 'echo K=2 > "$F"', "$F"],
];

describe("issue 16: the guards hold against these forms (the binary, --builtin guard-secrets,bash-guard)", () => {
  for (const [name, command, shown] of BASH_FORMS) {
    it(`Bash: ${name} is denied`, async () => {
      const out = await emit("claude", "PreToolUse", claude("Bash", { command }));
      expect(out.code, out.stderr).toBe(0);
      expect(claudeDenied(out), out.stdout).toContain(shown);
    });
  }

  it("Codex: apply_patch adding .env under an indented and a tab-padded header is denied (exit 2, reason on stderr)", async () => {
    for (const header of ["   *** Add File: .env", "\t*** Add File:\t.env "]) {
      const out = await emit("codex", "PreToolUse", codexPatch(`*** Begin Patch\n${header}\n+K=2\n*** End Patch\n`));
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(".env");
    }
  });

  it("MCP: relative_path, pathInProject, file, filename, uri and files: [{path}] naming .env are denied", async () => {
    const inputs: [string, object][] = [
      ["mcp__serena__create_text_file", { relative_path: ".env", content: "K=2" }],
      ["mcp__jetbrains__replace_text_in_file", { pathInProject: ".env", oldText: "1", newText: "2" }],
      ["mcp__fs__write", { file: ".env", content: "K=2" }],
      ["mcp__notes__save", { filename: ".env", text: "K=2" }],
      ["mcp__docs__insert", { uri: `file://${ws}/.env`, text: "K=2" }],
      ["mcp__github__push_files", { owner: "o", repo: "r", branch: "b", files: [{ path: ".env", content: "K=2" }] }],
      ["mcp__storage__put_object", { path: ".env", body: "K=2" }],
      ["mcp__editor__replace_lines", { file_path: ".env", text: "K=2" }],
    ];
    for (const [tool, input] of inputs) expect(claudeDenied(await emit("claude", "PreToolUse", claude(tool, input))), tool).toContain(".env");
  });

  it("Cursor: TabWrite of .env is denied (permission deny)", async () => {
    const out = await emit("cursor", "preToolUse", cursor("TabWrite", { file_path: join(ws, ".env"), contents: "K=2" }));
    expect(JSON.parse(out.stdout)).toMatchObject({ permission: "deny" });
    expect(out.stdout).toContain(".env");
  });

  it("a Write to a symbolic link that points at .env is denied: the host resolves the link, the guard needs no grant", async () => {
    const reason = claudeDenied(await emit("claude", "PreToolUse", claude("Write", { file_path: "notes.txt", content: "K=2" })));
    expect(reason).toContain("notes.txt (a symbolic link to");
    expect(reason).toContain(".env");
  });

  it("the same through a running daemon (emit hands the event to serve, which resolves the link)", async () => {
    // The operator file both the daemon and emit read: they resolve the same hook set.
    const configDir = join(world.home, ".config", "hookbox");
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, "hookbox.yaml"), "builtin: [guard-secrets, bash-guard]\n");
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, [], {}, { defaultHooks: true });
    try {
      const out = await emit("claude", "PreToolUse", claude("Write", { file_path: "notes.txt", content: "K=2" }), true);
      expect(out.stderr, "the daemon answered").toBe("");
      expect(claudeDenied(out), out.stderr).toContain("a symbolic link to");
    } finally {
      await daemon.stop();
    }
  });

  it("near misses pass: reading .env, writing env.txt and .env.example, an ordinary Write, sources through a loop", async () => {
    const allowed: object[] = [
      claude("Bash", { command: "cat .env | grep -c K; echo x > env.txt; cp .env.example .env.test.example" }),
      claude("Bash", { command: 'for f in src/*.ts; do sed -i \'s/a/b/\' "$f"; done; tmp=$(mktemp); echo x > "$tmp"' }),
      claude("Write", { file_path: ".env.example", content: "K=\n" }),
      claude("Write", { file_path: "src/app.ts", content: "export const a = 1;\n" }),
      claude("mcp__serena__create_text_file", { relative_path: "src/new.ts", content: "x" }),
    ];
    for (const payload of allowed) {
      const out = await emit("claude", "PreToolUse", payload);
      expect(out.code, out.stderr).toBe(0);
      expect(claudeDenied(out), out.stdout).toBeUndefined();
    }
  });
});
