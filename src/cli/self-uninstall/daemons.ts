import { DAEMON_ROUTES } from "../../core/wire/daemon.ts";
import type { CliContext } from "../context.ts";

/** How long a daemon that is starting, or finishing, gets. */
const SETTLE_MS = 20_000;

/**
 * The daemons no socket showed yet: one an agent's event started a moment ago holds its socket's
 * lock (`<socket>.lock`) before it listens, and one that was just asked to stop holds it until it
 * has finished. Wait for each lock to be free, asking a daemon that comes up meanwhile to stop;
 * what is still held after SETTLE_MS is named. Without locks (Hookbox run from sources), nothing
 * to wait for.
 */
export async function settleDaemons(ctx: CliContext, socketDirs: readonly string[]): Promise<string[]> {
  const daemon = ctx.host.daemon;
  if (!daemon) return [];
  const locks: string[] = [];
  for (const dir of socketDirs) {
    for (const entry of await ctx.host.fs.listDir(dir).catch(() => [])) if (entry.name.endsWith(".sock.lock")) locks.push(`${dir}/${entry.name}`);
  }
  const problems: string[] = [];
  const deadline = Date.now() + SETTLE_MS;
  for (const lockFile of locks) {
    const socket = lockFile.slice(0, -".lock".length);
    for (;;) {
      const lock = await daemon.tryLock(lockFile).catch(() => undefined);
      if (lock) {
        lock.release();
        break;
      }
      if (Date.now() > deadline) {
        problems.push(`a daemon still holds ${lockFile} (starting or finishing): run hookbox self-uninstall again in a moment`);
        break;
      }
      if ((await ctx.host.fs.kind(socket)) === "socket")
        await ctx.host.net.request({ unix: socket }, { method: "POST", path: DAEMON_ROUTES.stop, timeoutMs: 2000 }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return problems;
}
