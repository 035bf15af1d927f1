import type { CapabilityHost } from "../capabilities/types.ts";
import type { EmbeddedHook } from "../hooks/registry/sources.ts";
import type { Locations } from "../hooks/config/locations.ts";

/** What commands that load hooks need from the composition root (main.ts wires the real ones). */
export interface HookRuntimeFactory {
  capabilities(locations: Locations): CapabilityHost;
  embedded(): ReadonlyMap<string, EmbeddedHook>;
}
