// Drives the real Gemini CLI headless (`gemini -p`) against MockGemini, in a scratch project whose
// .gemini/settings.json wires command hooks to a command line given by the test — a plain script
// today, `hookbox emit <Event> --agent gemini` later.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { HookInstaller } from "./hookbox-setup.ts";
import { MockGemini, type MockGeminiOptions } from "./mock-gemini.ts";
import { parseJsonLines, probeVersion, runBounded } from "./run-bounded.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

/** Gemini's names for the events the Claude suite covers (PreToolUse → BeforeTool, …). */
export const GEMINI_EVENTS = ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"] as const;

/** Events whose matcher is a regex over tool_name; the matcher is only written for these. */
const TOOL_EVENTS = new Set(["BeforeTool", "AfterTool"]);

/**
 * Pinned rather than "auto": auto routing first asks a flash-lite model to classify the prompt,
 * one more side call for the mock to answer.
 */
const MODEL = "gemini-2.5-pro";

export interface GeminiHookSetup {
  readonly events: readonly string[];
  /** The command line for an event, e.g. (e) => `dist/hookbox emit ${e} --agent gemini`. */
  readonly command: (event: string) => string;
  /** Regex over tool_name for tool events; omitted = all tools. */
  readonly matcher?: string;
  /** Gemini's hook timeout — in milliseconds, unlike Claude's seconds. */
  readonly timeoutMs?: number;
}

export interface GeminiRunOptions {
  readonly prompt: string;
  readonly model: MockGeminiOptions;
  readonly hooks: readonly GeminiHookSetup[];
  readonly files?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
  /** Wall-clock bound for the whole `gemini -p` process, in milliseconds (default 45 000). */
  readonly timeoutMs?: number;
  readonly extraArgs?: readonly string[];
}

/** One line of `--output-format stream-json` (init, message, tool_use, tool_result, result). */
export interface GeminiStreamEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface GeminiRun {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly events: GeminiStreamEvent[];
  readonly stdout: string;
  readonly stderr: string;
  readonly model: MockGemini;
  readonly projectDir: string;
  readonly homeDir: string;
  readonly durationMs: number;
}

export type GeminiEntry =
  | { readonly ok: true; readonly command: string; readonly args: readonly string[]; readonly version: string }
  | { readonly ok: false; readonly reason: string };

/** The CLI's bundle run by this Node; HOOKBOX_GEMINI_JS overrides the bundle path. */
export function findGeminiCli(): GeminiEntry {
  const entry = process.env.HOOKBOX_GEMINI_JS ?? join(ROOT, "node_modules/@google/gemini-cli/bundle/gemini.js");
  if (!existsSync(entry)) return { ok: false, reason: `Gemini CLI not installed: ${entry} is absent (devDependency @google/gemini-cli)` };
  const probe = probeVersion(process.execPath, [entry]);
  if (probe.status !== 0)
    return {
      ok: false,
      reason: `Gemini CLI cannot start: ${entry} --version exited ${probe.status} (${probe.error?.message ?? probe.stderr.trim().slice(0, 300)})`,
    };
  return { ok: true, command: process.execPath, args: [entry], version: probe.stdout.trim() };
}

/** The project `.gemini/settings.json` for a set of hook setups. */
export function geminiSettings(hooks: readonly GeminiHookSetup[]): Record<string, unknown> {
  const byEvent: Record<string, unknown[]> = {};
  hooks.forEach((setup, index) => {
    for (const event of setup.events) {
      // name + command is Gemini's dedup key; distinct names keep two setups' hooks apart.
      const handler = {
        type: "command",
        name: `e2e-${index}-${event}`,
        command: setup.command(event),
        ...(setup.timeoutMs ? { timeout: setup.timeoutMs } : {}),
      };
      const group = TOOL_EVENTS.has(event) && setup.matcher ? { matcher: setup.matcher, hooks: [handler] } : { hooks: [handler] };
      (byEvent[event] ??= []).push(group);
    }
  });
  return { hooks: byEvent };
}

/**
 * User settings in the scratch HOME: API-key auth (without it: "Invalid auth method selected"),
 * and nothing that phones home.
 */
const USER_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** Built from nothing so no real key or setting leaks in; project hooks need a trusted folder. */
function geminiEnv(baseUrl: string, home: string, extra: Readonly<Record<string, string>>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: join(home, "tmp"),
    LANG: "C.UTF-8",
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: "mock-gemini-key-for-e2e",
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    GEMINI_TELEMETRY_ENABLED: "false",
    NO_COLOR: "1",
    ...extra,
  };
}

/**
 * Run `gemini -p <prompt>` once in a fresh project and HOME; always resolves. `--approval-mode
 * yolo`: in headless default mode shell and write tools are not offered to the model at all.
 */
export async function runGemini(entry: Extract<GeminiEntry, { ok: true }>, options: GeminiRunOptions): Promise<GeminiRun> {
  const scratch = mkdtempSync(join(tmpdir(), "hookbox-gemini-e2e-"));
  const projectDir = join(scratch, "project");
  const homeDir = join(scratch, "home");
  for (const dir of [join(projectDir, ".gemini"), join(homeDir, ".gemini"), join(homeDir, "tmp")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(homeDir, ".gemini/settings.json"), JSON.stringify(USER_SETTINGS, null, 2));
  writeFileSync(join(projectDir, ".gemini/settings.json"), JSON.stringify(geminiSettings(options.hooks), null, 2));
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(projectDir, path)), { recursive: true });
    writeFileSync(join(projectDir, path), content);
  }
  return launchGemini(entry, { ...options, projectDir, homeDir, baseEnv: {} });
}

export interface GeminiWorkspaceRunOptions {
  readonly prompt: string;
  readonly model: MockGeminiOptions;
  /** Writes the hook settings (hookbox-setup.ts: installAgent), after the user settings exist. */
  readonly install?: HookInstaller;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/** Run `gemini -p <prompt>` in an AgentWorkspace: its project, HOME and runtime dir (where a daemon's socket is); always resolves. */
export async function runGeminiIn(
  entry: Extract<GeminiEntry, { ok: true }>,
  ws: AgentWorkspace,
  options: GeminiWorkspaceRunOptions,
): Promise<GeminiRun> {
  ws.write("home", { ".gemini/settings.json": JSON.stringify(USER_SETTINGS, null, 2) });
  await options.install?.(ws);
  return launchGemini(entry, { ...options, projectDir: ws.project, homeDir: ws.home, baseEnv: ws.baseEnv() });
}

interface Launch {
  readonly prompt: string;
  readonly model: MockGeminiOptions;
  readonly projectDir: string;
  readonly homeDir: string;
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly extraArgs?: readonly string[];
}

async function launchGemini(entry: Extract<GeminiEntry, { ok: true }>, launch: Launch): Promise<GeminiRun> {
  const model = new MockGemini(launch.model);
  const baseUrl = await model.start();
  const args = [
    ...entry.args,
    "-p",
    launch.prompt,
    "--output-format",
    "stream-json",
    "--approval-mode",
    "yolo",
    "--model",
    MODEL,
    ...(launch.extraArgs ?? []),
  ];
  const started = Date.now();
  try {
    const env = { ...launch.baseEnv, ...geminiEnv(baseUrl, launch.homeDir, launch.env ?? {}) };
    const { code, stdout, stderr, timedOut } = await runBounded(entry.command, args, {
      cwd: launch.projectDir,
      env,
      timeoutMs: launch.timeoutMs ?? 45_000,
    });
    return {
      exitCode: code,
      timedOut,
      events: parseJsonLines<GeminiStreamEvent>(stdout),
      stdout,
      stderr,
      model,
      projectDir: launch.projectDir,
      homeDir: launch.homeDir,
      durationMs: Date.now() - started,
    };
  } finally {
    await model.close();
  }
}

/** Remove a run's scratch directory (project and HOME). */
export function cleanupGeminiRun(run: GeminiRun): void {
  rmSync(dirname(run.projectDir), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
