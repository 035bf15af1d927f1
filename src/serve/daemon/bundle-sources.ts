import type { CapabilityHost } from "../../capabilities/types.ts";
import type { Locations } from "../../hooks/config/locations.ts";
import type { OperatorSource } from "../../decide/operator-source.ts";
import { FleetPoller } from "../../hooks/packages/fleet.ts";
import type { RuntimeHost } from "../../platform/index.ts";

/**
 * The daemon's bundle-source poller (packages.sources in hookbox.yaml): packages it installs go
 * to the user's hooks directory, where every project's hook set picks them up at its next event.
 * The operator file is the daemon's one source (re-read as it changes, its last good version
 * kept): the sources are read from the file as the evaluator reads it, standard hooks and all.
 */
export function startBundleSources(
  host: RuntimeHost,
  locations: Locations,
  operator: OperatorSource,
  capabilities: CapabilityHost,
  log: (line: string) => void,
): FleetPoller {
  const poller = new FleetPoller({
    fs: host.fs,
    io: host.capabilityIO,
    packageIO: host.packageIO,
    capabilities,
    operator: async () => (await operator.read()).operator,
    hooksDir: locations.userHooksDir,
    statusFile: `${locations.dataDir}/packages/sources.json`,
    log,
  });
  poller.start();
  return poller;
}
