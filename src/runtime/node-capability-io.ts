import type { CapabilityIO } from "./capability-io.ts";

/** CapabilityIO on node:* APIs (also used by the Bun and Deno adapters). */
export const nodeCapabilityIO: CapabilityIO = {};
