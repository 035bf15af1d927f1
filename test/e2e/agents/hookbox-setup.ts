// The Hookbox side of the real-client suites: the operator file enabling the standard guards, a
// project hook that injects context, a daemon on the workspace's socket, the audit log, and
// `installAgent(agent, hookbox)` — each client wired by `hookbox install-agent <agent>`, as a
// user does it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { DaemonProcess, call, type DaemonWorld } from "../../helpers/daemon.ts";
import type { SdkHookCallback } from "./claude-agent-sdk.ts";
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
 * without the inject_context grant. `emit` starts no daemon of its own (daemon.auto_start: false):
 * each suite's two modes are emit evaluating in its own process, and the daemon the suite starts.
 */
export function setUpHookbox(ws: AgentWorkspace, hookbox = BUILT_BINARY): void {
  ws.write("home", { ".config/hookbox/hookbox.yaml": `builtin: [${STANDARD_GUARDS.join(", ")}]\ndaemon: { auto_start: false }\n` });
  ws.write("project", { ".hookbox/hooks/context.yaml": CONTEXT_HOOK, ".hookbox/hooks/witness.yaml": WITNESS_HOOK });
  execFileSync(hookbox, ["trust"], { cwd: ws.project, env: ws.baseEnv(), stdio: "ignore" });
}

/** The native events the witness hook saw, in order of first sight. */
export function witnessedEvents(ws: AgentWorkspace): string[] {
  return [
    ...new Set(
      auditRecords(ws)
        .filter((record) => record.hook_id === "witness")
        .map((record) => record.event_type),
    ),
  ];
}

/** `hookbox serve` on the workspace's socket, loading the same operator file and project hooks `emit` would (`args`: more of serve's flags, --console …). */
export async function startDaemon(ws: AgentWorkspace, hookbox: string, args: readonly string[] = []): Promise<DaemonProcess> {
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
  return DaemonProcess.start([hookbox], world, ["--workers", "1", ...args], {}, { defaultHooks: true });
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

/** Writes one client's hook settings into a workspace, once the client's own config exists. */
export type HookInstaller = (ws: AgentWorkspace) => void | Promise<void>;

export type InstallAgent = "claude" | "gemini" | "codex" | "copilot" | "qwen" | "opencode";

export interface InstallAgentOptions {
  /** Take `--agent <agent>` out of the entries afterwards, as a user wiring them by hand: `hookbox emit` then detects the dialect from the payload. */
  readonly detect?: boolean;
  /** `--command`: the executable the entries run, if not `hookbox` itself. */
  readonly command?: string;
}

/**
 * Where each client's entries go: the scope a user would pick for it. Claude Code and Gemini CLI
 * read the project's settings (the Agent SDK with `settingSources: ["project"]`); Copilot runs a
 * repository's .github/hooks only in a folder trusted in its UI, and Codex records trust in the
 * user layer only, so those (and Qwen, opencode) are installed for the user.
 */
const SCOPE: Readonly<Record<InstallAgent, "--project" | "--user">> = {
  claude: "--project",
  gemini: "--project",
  codex: "--user",
  copilot: "--user",
  qwen: "--user",
  opencode: "--user",
};

/** The file install-agent writes for each client, relative to the workspace's project or HOME. */
const SETTINGS_FILE: Readonly<Record<InstallAgent, readonly ["project" | "home", string]>> = {
  claude: ["project", ".claude/settings.json"],
  gemini: ["project", ".gemini/settings.json"],
  codex: ["home", ".codex/hooks.json"],
  copilot: ["home", ".copilot/hooks/hookbox.json"],
  qwen: ["home", ".qwen/settings.json"],
  opencode: ["home", ".config/opencode/plugin/hookbox.js"],
};

/** The path of the settings (or plugin) file install-agent writes for `agent` in `ws`. */
export function installedFile(ws: AgentWorkspace, agent: InstallAgent): string {
  const [base, path] = SETTINGS_FILE[agent];
  return join(base === "project" ? ws.project : ws.home, path);
}

/**
 * `hookbox install-agent <agent>` run in the workspace's project with its HOME — the user's own
 * path to wiring a client, every default event included. Codex's trust is not part of it: a
 * test records it explicitly (codex-cli.ts), as a user does in Codex's /hooks.
 */
export function installAgent(agent: InstallAgent, hookbox: string, options: InstallAgentOptions = {}): HookInstaller {
  return async (ws) => {
    const run = await runProgram([hookbox, "install-agent", agent, SCOPE[agent], ...(options.command ? ["--command", options.command] : [])], {
      cwd: ws.project,
      env: ws.baseEnv(),
    });
    if (run.code !== 0) throw new Error(`hookbox install-agent ${agent} failed (exit ${run.code}): ${run.stderr}`);
    if (options.detect) {
      const file = installedFile(ws, agent);
      const text = readFileSync(file, "utf8");
      const bare = text.replaceAll(` --agent ${agent}`, "");
      if (bare === text) throw new Error(`no --agent ${agent} in ${file} to take out`);
      writeFileSync(file, bare);
    }
  };
}

/**
 * A Claude Agent SDK hook callback that asks Hookbox: the SDK's hook input goes to
 * `hookbox emit <event> --agent claude` (through the workspace's daemon when one runs) and
 * Claude's hook JSON comes back, which the SDK reads as it reads a command hook's answer. If
 * Hookbox cannot answer, the callback throws, and a matcher with `onFailure: "block"` blocks.
 */
export function hookboxCallback(hookbox: string, ws: AgentWorkspace, event: string): SdkHookCallback {
  return async (input) => {
    const run = await runProgram([hookbox, "emit", event, "--agent", "claude"], {
      stdin: JSON.stringify(input),
      env: ws.baseEnv(),
      cwd: ws.project,
      timeoutMs: 120_000,
    });
    if (run.code === 2) return { decision: "block", reason: run.stderr.trim() };
    if (run.code !== 0) throw new Error(`hookbox emit ${event} exited ${run.code}: ${run.stderr.trim()}`);
    return run.stdout.trim() === "" ? {} : (JSON.parse(run.stdout) as Record<string, unknown>);
  };
}
