// Drives the real opencode headless (`opencode run --format json`) against MockOpenAI's Chat
// Completions API (its provider given in OPENCODE_CONFIG_CONTENT), in an AgentWorkspace. opencode
// has no command hooks: Hookbox reaches it as the plugin `hookbox install-agent opencode` writes.
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { clientPrefix, CLIENTS } from "./clients.ts";
import { runAgainstMockOpenAI, type OpenAIClientOptions, type OpenAIClientRun } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

/** One line of `--format json`: step_start, text, tool_use, step_finish, error. */
export interface OpencodeEvent {
  readonly type: string;
  readonly part?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

export type OpencodeRun = OpenAIClientRun<OpencodeEvent>;

/**
 * opencode's config dir as opencode itself would make it for a plugin (package.json naming
 * @opencode-ai/plugin, its lock file and node_modules), installed once into the client cache
 * (clients.ts: opencode-plugin), copied into each scratch HOME.
 */
export function opencodePluginDir(): string {
  return clientPrefix(CLIENTS["opencode-plugin"]);
}

/**
 * A provider "mock" of the OpenAI-compatible kind pointing at the mock, its one model able to call
 * tools; bash and edits allowed without asking (nobody is there to answer).
 */
function opencodeConfig(origin: string): string {
  return JSON.stringify({
    $schema: "https://opencode.ai/config.json",
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock",
        options: { baseURL: `${origin}/v1`, apiKey: "mock-openai-key-for-e2e" },
        models: { "mock-model": { name: "Mock", tool_call: true } },
      },
    },
    model: "mock/mock-model",
    permission: { bash: "allow", edit: "allow", webfetch: "deny" },
    autoupdate: false,
    share: "disabled",
  });
}

/**
 * Run `opencode run` once in the workspace; always resolves. With any plugin, opencode runs
 * `npm install @opencode-ai/plugin` in its config dir at start (offline, that hangs; online it
 * costs ~15 s), so that dir is put in place first, complete, and npm is told to stay offline.
 * No proxy variables reach it: its Bun fetch would send 127.0.0.1 through them.
 */
export function runOpencode(binary: string, ws: AgentWorkspace, options: OpenAIClientOptions): Promise<OpencodeRun> {
  const pluginDir = opencodePluginDir();
  if (!existsSync(join(pluginDir, "package-lock.json"))) throw new Error(`${pluginDir} is not installed: run install-clients.ts`);
  for (const entry of ["package.json", "package-lock.json", "node_modules"])
    cpSync(join(pluginDir, entry), join(ws.home, ".config/opencode", entry), { recursive: true });
  return runAgainstMockOpenAI(ws, { ...options, model: { models: ["mock-model"], ...options.model } }, (origin) => ({
    command: binary,
    args: ["run", "--format", "json", options.prompt],
    env: {
      OPENCODE_CONFIG_CONTENT: opencodeConfig(origin),
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      npm_config_offline: "true",
      NO_COLOR: "1",
    },
  }));
}
