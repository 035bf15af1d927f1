// The Hookbox side of the real-client suites: the operator file enabling the standard guards, a
// project hook that injects context, a daemon on the workspace's socket, the audit log, and
// `hookSettingsFor(agent, hookbox)` — each client's hook settings pointing at `hookbox emit`,
// written by hand until `hookbox install-agent <agent>` covers every client (then that one
// function becomes a call to install-agent).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { DaemonProcess, call, type DaemonWorld } from "../../helpers/daemon.ts";
import type { SdkHookCallback } from "./claude-agent-sdk.ts";
import type { CodexHooksFile } from "./codex-trust.ts";
import { shellQuote } from "./hook-recorder.ts";
import { opencodePlugin } from "./opencode-plugin.ts";
import type { AgentWorkspace } from "./workspace.ts";

/** The standard guards every suite runs, enabled the way an operator would: in ~/.config/hookbox/hookbox.yaml. */
export const STANDARD_GUARDS = ["guard-secrets", "bash-guard"] as const;

/** What the project hook injects, per native event: a test finds it in the model's requests. */
export const contextMarker = (event: string): string => `HOOKBOX_CTX_${event}`;

/** A hook in the project's own .hookbox/hooks/, injecting context on the events agents carry it on. */
const CONTEXT_HOOK = `id: project-context-e2e
events: [SessionStart, UserPromptSubmit, PostToolUse]
permissions: { inject_context: true }
handler: { code: "export default (e) => ({ context_injection: 'HOOKBOX_CTX_' + e.event_type })" }
`;

/** The native events a witness hook in the project sees; its audit records show which of them each client fired. */
export const WITNESSED_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"] as const;

const WITNESS_HOOK = `id: witness
events: [${WITNESSED_EVENTS.join(", ")}]
handler: { code: "export default () => ({})" }
`;

/**
 * Operator file and project hooks: the Hookbox setup every real-client test starts from. The
 * project is trusted (`hookbox trust`), as its user would: untrusted, its context hook would run
 * without the inject_context grant.
 */
export function setUpHookbox(ws: AgentWorkspace, hookbox = BUILT_BINARY): void {
  ws.write("home", { ".config/hookbox/hookbox.yaml": `builtin: [${STANDARD_GUARDS.join(", ")}]\n` });
  ws.write("project", { ".hookbox/hooks/context.yaml": CONTEXT_HOOK, ".hookbox/hooks/witness.yaml": WITNESS_HOOK });
  execFileSync(hookbox, ["trust"], { cwd: ws.project, env: ws.baseEnv(), stdio: "ignore" });
}

/** The native events the witness hook saw, in order of first sight. */
export function witnessedEvents(ws: AgentWorkspace): string[] {
  return [...new Set(auditRecords(ws).filter((record) => record.hook_id === "witness").map((record) => record.event_type))];
}

/** `hookbox serve` on the workspace's socket, loading the same operator file and project hooks `emit` would. */
export async function startDaemon(ws: AgentWorkspace, hookbox: string): Promise<DaemonProcess> {
  const world: DaemonWorld = {
    dir: ws.project,
    home: ws.home,
    runtimeDir: ws.runtimeDir,
    hooks: join(ws.project, ".hookbox/hooks"),
    socket: join(ws.runtimeDir, "hookbox", "hookbox.sock"),
    auditFile: auditFile(ws),
    env: (extra = {}) => ({ ...ws.baseEnv(), ...extra }),
    cleanup: () => undefined,
  } as unknown as DaemonWorld;
  // No --hooks: the daemon resolves each event's project as emit does, so emit's hook set is its.
  return DaemonProcess.start([hookbox], world, ["--workers", "1"], {}, { defaultHooks: true });
}

/**
 * The events the daemon evaluated, by native type (its hookbox_events_total): proof that
 * `hookbox emit` reached it rather than evaluating in its own process.
 */
export async function daemonEvents(ws: AgentWorkspace): Promise<Record<string, number>> {
  const reply = await call(join(ws.runtimeDir, "hookbox", "hookbox.sock"), "GET", "/metrics");
  const counts: Record<string, number> = {};
  for (const match of reply.text.matchAll(/^hookbox_events_total\{[^}]*event_type="([^"]+)"[^}]*\} (\d+)/gm)) {
    counts[match[1] as string] = (counts[match[1] as string] ?? 0) + Number(match[2]);
  }
  return counts;
}

export interface AuditRecord {
  readonly event_type: string;
  readonly hook_id: string;
  readonly status: string;
  readonly agent?: string;
  readonly [key: string]: unknown;
}

export function auditFile(ws: AgentWorkspace): string {
  return join(ws.home, ".local/share/hookbox/audit/hookbox-audit.jsonl");
}

/** Every audit record so far (emit in-process and the daemon write the same file under the scratch HOME). */
export function auditRecords(ws: AgentWorkspace): AuditRecord[] {
  const file = auditFile(ws);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditRecord);
}

/** Writes one client's hook settings into a workspace. */
export type HookInstaller = (ws: AgentWorkspace) => void;

export type SettingsAgent = "claude" | "codex" | "copilot" | "qwen" | "opencode";

export interface HookSettingsOptions {
  /** Leave out `--agent`, so `hookbox emit` detects the dialect from the payload. */
  readonly detect?: boolean;
}

/** The events each client is wired for, in its own names. */
const EVENTS: Readonly<Record<Exclude<SettingsAgent, "opencode">, readonly string[]>> = {
  claude: ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"],
  codex: ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"],
  copilot: ["sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "sessionEnd"],
  qwen: ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"],
};

/** Timeouts as install-agent writes them (src/install/plan.ts), in seconds. */
function timeoutSec(event: string): number {
  if (/^(pre|Pre)ToolUse$/.test(event)) return 120;
  if (/^(session|Session)End$/.test(event)) return 10;
  return 30;
}

/** Codex runs SessionEnd hooks for at most 3 s (it clamps longer timeouts). */
const CODEX_SESSION_END_SEC = 3;

function emitCommand(hookbox: string, event: string, agent: string, options: HookSettingsOptions): string {
  return `${shellQuote(hookbox)} emit ${event}${options.detect ? "" : ` --agent ${agent}`}`;
}

/** Claude's grouped shape, which Codex and Qwen Code read too: { hooks: { <Event>: [{ hooks: [handler] }] } }. */
function groupedHooks(events: readonly string[], handler: (event: string) => Record<string, unknown>): CodexHooksFile {
  return { hooks: Object.fromEntries(events.map((event) => [event, [{ hooks: [handler(event)] }]])) };
}

/**
 * Each client's hook settings calling `hookbox emit` for the events of EVENTS, where that client
 * reads them: Claude Code (and the Agent SDK) `.claude/settings.json`; Codex `$CODEX_HOME/hooks.json`
 (trusted separately: codex-cli.ts); Copilot CLI `~/.copilot/hooks/hookbox.json`;
 * Qwen Code `~/.qwen/settings.json` (seconds since 0.24: 1000 and more still read as milliseconds); opencode a plugin in
 * `~/.config/opencode/plugin/` (it has no command hooks).
 */
export function hookSettingsFor(agent: SettingsAgent, hookbox: string, options: HookSettingsOptions = {}): HookInstaller {
  switch (agent) {
    case "claude":
      return (ws) => ws.mergeJson("project", ".claude/settings.json", groupedHooks(EVENTS.claude, (event) => ({ type: "command", command: emitCommand(hookbox, event, "claude", options), timeout: timeoutSec(event) })));
    case "codex":
      return (ws) => ws.mergeJson("home", ".codex/hooks.json", groupedHooks(EVENTS.codex, (event) => ({ type: "command", command: emitCommand(hookbox, event, "codex", options), timeout: event === "SessionEnd" ? CODEX_SESSION_END_SEC : timeoutSec(event) })));
    case "copilot":
      return (ws) =>
        ws.mergeJson("home", ".copilot/hooks/hookbox.json", {
          version: 1,
          hooks: Object.fromEntries(EVENTS.copilot.map((event) => [event, [{ type: "command", bash: emitCommand(hookbox, event, "copilot", options), timeoutSec: timeoutSec(event) }]])),
        });
    case "qwen":
      return (ws) => ws.mergeJson("home", ".qwen/settings.json", groupedHooks(EVENTS.qwen, (event) => ({ type: "command", command: emitCommand(hookbox, event, "qwen", options), timeout: timeoutSec(event) })));
    case "opencode":
      return (ws) => ws.write("home", { ".config/opencode/plugin/hookbox.js": opencodePlugin(hookbox) });
  }
}

/**
 * A Claude Agent SDK hook callback that asks Hookbox: the SDK's hook input goes to
 * `hookbox emit <event> --agent claude` (through the workspace's daemon when one runs) and
 * Claude's hook JSON comes back, which the SDK reads as it reads a command hook's answer. If
 * Hookbox cannot answer, the callback throws, and a matcher with `onFailure: "block"` blocks.
 */
export function hookboxCallback(hookbox: string, ws: AgentWorkspace, event: string): SdkHookCallback {
  return async (input) => {
    const run = await runProgram([hookbox, "emit", event, "--agent", "claude"], { stdin: JSON.stringify(input), env: ws.baseEnv(), cwd: ws.project, timeoutMs: 120_000 });
    if (run.code === 2) return { decision: "block", reason: run.stderr.trim() };
    if (run.code !== 0) throw new Error(`hookbox emit ${event} exited ${run.code}: ${run.stderr.trim()}`);
    return run.stdout.trim() === "" ? {} : (JSON.parse(run.stdout) as Record<string, unknown>);
  };
}
