// Who answered on a unix socket: what the kernel and /proc say of the process at the other end of
// one connection (bun-peer.ts reads it on Linux). Facts only; whether they are enough to trust
// that process is decided by src/platform/peer-trust.ts.
import type { HttpReply } from "./http-types.ts";

/** A file as the kernel knows it: its device and inode (fileIdentityId), which no path or name can imitate; `path` for messages. */
export interface FileIdentity {
  readonly id: string;
  readonly path: string;
}

/** FileIdentity.id, the same from every reader: "major:minor:inode high 32 bits:inode low 32 bits". */
export function fileIdentityId(device: string, inodeHigh: number | bigint, inodeLow: number | bigint): string {
  return `${device}:${inodeHigh}:${inodeLow}`;
}

/** The process at the other end of one connection, read while that connection was still open. */
export interface PeerProcess {
  /** SO_PEERCRED: the process that listened on the socket, and its uid. */
  readonly pid: number;
  readonly uid: number;
  /**
   * Whether that process holds the server end of this very connection (found among its
   * descriptors); not known yet (undefined) before the server answered, when it may not have
   * accepted the connection.
   */
  readonly holdsConnection?: boolean;
  /** The file it was started from (/proc/<pid>/exe). */
  readonly executable: FileIdentity;
  /** Its environment as it was started with (/proc/<pid>/environ), NAME=value each. */
  readonly environ: readonly string[];
  /** A process tracing it (a debugger), 0 when none (/proc/<pid>/status). */
  readonly tracerPid: number;
}

/** This process, as the judge compares a peer with it. */
export interface SelfProcess extends FileIdentity {
  /** Whether this process may write `path` (or nothing is there); absent where the runtime cannot tell. */
  readonly writable?: (path: string) => boolean;
}

export type PeerEvidence =
  | {
      readonly read: true;
      readonly peer: PeerProcess;
      /** This process's own executable (hookbox/client: the binary it trusts). */ readonly self: SelfProcess;
    }
  /** Could not be read; `gone` when the process that listened has exited (a stale socket, or one it handed on). */
  | { readonly read: false; readonly why: string; readonly gone?: boolean };

/** Why a peer must not be used, or undefined: src/platform/peer-trust.ts, handed to the runtime. */
export type PeerJudge = (evidence: PeerEvidence) => string | undefined;

/**
 * A request with its peer read (NetHost.requestWithPeer); or refused by the judge once connected,
 * before anything was sent; or why this runtime cannot read a peer — then nothing was sent:
 * what cannot be verified is not asked.
 */
export type PeeredReply =
  | { readonly reply: HttpReply; readonly peer: PeerEvidence }
  | { readonly refused: string; readonly peer: PeerEvidence }
  | { readonly unverifiable: string };
