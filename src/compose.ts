// What main.ts plugs into the CLI: the real capability host, the embedded standard hooks and
// the agents' HTTP protocols. Kept apart from main.ts so tests can build the same thing.
import { standardHooks } from "./builtin/index.ts";
import { createCapabilityHost } from "./capabilities/index.ts";
import type { HookRuntimeFactory } from "./cli/runtime-factory.ts";
import { PROTOCOLS } from "./protocols/index.ts";
import type { RuntimeHost } from "./runtime/index.ts";
import type { HttpAgentProtocol } from "./server/deps.ts";

export function hookRuntime(host: RuntimeHost): HookRuntimeFactory {
  const claude = PROTOCOLS.claude;
  const claudeHttp: HttpAgentProtocol = {
    decode: (payload) => claude.decode(payload, { env: {} }),
    // An http hook's answer is the body of the command hook's stdout (Claude reads the same JSON).
    encodeHttp: (decision, event) => {
      const out = claude.encode(decision, event);
      return out.stdout.trim() ? JSON.parse(out.stdout) : {};
    },
  };
  return {
    capabilities: (locations) => createCapabilityHost({ io: host.capabilityIO, env: host.env, home: host.homeDir(), dataDir: locations.dataDir }),
    embedded: standardHooks,
    httpAgents: () => ({ claude: claudeHttp }),
  };
}
