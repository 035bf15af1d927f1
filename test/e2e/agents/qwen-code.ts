// Drives the real Qwen Code CLI headless (`qwen -p … --yolo --output-format stream-json`) against
// MockOpenAI's Chat Completions API, in an AgentWorkspace whose ~/.qwen/settings.json selects
// OpenAI-compatible auth. Hooks are whatever the test installs (hookbox-setup.ts: hookSettingsFor).
import type { HookInstaller } from "./hookbox-setup.ts";
import { MockOpenAI, type MockOpenAIOptions } from "./mock-openai.ts";
import { parseJsonLines, runBounded } from "./run-bounded.ts";
import type { AgentWorkspace } from "./workspace.ts";

const MODEL = "gpt-4o";

export interface QwenRunOptions {
  readonly prompt: string;
  readonly model: MockOpenAIOptions;
  /** Writes the hook settings (after Qwen's own settings.json exists). */
  readonly install?: HookInstaller;
  readonly env?: Readonly<Record<string, string>>;
  /** Wall-clock bound for `qwen -p`, in milliseconds (default 90 000). */
  readonly timeoutMs?: number;
}

/** One line of `--output-format stream-json` (Claude's SDK message shapes: system, assistant, user, result). */
export interface QwenEvent {
  readonly type: string;
  readonly subtype?: string;
  readonly [key: string]: unknown;
}

export interface QwenRun {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly events: QwenEvent[];
  readonly stdout: string;
  readonly stderr: string;
  readonly model: MockOpenAI;
  readonly durationMs: number;
}

/**
 * Qwen's user settings: OpenAI-compatible auth (the key and base URL come from the environment),
 * and nothing that phones home.
 */
const USER_SETTINGS = {
  security: { auth: { selectedType: "openai" } },
  general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/**
 * Run `qwen -p` once in the workspace; always resolves. `--yolo`: in headless default mode shell
 * and write tools need an approval nobody can give. QWEN_CODE_TRUST_WORKSPACE: the scratch
 * project is trusted, as a user's own checkout would be.
 */
export async function runQwen(binary: string, ws: AgentWorkspace, options: QwenRunOptions): Promise<QwenRun> {
  const model = new MockOpenAI(options.model);
  const origin = await model.start();
  ws.mergeJson("home", ".qwen/settings.json", USER_SETTINGS);
  options.install?.(ws);
  const args = ["-p", options.prompt, "--yolo", "--output-format", "stream-json", "--model", MODEL];
  const env = {
    ...ws.baseEnv(),
    OPENAI_BASE_URL: `${origin}/v1`,
    OPENAI_API_KEY: "mock-openai-key-for-e2e",
    OPENAI_MODEL: MODEL,
    QWEN_CODE_TRUST_WORKSPACE: "true",
    QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    NO_COLOR: "1",
    ...options.env,
  };
  const started = Date.now();
  try {
    const { code, stdout, stderr, timedOut } = await runBounded(binary, args, { cwd: ws.project, env, timeoutMs: options.timeoutMs ?? 90_000 });
    return { exitCode: code, timedOut, events: parseJsonLines<QwenEvent>(stdout), stdout, stderr, model, durationMs: Date.now() - started };
  } finally {
    await model.close();
  }
}
