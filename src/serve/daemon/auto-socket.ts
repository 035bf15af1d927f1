// Where auto-started daemons listen. Light on purpose: emit's lean path imports it.
import type { Locations } from "../../hooks/config/locations.ts";
import type { HookSetIdentity } from "../../decide/identity.ts";
import { trustedEnvironmentKey } from "../../platform/peer-trust.ts";

/** auto-<hash>.sock: one per hook set (build, operator file, flags, directories). */
export const AUTO_SOCKET_NAME = /^auto-[0-9a-f]{16}\.sock$/;

/**
 * The sockets `emit` asks, in order, and the one it may start a daemon on. With --socket, that
 * one alone. Otherwise the default socket (a `hookbox serve` a person started), then the one an
 * auto-started daemon of this very hook set listens on, beside it: each hook set its own socket,
 * so two configurations (another --builtin, two builds during an upgrade) never take turns at one.
 * What a daemon must share with its callers to be trusted besides the hook set (peer-trust.ts)
 * is part of the name too: the binary file (two copies of one build are two files, and each
 * trusts only a daemon of its own), and PATH, loader and TLS variables (an emit run from another
 * shell gets its own).
 */
export function daemonSockets(
  locations: Locations,
  explicit: boolean,
  identity: HookSetIdentity,
  host: { readonly env: Readonly<Record<string, string | undefined>>; executablePath(): string | undefined },
): { readonly ask: readonly string[]; readonly auto: string } {
  if (explicit) return { ask: [locations.socketPath], auto: locations.socketPath };
  const dir = locations.socketPath.slice(0, locations.socketPath.lastIndexOf("/"));
  const auto = `${dir}/auto-${nameHash(JSON.stringify(identity) + (host.executablePath() ?? "") + trustedEnvironmentKey(host.env))}.sock`;
  return { ask: [locations.socketPath, auto], auto };
}

/**
 * 64 bits of FNV-1a (two 32-bit lanes) as hex. Only a name: a daemon answers an emit only when
 * their identities are equal (409 otherwise), so a collision costs speed, never a wrong answer.
 * Not crypto.subtle, whose first use costs Bun 1-6 ms: emit starts once per agent event.
 */
function nameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
