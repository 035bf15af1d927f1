// Drives the real Qwen Code CLI headless (`qwen -p … --yolo --output-format stream-json`) against
// MockOpenAI's Chat Completions API, in an AgentWorkspace whose ~/.qwen/settings.json selects
// OpenAI-compatible auth. Hooks are whatever the test installs (hookbox-setup.ts: installAgent).
import { runAgainstMockOpenAI, type OpenAIClientOptions, type OpenAIClientRun } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

const MODEL = "gpt-4o";

/** One line of `--output-format stream-json` (Claude's SDK message shapes: system, assistant, user, result). */
export interface QwenEvent {
  readonly type: string;
  readonly subtype?: string;
  readonly [key: string]: unknown;
}

export type QwenRun = OpenAIClientRun<QwenEvent>;

/**
 * Qwen's user settings: OpenAI-compatible auth (the key and base URL come from the environment),
 * and nothing that phones home.
 */
const USER_SETTINGS = {
  security: { auth: { selectedType: "openai" } },
  general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  // Shell commands through child_process, as Qwen documents for one-shot prompts: once in a CI run
  // its shell tool reported "Output: (empty)" for a command that ran and printed.
  tools: { shell: { enableInteractiveShell: false } },
};

/**
 * Run `qwen -p` once in the workspace; always resolves. `--yolo`: in headless default mode shell
 * and write tools need an approval nobody can give. QWEN_CODE_TRUST_WORKSPACE: the scratch
 * project is trusted, as a user's own checkout would be.
 */
export function runQwen(binary: string, ws: AgentWorkspace, options: OpenAIClientOptions): Promise<QwenRun> {
  return runAgainstMockOpenAI(ws, options, (origin) => {
    ws.mergeJson("home", ".qwen/settings.json", USER_SETTINGS);
    return {
      command: binary,
      args: ["-p", options.prompt, "--yolo", "--output-format", "stream-json", "--model", MODEL],
      env: {
        OPENAI_BASE_URL: `${origin}/v1`,
        OPENAI_API_KEY: "mock-openai-key-for-e2e",
        OPENAI_MODEL: MODEL,
        QWEN_CODE_TRUST_WORKSPACE: "true",
        QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
        NO_COLOR: "1",
      },
    };
  });
}
