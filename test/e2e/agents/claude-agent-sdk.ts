// Drives the real Claude Agent SDK (`query()` of @anthropic-ai/claude-agent-sdk, running the
// Claude Code it bundles) against MockAnthropic, in an AgentWorkspace, from this process: hooks
// come from the project's .claude/settings.json (`settingSources: ["project"]`) or from in-process
// callbacks, which the test passes (hookbox-setup.ts: hookboxCallback calls `hookbox emit`).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { claudeOfflineEnv } from "./claude-code.ts";
import type { HookInstaller } from "./hookbox-setup.ts";
import { MockAnthropic, type MockAnthropicOptions } from "./mock-anthropic.ts";
import type { AgentWorkspace } from "./workspace.ts";

/** The SDK's hook input and output, as far as these tests read them (sdk.d.ts: HookInput, SyncHookJSONOutput). */
export type SdkHookInput = Readonly<Record<string, unknown>> & { readonly hook_event_name: string };
export type SdkHookOutput = Readonly<Record<string, unknown>>;
export type SdkHookCallback = (input: SdkHookInput, toolUseId: string | undefined, options: { signal: AbortSignal }) => Promise<SdkHookOutput>;
export type SdkHooks = Readonly<
  Record<
    string,
    ReadonlyArray<{
      readonly matcher?: string;
      readonly hooks: readonly SdkHookCallback[];
      readonly timeout?: number;
      readonly onFailure?: "continue" | "block";
    }>
  >
>;

/** One message `query()` yields: system, assistant, user, result … */
export interface SdkMessage {
  readonly type: string;
  readonly subtype?: string;
  readonly [key: string]: unknown;
}

interface AgentSdk {
  query(params: { prompt: string; options: Record<string, unknown> }): AsyncIterable<SdkMessage>;
}

export interface SdkRunOptions {
  readonly prompt: string;
  readonly model: MockAnthropicOptions;
  /** Writes hook settings into the workspace before the run. */
  readonly install?: HookInstaller;
  /** Which settings files Claude Code reads (default ["project"]: .claude/settings.json). */
  readonly settingSources?: readonly ("user" | "project" | "local")[];
  /** In-process hook callbacks, by event. */
  readonly hooks?: SdkHooks;
  /** Wall-clock bound for the whole query, in milliseconds (default 90 000). */
  readonly timeoutMs?: number;
}

export interface SdkRun {
  readonly messages: SdkMessage[];
  readonly result: SdkMessage | undefined;
  readonly timedOut: boolean;
  readonly model: MockAnthropic;
  readonly durationMs: number;
}

/**
 * Run one query; always resolves. The environment is built from nothing (the SDK's `env`
 * replaces the subprocess's): the developer's keys never reach it. IS_SANDBOX=1 lets
 * bypassPermissions start as root.
 */
export async function runAgentSdk(sdkDir: string, ws: AgentWorkspace, options: SdkRunOptions): Promise<SdkRun> {
  const sdk = (await import(pathToFileURL(join(sdkDir, "sdk.mjs")).href)) as AgentSdk;
  const model = new MockAnthropic(options.model);
  const baseUrl = await model.start();
  await options.install?.(ws);
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, options.timeoutMs ?? 90_000);
  const messages: SdkMessage[] = [];
  const started = Date.now();
  try {
    const env = { ...ws.baseEnv(), ...claudeOfflineEnv(baseUrl) };
    const query = sdk.query({
      prompt: options.prompt,
      options: {
        cwd: ws.project,
        env,
        settingSources: options.settingSources ?? ["project"],
        permissionMode: "bypassPermissions",
        allowDangerouslySkipPermissions: true,
        abortController: abort,
        ...(options.hooks && { hooks: options.hooks }),
      },
    });
    try {
      for await (const message of query) messages.push(message);
    } catch (error) {
      if (!timedOut) throw error;
    }
    return { messages, result: messages.find((message) => message.type === "result"), timedOut, model, durationMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
    await model.close();
  }
}
