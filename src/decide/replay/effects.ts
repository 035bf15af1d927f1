import type { CapabilityDeps } from "../../capabilities/capability.ts";
import { failed } from "../../capabilities/errors.ts";
import { LlmCallError, MemoryLlmUsage, type LlmClient } from "../../capabilities/llm/index.ts";
import type { CapabilityIO } from "../../platform/capability-io.ts";
import { isReadOnlyCommand } from "./read-only.ts";

/**
 * What a replay's hooks may do: read (their read grants, the files as they are today), run the
 * commands that only read (read-only.ts), and nothing else. Every side effect is answered
 * without being made, below the capability checks — so a hook is still refused exactly what its
 * grants refuse it, and its run record still shows each call — and the report counts them from
 * those records (report.ts): a command not run, a request not sent, a notification not sent, a
 * model not asked (or answered by a pinned reply), a store write kept in memory.
 */

/** Every answer for an effect not made starts with this (the report finds them by it). */
export const NOT_MADE = "replay:";

export interface ReplayCapabilityOptions {
  readonly io: CapabilityIO;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly dataDir: string;
  /** Pinned model replies (--llm-replies): absent, no model is asked. */
  readonly llm?: LlmClient;
}

/** The capability host's dependencies for a replay: the runtime's reads, no writes, no network, no notifications, no model. */
export function replayCapabilityDeps(options: ReplayCapabilityOptions): CapabilityDeps {
  return {
    io: replayIO(options.io),
    env: options.env,
    home: options.home,
    dataDir: options.dataDir,
    // No sinks to send to: hook.notify is checked against its grant and sends nothing.
    llm: options.llm ?? NO_MODEL,
    // A replay spends no one's daily token budget.
    llmUsage: new MemoryLlmUsage(),
  };
}

const NO_MODEL: LlmClient = {
  async complete() {
    throw new LlmCallError("unreachable", `${NOT_MADE} no model is asked in a replay (pin its replies with --llm-replies FILE)`);
  },
};

function replayIO(io: CapabilityIO): CapabilityIO {
  /** hook.store writes, kept for the rest of the replay (a hook reads back what it wrote), never written. */
  const stores = new Map<string, Uint8Array>();
  const offline = (what: string): never => {
    throw failed("http_failed", `${NOT_MADE} ${what} was not sent: a replay makes no network request`);
  };
  return {
    realPath: (path) => io.realPath(path),
    lstat: (path) => io.lstat(path),
    openFile: (path) => io.openFile(path),
    listDirectory: (path) => io.listDirectory(path),
    isExecutable: (path) => io.isExecutable(path),
    async spawn(request) {
      if (isReadOnlyCommand(request.file, request.args)) return io.spawn(request);
      const shown = [request.file.slice(request.file.lastIndexOf("/") + 1), ...request.args].join(" ");
      throw failed(
        "not_configured",
        `${NOT_MADE} \`${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}\` was not run: a replay runs only commands that read (git diff, git status, cat …)`,
      );
    },
    resolveHost: (hostname) => offline(`a lookup of ${hostname}`),
    httpGet: (request) => offline(`GET ${request.url}`),
    httpPost: (request) => offline(`POST ${request.url}`),
    readPrivateFile: async (path, maxBytes) => stores.get(path) ?? io.readPrivateFile(path, maxBytes),
    writePrivateFile: async (path, data) => void stores.set(path, data),
  };
}
