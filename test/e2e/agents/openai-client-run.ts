// What running Codex, Copilot CLI, Qwen Code or opencode has in common: a MockOpenAI for the run,
// the client's own config written for it, the hook settings installed after, one bounded process
// in the project, its JSON lines parsed, the mock closed.
import type { HookInstaller } from "./hookbox-setup.ts";
import { MockOpenAI, type MockOpenAIOptions } from "./mock-openai.ts";
import { parseJsonLines, runBounded } from "./run-bounded.ts";
import type { AgentWorkspace } from "./workspace.ts";

export interface OpenAIClientOptions {
  readonly prompt: string;
  readonly model: MockOpenAIOptions;
  /** Writes the hook settings, once the client's own config exists. */
  readonly install?: HookInstaller;
  /** More environment for the client (and so for its hooks). */
  readonly env?: Readonly<Record<string, string>>;
  /** Wall-clock bound for the client, in milliseconds (default 90 000). */
  readonly timeoutMs?: number;
}

export interface OpenAIClientRun<Event> {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** The client's JSON-lines output, parsed. */
  readonly events: Event[];
  readonly stdout: string;
  readonly stderr: string;
  /** The mock model, with every request the client sent it. */
  readonly model: MockOpenAI;
  readonly durationMs: number;
}

/** How to start one client against a mock at `origin`: its config is written here, before install. */
export type ClientLaunch = (origin: string) => {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
};

export async function runAgainstMockOpenAI<Event>(
  ws: AgentWorkspace,
  options: OpenAIClientOptions,
  launch: ClientLaunch,
): Promise<OpenAIClientRun<Event>> {
  const model = new MockOpenAI(options.model);
  const origin = await model.start();
  const started = Date.now();
  try {
    const { command, args, env } = launch(origin);
    await options.install?.(ws);
    const run = await runBounded(command, args, {
      cwd: ws.project,
      env: { ...ws.baseEnv(), ...env, ...options.env },
      timeoutMs: options.timeoutMs ?? 90_000,
    });
    return {
      exitCode: run.code,
      timedOut: run.timedOut,
      events: parseJsonLines<Event>(run.stdout),
      stdout: run.stdout,
      stderr: run.stderr,
      model,
      durationMs: Date.now() - started,
    };
  } finally {
    await model.close();
  }
}
