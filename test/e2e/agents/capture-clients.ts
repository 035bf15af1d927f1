// Regenerates captured/{codex-cli,copilot-cli,qwen-code}/ — the payloads these CLIs really send
// to hooks, paths rewritten to /home/dev/... — and the contract samples made from them
// (test/contracts/samples/<agent>/captured-*.json). Run: npx tsx test/e2e/agents/capture-clients.ts
// Review the diff, then `UPDATE_GOLDEN=1 HOOKBOX_SKIP_BUILD=1 npx vitest run test/contracts`.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentName } from "../../../src/agents/protocols.ts";
import { CLIENTS, findClient, type ClientName } from "./clients.ts";
import { runCodex } from "./codex-cli.ts";
import { runCopilot } from "./copilot-cli.ts";
import { HookRecorder } from "./hook-recorder.ts";
import { CUSTOM_INPUT, useTool } from "./mock-openai.ts";
import { runQwen } from "./qwen-code.ts";
import { AgentWorkspace } from "./workspace.ts";

const OUT = join(import.meta.dirname, "captured");
const SAMPLES = resolve(import.meta.dirname, "../../contracts/samples");

/** Scratch paths (also in the dashed project-key form Qwen uses), ports and epoch timestamps made stable. */
function normalize(text: string, ws: AgentWorkspace): string {
  return text
    .replaceAll(ws.root.replaceAll("/", "-"), "-home-dev")
    .replaceAll(ws.root, "/home/dev")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
}

function found(name: ClientName): string {
  const client = findClient(name);
  if (!client.ok) throw new Error(client.reason);
  return client.path;
}

interface Capture {
  readonly client: ClientName;
  readonly dir: string;
  readonly agent: AgentName;
  readonly label: string;
  /** The `hookbox emit <EVENT>` a payload needs when it names no event itself. */
  readonly eventNameNeeded: boolean;
  /** Events whose payload carries nothing that tells it from Claude's: auto-detection says Claude (whose answers the client takes). */
  readonly readAsClaude?: ReadonlySet<string>;
}

/** The first payload of each event (per tool for tool events) into captured/<dir>/<Event>[-<tool>].json and a contract sample. */
function save(capture: Capture, hooks: HookRecorder, ws: AgentWorkspace, prefix = ""): void {
  mkdirSync(join(OUT, capture.dir), { recursive: true });
  mkdirSync(join(SAMPLES, capture.agent), { recursive: true });
  const seen = new Set<string>();
  for (const call of hooks.calls()) {
    const tool = call.payload.tool_name ?? call.payload.toolName;
    const name = `${prefix}${call.event}${typeof tool === "string" && !["Bash", "bash", "run_shell_command"].includes(tool) ? `-${tool}` : ""}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const payload = JSON.parse(normalize(JSON.stringify(call.payload), ws)) as unknown;
    writeFileSync(join(OUT, capture.dir, `${name}.json`), `${JSON.stringify(payload, null, 2)}\n`);
    const sample = {
      source: `captured from ${capture.label} ${CLIENTS[capture.client].version} (test/e2e/agents/captured/${capture.dir}/${name}.json)`,
      ...(capture.eventNameNeeded && call.payload.hook_event_name === undefined && { eventName: call.event }),
      ...(capture.readAsClaude?.has(call.event) && { detectsAs: "claude" }),
      payload,
    };
    writeFileSync(join(SAMPLES, capture.agent, `captured-${name.toLowerCase()}.json`), `${JSON.stringify(sample, null, 2)}\n`);
  }
}

function reset(capture: Capture): void {
  mkdirSync(join(SAMPLES, capture.agent), { recursive: true });
  rmSync(join(OUT, capture.dir), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  for (const file of readdirSync(join(SAMPLES, capture.agent), { withFileTypes: true }).filter((entry) => entry.name.startsWith("captured-")))
    rmSync(join(SAMPLES, capture.agent, file.name));
}

const PATCH = "*** Begin Patch\n*** Add File: notes.txt\n+hookbox was here\n*** End Patch\n";
const SHELL = "echo hookbox-was-here > allowed.txt && echo wrote";

async function captureCodex(): Promise<void> {
  // Codex's SessionStart (no turn_id) and SessionEnd are Claude's fields exactly (see samples/codex/synthetic-sessionstart.json).
  const capture: Capture = {
    client: "codex",
    dir: "codex-cli",
    agent: "codex",
    label: "Codex CLI",
    eventNameNeeded: false,
    readAsClaude: new Set(["SessionStart", "SessionEnd"]),
  };
  reset(capture);
  const ws = new AgentWorkspace();
  const hooks = new HookRecorder();
  const events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];
  await runCodex(found("codex"), ws, {
    prompt: "write the files",
    model: { script: [useTool("exec_command", { cmd: SHELL }, "call_shell"), useTool("apply_patch", { [CUSTOM_INPUT]: PATCH }, "call_patch")] },
    install: (w) =>
      w.mergeJson("home", ".codex/hooks.json", {
        hooks: Object.fromEntries(
          events.map((e) => [e, [{ hooks: [{ type: "command", command: hooks.command(e), timeout: e === "SessionEnd" ? 3 : 30 }] }]]),
        ),
      }),
  });
  save(capture, hooks, ws);
  hooks.cleanup();
  ws.cleanup();
}

async function captureCopilot(): Promise<void> {
  const capture: Capture = { client: "copilot", dir: "copilot-cli", agent: "copilot", label: "Copilot CLI", eventNameNeeded: true };
  reset(capture);
  // Copilot picks the payload's dialect from how the event is spelled: camelCase, or VS Code's PascalCase.
  for (const [prefix, events] of [
    ["", ["sessionStart", "userPromptSubmitted", "preToolUse", "permissionRequest", "postToolUse", "agentStop", "sessionEnd"]],
    ["vscode-", ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]],
  ] as const) {
    const ws = new AgentWorkspace();
    const hooks = new HookRecorder();
    await runCopilot(found("copilot"), ws, {
      prompt: "write the files",
      model: {
        script: [
          useTool("bash", { command: SHELL, description: "write" }, "call_shell"),
          useTool("apply_patch", { [CUSTOM_INPUT]: PATCH }, "call_patch"),
        ],
      },
      install: (w) =>
        w.mergeJson("home", ".copilot/hooks/capture.json", {
          version: 1,
          hooks: Object.fromEntries(events.map((e) => [e, [{ type: "command", bash: hooks.command(e), timeoutSec: 30 }]])),
        }),
    });
    save(capture, hooks, ws, prefix);
    hooks.cleanup();
    ws.cleanup();
  }
}

async function captureQwen(): Promise<void> {
  const capture: Capture = { client: "qwen", dir: "qwen-code", agent: "qwen", label: "Qwen Code", eventNameNeeded: false };
  reset(capture);
  const ws = new AgentWorkspace();
  const hooks = new HookRecorder();
  const events = [
    "SessionStart",
    "Notification",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SessionEnd",
  ];
  await runQwen(found("qwen"), ws, {
    prompt: "write the files",
    model: {
      script: [
        useTool("run_shell_command", { command: SHELL, description: "write" }, "call_shell"),
        useTool("write_file", { file_path: join(ws.project, "notes.txt"), content: "hookbox was here\n" }, "call_write"),
        useTool("edit", { file_path: join(ws.project, "notes.txt"), old_string: "was", new_string: "is" }, "call_edit"),
        useTool("read_file", { file_path: join(ws.project, "missing.txt") }, "call_read_missing"),
      ],
    },
    install: (w) =>
      w.mergeJson("home", ".qwen/settings.json", {
        hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: "command", command: hooks.command(e), timeout: 30 }] }]])),
      }),
  });
  save(capture, hooks, ws);
  hooks.cleanup();
  ws.cleanup();
}

await captureCodex();
await captureCopilot();
await captureQwen();
console.log(`captured into ${OUT} and ${SAMPLES}/<agent>/captured-*.json`);
