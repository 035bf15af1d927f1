// Drives the real Claude Code CLI headless (`claude -p`) against MockAnthropic, in a scratch
// project whose .claude/settings.json wires hooks to a command line or an HTTP URL given by the
// test. The hook side is a parameter so the same harness proves plain scripts today and
// `hookbox emit <Event> --agent claude` later.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { HookInstaller } from "./hookbox-setup.ts";
import { MockAnthropic, type MockAnthropicOptions } from "./mock-anthropic.ts";
import { parseJsonLines, probeVersion, runBounded } from "./run-bounded.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The hook events the issue asks for; Claude Code has more (README.md, captured/). */
export const CLAUDE_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] as const;

/** Events whose matcher filters tool_name; the matcher is only written for these. */
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"]);

/** `command` hooks: one shell command line per event (Claude runs it with `sh -c`). */
export interface CommandHookSetup {
  readonly type: "command";
  readonly events: readonly string[];
  /** The command line for an event, e.g. (e) => `dist/hookbox emit ${e} --agent claude`. */
  readonly command: (event: string) => string;
  /** tool_name matcher for tool events; omitted = all tools. */
  readonly matcher?: string;
  /** Claude Code's hook timeout, in seconds. */
  readonly timeoutSec?: number;
}

/** `http` hooks: Claude POSTs the event JSON to `url` and reads the answer from the body. */
export interface HttpHookSetup {
  readonly type: "http";
  readonly events: readonly string[];
  readonly url: (event: string) => string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Names of env vars Claude may interpolate into header values (`$VAR`). */
  readonly allowedEnvVars?: readonly string[];
  readonly matcher?: string;
  readonly timeoutSec?: number;
}

export type HookSetup = CommandHookSetup | HttpHookSetup;

export interface ClaudeRunOptions {
  readonly prompt: string;
  readonly model: MockAnthropicOptions;
  readonly hooks: readonly HookSetup[];
  /** Extra files written into the project before the run (relative path → content). */
  readonly files?: Readonly<Record<string, string>>;
  /** Extra environment for Claude Code (and so for its hooks). */
  readonly env?: Readonly<Record<string, string>>;
  /** Wall-clock bound for the whole `claude -p` process, in milliseconds (default 45 000). */
  readonly timeoutMs?: number;
  readonly extraArgs?: readonly string[];
}

/** One line of `--output-format stream-json`. */
export interface StreamEvent {
  readonly type: string;
  readonly subtype?: string;
  readonly [key: string]: unknown;
}

export interface ClaudeRun {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly events: StreamEvent[];
  readonly stdout: string;
  readonly stderr: string;
  /** The mock model, with every request Claude Code sent it. */
  readonly model: MockAnthropic;
  readonly projectDir: string;
  readonly homeDir: string;
  readonly debugLog: string;
  readonly durationMs: number;
}

export type ClaudeBinary = { readonly ok: true; readonly path: string; readonly version: string } | { readonly ok: false; readonly reason: string };

/**
 * The native binary: the platform package's (package.json's optionalDependencies), or an installed
 * wrapper's bin/claude.exe once its postinstall copied it there (a small stub before).
 * HOOKBOX_CLAUDE_BIN, if set, is the only candidate (point it at a missing file to see the skip path).
 */
export function findClaudeBinary(): ClaudeBinary {
  const override = process.env.HOOKBOX_CLAUDE_BIN;
  const candidates = override
    ? [override]
    : [
        join(ROOT, `node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`),
        join(ROOT, "node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
      ];
  const tried: string[] = [];
  for (const path of candidates) {
    if (!existsSync(path) || statSync(path).size < 1_000_000) {
      tried.push(`${path}: ${existsSync(path) ? "a stub (postinstall did not run)" : "absent"}`);
      continue;
    }
    const probe = probeVersion(path, []);
    if (probe.status === 0 && /Claude Code/.test(probe.stdout)) return { ok: true, path, version: probe.stdout.trim() };
    tried.push(`${path}: --version failed (status ${probe.status}, ${probe.error?.message ?? probe.stderr.trim().slice(0, 200)})`);
  }
  return { ok: false, reason: `Claude Code CLI not runnable here — ${tried.join("; ")}` };
}

/** The `.claude/settings.json` for a set of hook setups. */
export function claudeSettings(hooks: readonly HookSetup[]): Record<string, unknown> {
  const byEvent: Record<string, unknown[]> = {};
  for (const setup of hooks) {
    for (const event of setup.events) {
      const handler =
        setup.type === "command"
          ? { type: "command", command: setup.command(event), ...(setup.timeoutSec ? { timeout: setup.timeoutSec } : {}) }
          : {
              type: "http",
              url: setup.url(event),
              ...(setup.headers ? { headers: setup.headers } : {}),
              ...(setup.allowedEnvVars ? { allowedEnvVars: setup.allowedEnvVars } : {}),
              ...(setup.timeoutSec ? { timeout: setup.timeoutSec } : {}),
            };
      const group = TOOL_EVENTS.has(event) && setup.matcher ? { matcher: setup.matcher, hooks: [handler] } : { hooks: [handler] };
      (byEvent[event] ??= []).push(group);
    }
  }
  return { hooks: byEvent };
}

/**
 * The environment Claude Code runs with — built from nothing, so the developer's real keys and
 * settings never reach it (hooks inherit it, research note 9). IS_SANDBOX=1 lets
 * bypassPermissions start as root.
 */
function claudeEnv(baseUrl: string, home: string, extra: Readonly<Record<string, string>>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: join(home, "tmp"),
    LANG: "C.UTF-8",
    ...claudeOfflineEnv(baseUrl),
    ...extra,
  };
}

/** The mock as Claude Code's API, a dummy key, nothing nonessential sent; the Agent SDK's bundled Claude Code takes the same. */
export function claudeOfflineEnv(baseUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "sk-ant-mock-key-for-e2e",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    IS_SANDBOX: "1",
  };
}

/** Run `claude -p <prompt>` once in a fresh project and HOME; always resolves (see exitCode/timedOut). */
export async function runClaude(binary: string, options: ClaudeRunOptions): Promise<ClaudeRun> {
  const scratch = mkdtempSync(join(tmpdir(), "hookbox-claude-e2e-"));
  const projectDir = join(scratch, "project");
  const homeDir = join(scratch, "home");
  for (const dir of [join(projectDir, ".claude"), join(homeDir, "tmp")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(projectDir, ".claude/settings.json"), JSON.stringify(claudeSettings(options.hooks), null, 2));
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(projectDir, path)), { recursive: true });
    writeFileSync(join(projectDir, path), content);
  }
  return launchClaude(binary, { ...options, projectDir, homeDir, debugLog: join(scratch, "claude-debug.log"), baseEnv: {} });
}

export interface ClaudeWorkspaceRunOptions {
  readonly prompt: string;
  readonly model: MockAnthropicOptions;
  /** Writes the hook settings (hookbox-setup.ts: installAgent) before the run. */
  readonly install?: HookInstaller;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/** Run `claude -p <prompt>` in an AgentWorkspace: its project, HOME and runtime dir (where a daemon's socket is); always resolves. */
export async function runClaudeIn(binary: string, ws: AgentWorkspace, options: ClaudeWorkspaceRunOptions): Promise<ClaudeRun> {
  await options.install?.(ws);
  return launchClaude(binary, {
    ...options,
    projectDir: ws.project,
    homeDir: ws.home,
    debugLog: join(ws.root, "claude-debug.log"),
    baseEnv: ws.baseEnv(),
  });
}

interface Launch {
  readonly prompt: string;
  readonly model: MockAnthropicOptions;
  readonly projectDir: string;
  readonly homeDir: string;
  readonly debugLog: string;
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly extraArgs?: readonly string[];
}

async function launchClaude(binary: string, launch: Launch): Promise<ClaudeRun> {
  const { projectDir, homeDir, debugLog } = launch;
  const model = new MockAnthropic(launch.model);
  const baseUrl = await model.start();
  const args = [
    "-p",
    launch.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-hook-events",
    "--permission-mode",
    "bypassPermissions",
    "--debug-file",
    debugLog,
    ...(launch.extraArgs ?? []),
  ];
  const started = Date.now();
  try {
    const env = { ...launch.baseEnv, ...claudeEnv(baseUrl, homeDir, launch.env ?? {}) };
    const { code, stdout, stderr, timedOut } = await runBounded(binary, args, { cwd: projectDir, env, timeoutMs: launch.timeoutMs ?? 45_000 });
    return {
      exitCode: code,
      timedOut,
      events: parseJsonLines<StreamEvent>(stdout),
      stdout,
      stderr,
      model,
      projectDir,
      homeDir,
      debugLog,
      durationMs: Date.now() - started,
    };
  } finally {
    await model.close();
  }
}

/** Remove a run's scratch directory (project, HOME, debug log). */
export function cleanupRun(run: ClaudeRun): void {
  rmSync(dirname(run.projectDir), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** The stream's hook_response events, in order (`hook_event`, `exit_code`, `outcome`, `stdout`, …). */
export function hookResponses(run: ClaudeRun): StreamEvent[] {
  return run.events.filter((event) => event.type === "system" && event.subtype === "hook_response");
}
