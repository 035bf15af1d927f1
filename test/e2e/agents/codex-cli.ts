// Drives the real Codex CLI headless (`codex exec --json`) against MockOpenAI's Responses API, in
// an AgentWorkspace whose $CODEX_HOME (= ~/.codex) holds a custom model provider on 127.0.0.1.
// Hooks are whatever the test installs into the workspace (hookbox-setup.ts: installAgent), and
// run only if trusted: `trustHooks` records every command hook of $CODEX_HOME/hooks.json the way
// Codex's /hooks does (src/agents/codex/trust.ts computes what Codex checks).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexTrustEntries, planCodexTrust } from "../../../src/agents/codex/trust.ts";
import { runAgainstMockOpenAI, type OpenAIClientOptions, type OpenAIClientRun } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

/** The model Codex asks for; any name works with a custom provider (gpt-5.5 gets Codex's full tool set). */
const MODEL = "gpt-5.5";

export interface CodexRunOptions extends OpenAIClientOptions {
  /** Record every hook in $CODEX_HOME/hooks.json as trusted (default true); false = as installed, never reviewed. */
  readonly trustHooks?: boolean;
}

/** One line of `codex exec --json`: thread.started, turn.started, item.started/completed, turn.completed. */
export interface CodexEvent {
  readonly type: string;
  readonly item?: { readonly type: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

export type CodexRun = OpenAIClientRun<CodexEvent>;

export function codexHome(ws: AgentWorkspace): string {
  return join(ws.home, ".codex");
}

/**
 * A custom provider speaking the Responses API to the mock; `env_key` names the variable holding
 * its key, so no login is needed. Update checks off: nothing but the mock is reachable.
 */
function codexConfig(origin: string): string {
  return `model = "${MODEL}"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "${origin}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[analytics]
enabled = false
`;
}

/** Record in config.toml the trust /hooks would record for each command hook of $CODEX_HOME/hooks.json. */
export async function trustCodexHooks(ws: AgentWorkspace): Promise<void> {
  const hooksFile = join(codexHome(ws), "hooks.json");
  if (!existsSync(hooksFile)) return;
  const configFile = join(codexHome(ws), "config.toml");
  const entries = await codexTrustEntries(hooksFile, readFileSync(hooksFile, "utf8"), () => true);
  writeFileSync(configFile, planCodexTrust(readFileSync(configFile, "utf8"), entries, configFile).text);
}

/**
 * Run `codex exec` once in the workspace; always resolves. `--dangerously-bypass-approvals-and-sandbox`:
 * Codex's own sandbox (bubblewrap) and approvals stay out of the way, so only hooks decide.
 */
export function runCodex(binary: string, ws: AgentWorkspace, options: CodexRunOptions): Promise<CodexRun> {
  const install = async (w: AgentWorkspace): Promise<void> => {
    await options.install?.(w);
    if (options.trustHooks !== false) await trustCodexHooks(w);
  };
  return runAgainstMockOpenAI(ws, { ...options, install }, (origin) => {
    ws.write("home", { ".codex/config.toml": codexConfig(origin) });
    return {
      command: binary,
      args: ["exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", ws.project, options.prompt],
      env: { CODEX_HOME: codexHome(ws), MOCK_API_KEY: "mock-openai-key-for-e2e" },
    };
  });
}
