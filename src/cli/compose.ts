// What main.ts plugs into the CLI: the real capability host and the embedded standard hooks.
// Kept apart from main.ts so tests can build the same thing.
import { standardHooks } from "../hooks/builtin/index.ts";
import { createCapabilityHost } from "../capabilities/index.ts";
import { FileLlmUsage, llmUsageFilePath } from "../capabilities/llm/index.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import type { RuntimeHost } from "../platform/index.ts";

export function hookRuntime(host: RuntimeHost): HookRuntimeFactory {
  return {
    capabilities: (locations) =>
      createCapabilityHost({
        io: host.capabilityIO,
        env: host.env,
        home: host.homeDir(),
        dataDir: locations.dataDir,
        notify: host.notify,
        // tokens_per_day is shared by the daemon and every emit, and survives a restart (as cooldowns do).
        llmUsage: new FileLlmUsage({ fs: host.fs, path: llmUsageFilePath(locations.dataDir), pid: host.pid }),
      }),
    embedded: standardHooks,
  };
}
