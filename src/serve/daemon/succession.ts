import type { HookSetIdentity } from "../../decide/identity.ts";
import type { RuntimeHost } from "../../platform/index.ts";
import { DAEMON_ROUTES, type DaemonInfoV1 } from "../../core/wire/daemon.ts";
import { AUTO_SOCKET_NAME } from "./auto-socket.ts";

/** Whether two identities are the same hook set of two builds: an upgrade, not another configuration. */
export function upgradeOf(mine: HookSetIdentity, theirs: unknown): boolean {
  if (theirs === null || typeof theirs !== "object" || (theirs as { v?: unknown }).v !== 1) return false;
  const other = theirs as HookSetIdentity;
  if (other.build === mine.build) return false;
  return JSON.stringify({ ...other, build: "" }) === JSON.stringify({ ...mine, build: "" });
}

/**
 * A freshly auto-started daemon asks the auto-started daemons of other builds serving the same
 * hook set beside it (the build before an upgrade) to retire: each exits once nobody has used
 * it for a short while, so an agent still running the old binary keeps its daemon until it stops.
 */
export async function retireOtherBuilds(
  host: Pick<RuntimeHost, "fs" | "net">,
  socketPath: string,
  mine: HookSetIdentity,
  log: (line: string) => void,
): Promise<void> {
  const dir = socketPath.slice(0, socketPath.lastIndexOf("/"));
  const entries = await host.fs.listDir(dir).catch(() => []);
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (!AUTO_SOCKET_NAME.test(entry.name) || path === socketPath) continue;
    try {
      const reply = await host.net.request({ unix: path }, { method: "GET", path: DAEMON_ROUTES.info, timeoutMs: 1000 });
      const info = JSON.parse(reply.body) as Partial<DaemonInfoV1>;
      if (info.origin !== "auto" || !upgradeOf(mine, info.identity)) continue;
      await host.net.request(
        { unix: path },
        {
          method: "POST",
          path: DAEMON_ROUTES.retire,
          body: JSON.stringify({ reason: `build ${mine.build} serves the same hook set (${socketPath})` }),
          timeoutMs: 1000,
        },
      );
      log(`asked pid ${info.pid} (build ${info.identity?.build}) on ${path} to retire`);
    } catch {
      // a stale socket, or a daemon that does not answer: nothing to retire
    }
  }
}
