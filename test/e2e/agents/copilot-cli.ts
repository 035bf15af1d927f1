// Drives the real GitHub Copilot CLI headless (`copilot -p … --allow-all-tools --output-format json`)
// in its documented offline mode (COPILOT_OFFLINE, a "bring your own key" provider) against
// MockOpenAI's Chat Completions API, in an AgentWorkspace. Hooks are whatever the test installs
// (hookbox-setup.ts: hookSettingsFor writes ~/.copilot/hooks/hookbox.json, which needs no trust step).
import { join } from "node:path";
import { clientsRoot, CLIENTS } from "./clients.ts";
import type { HookInstaller } from "./hookbox-setup.ts";
import { MockOpenAI, type MockOpenAIOptions } from "./mock-openai.ts";
import { parseJsonLines, runBounded } from "./run-bounded.ts";
import type { AgentWorkspace } from "./workspace.ts";

const MODEL = "gpt-4o";

export interface CopilotRunOptions {
  readonly prompt: string;
  readonly model: MockOpenAIOptions;
  /** Writes the hook settings. */
  readonly install?: HookInstaller;
  readonly env?: Readonly<Record<string, string>>;
  /** Wall-clock bound for `copilot -p`, in milliseconds (default 90 000). */
  readonly timeoutMs?: number;
}

/** One line of `--output-format json`: session.*, user.message, assistant.*, tool.execution_*, result. */
export interface CopilotEvent {
  readonly type: string;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

export interface CopilotRun {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly events: CopilotEvent[];
  readonly stdout: string;
  readonly stderr: string;
  readonly model: MockOpenAI;
  readonly durationMs: number;
}

/**
 * The native binary unpacks ~235 MB of its own code into $XDG_CACHE_HOME/copilot at first start;
 * a cache shared by all runs (beside the installed client) keeps that to once.
 */
function sharedCache(): string {
  return join(clientsRoot(), `copilot-${CLIENTS.copilot.version}-xdg-cache`);
}

/**
 * Run `copilot -p` once in the workspace; always resolves. The API key is long on purpose:
 * Copilot masks the key's text wherever it appears in its output, "x" included.
 */
export async function runCopilot(binary: string, ws: AgentWorkspace, options: CopilotRunOptions): Promise<CopilotRun> {
  const model = new MockOpenAI(options.model);
  const origin = await model.start();
  options.install?.(ws);
  const args = ["-p", options.prompt, "--allow-all-tools", "--output-format", "json", "--no-auto-update", "--disable-client-telemetry", "--model", MODEL];
  const env = {
    ...ws.baseEnv(),
    XDG_CACHE_HOME: sharedCache(),
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${origin}/v1`,
    COPILOT_PROVIDER_API_KEY: "mock-openai-key-for-e2e",
    COPILOT_MODEL: MODEL,
    COPILOT_AUTO_UPDATE: "false",
    NO_COLOR: "1",
    ...options.env,
  };
  const started = Date.now();
  try {
    const { code, stdout, stderr, timedOut } = await runBounded(binary, args, { cwd: ws.project, env, timeoutMs: options.timeoutMs ?? 90_000 });
    return { exitCode: code, timedOut, events: parseJsonLines<CopilotEvent>(stdout), stdout, stderr, model, durationMs: Date.now() - started };
  } finally {
    await model.close();
  }
}
