// Where auto-started daemons listen. Light on purpose: emit's lean path imports it.
import type { Locations } from "../config/locations.ts";
import type { HookSetIdentity } from "../evaluator/identity.ts";

/** auto-<hash>.sock: one per hook set (build, operator file, flags, directories). */
export const AUTO_SOCKET_NAME = /^auto-[0-9a-f]{16}\.sock$/;

/**
 * The sockets `emit` asks, in order, and the one it may start a daemon on. With --socket, that
 * one alone. Otherwise the default socket (a `hookbox serve` a person started), then the one an
 * auto-started daemon of this very hook set listens on, beside it: each hook set its own socket,
 * so two configurations (another --builtin, two builds during an upgrade) never take turns at one.
 */
export async function daemonSockets(locations: Locations, explicit: boolean, identity: HookSetIdentity): Promise<{ readonly ask: readonly string[]; readonly auto: string }> {
  if (explicit) return { ask: [locations.socketPath], auto: locations.socketPath };
  const dir = locations.socketPath.slice(0, locations.socketPath.lastIndexOf("/"));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(identity)));
  const hash = Array.from(new Uint8Array(digest).subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
  const auto = `${dir}/auto-${hash}.sock`;
  return { ask: [locations.socketPath, auto], auto };
}
