import { execFile } from "node:child_process";
import { fstatSync } from "node:fs";
import { readFile, readlink, stat } from "node:fs/promises";
import { fileIdentityId, type FileIdentity, type PeerEvidence } from "./peer-types.ts";

/**
 * The peer of a connected unix socket as Node can read it on Linux. Node has no SO_PEERCRED and
 * no netlink of its own, so `ss -xpn` (iproute2: it asks the kernel's sock_diag, and lists the
 * descriptors of the processes this user may read) names the socket at the other end of this
 * very connection and the process holding it; /proc/<pid> then says what that process runs. The
 * process is read between two readings of its start time, and the descriptor ss named is checked
 * last: a pid reused meanwhile cannot pass for it. ~10-30 ms (a process start and a scan of
 * /proc), so hookbox/client does this only when asked (verifyPeer).
 */
export async function readPeerWithSs(fd: number, self: FileIdentity): Promise<PeerEvidence> {
  const mine = fstatSync(fd, { bigint: true }).ino;
  let listing: string | undefined;
  for (const ss of SS_PATHS) {
    try {
      listing = await run(ss, ["-xpnH"]);
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENOENT") return { read: false, why: `${ss} failed: ${(error as Error).message}` };
    }
  }
  if (listing === undefined)
    return {
      read: false,
      why: `ss (iproute2) is not installed here (${SS_PATHS.join(", ")}), and Node has no other way to tell which process answers on a unix socket`,
    };
  const end = serverEnd(listing, mine);
  if (!end) return { read: false, why: "ss does not list the other end of this connection (the server closed it, or it is another user's)" };
  const pids = [...new Set(end.holders.map((holder) => holder.pid))];
  if (pids.length === 0) return { read: false, why: "no process this user may read holds the other end of this connection (another user's?)" };
  if (pids.length > 1) return { read: false, why: `the other end of this connection is held by several processes (${pids.join(", ")})` };
  const { pid, fd: theirs } = end.holders[0] as { pid: number; fd: number };
  try {
    const started = await startTime(pid);
    const uid = (await stat(`/proc/${pid}`)).uid;
    const exe = await stat(`/proc/${pid}/exe`, { bigint: true });
    const executable = { id: identityOfStat(exe), path: await readlink(`/proc/${pid}/exe`).catch(() => "exe") };
    const environ = (await readFile(`/proc/${pid}/environ`, "utf8")).split("\0").filter(Boolean);
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const tracerPid = Number(/^TracerPid:\s*(\d+)/m.exec(status)?.[1] ?? "0");
    const holdsConnection = (await readlink(`/proc/${pid}/fd/${theirs}`).catch(() => "")) === `socket:[${end.inode}]`;
    if ((await startTime(pid)) !== started) return { read: false, why: `process ${pid} changed while it was read`, gone: true };
    return { read: true, peer: { pid, uid, holdsConnection, executable, environ, tracerPid }, self };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ESRCH") return { read: false, why: `the process holding the other end (pid ${pid}) has exited`, gone: true };
    return { read: false, why: `/proc/${pid} cannot be read (${(error as Error).message})` };
  }
}

/**
 * Where ss is looked for: the system's own directories only, never PATH, where the agent (the same
 * user) could put an `ss` of its own that names a genuine daemon as the one answering.
 */
const SS_PATHS = ["/usr/bin/ss", "/usr/sbin/ss", "/bin/ss", "/sbin/ss"];

/** A file's FileIdentity.id from a bigint stat (Linux's dev_t encoding: 12 bits of major and 20 of minor, split). */
export function identityOfStat(info: { readonly dev: bigint; readonly ino: bigint }): string {
  const major = ((info.dev >> 8n) & 0xfffn) | ((info.dev >> 32n) & ~0xfffn);
  const minor = (info.dev & 0xffn) | ((info.dev >> 12n) & ~0xffn);
  return fileIdentityId(`${major}:${minor}`, info.ino >> 32n, info.ino & 0xffffffffn);
}

/**
 * In `ss -xpnH` output, the socket whose peer is inode `mine`, and who holds it. Each line ends
 * "<local address> <inode> <peer address> <peer inode> [users:((name,pid=N,fd=M),…)]"; addresses
 * may hold spaces, so the fields are counted from the end.
 */
export function serverEnd(
  listing: string,
  mine: bigint,
): { readonly inode: string; readonly holders: { readonly pid: number; readonly fd: number }[] } | undefined {
  for (const line of listing.split("\n")) {
    const users = line.indexOf(" users:(");
    const fields = (users < 0 ? line : line.slice(0, users)).trim().split(/\s+/);
    if (fields.length < 6 || fields.at(-1) !== String(mine)) continue;
    const holders = users < 0 ? [] : [...line.slice(users).matchAll(/pid=(\d+),fd=(\d+)/g)].map((m) => ({ pid: Number(m[1]), fd: Number(m[2]) }));
    return { inode: fields.at(-3) as string, holders };
  }
  return undefined;
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
async function startTime(pid: number): Promise<string> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).split(" ")[19] ?? "";
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: 10_000, maxBuffer: 64 * 1024 * 1024, env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}
