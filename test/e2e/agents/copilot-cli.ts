// Drives the real GitHub Copilot CLI headless (`copilot -p … --allow-all-tools --output-format json`)
// in its documented offline mode (COPILOT_OFFLINE, a "bring your own key" provider) against
// MockOpenAI's Chat Completions API, in an AgentWorkspace. Hooks are whatever the test installs
// (hookbox-setup.ts: installAgent runs `hookbox install-agent copilot --user`, which writes ~/.copilot/hooks/hookbox.json: user hooks need no folder trust).
import { join } from "node:path";
import { clientsRoot, CLIENTS } from "./clients.ts";
import { runAgainstMockOpenAI, type OpenAIClientOptions, type OpenAIClientRun } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

const MODEL = "gpt-4o";

/** One line of `--output-format json`: session.*, user.message, assistant.*, tool.execution_*, result. */
export interface CopilotEvent {
  readonly type: string;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

export type CopilotRun = OpenAIClientRun<CopilotEvent>;

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
export function runCopilot(binary: string, ws: AgentWorkspace, options: OpenAIClientOptions): Promise<CopilotRun> {
  return runAgainstMockOpenAI(ws, options, (origin) => ({
    command: binary,
    args: ["-p", options.prompt, "--allow-all-tools", "--output-format", "json", "--no-auto-update", "--disable-client-telemetry", "--model", MODEL],
    env: {
      XDG_CACHE_HOME: sharedCache(),
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: `${origin}/v1`,
      COPILOT_PROVIDER_API_KEY: "mock-openai-key-for-e2e",
      COPILOT_MODEL: MODEL,
      COPILOT_AUTO_UPDATE: "false",
      NO_COLOR: "1",
    },
  }));
}
