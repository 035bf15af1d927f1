import type { FileHost } from "../../platform/index.ts";
import type { AuditEntry } from "./record.ts";
import { AuditSink, type AppendListener, type AuditStats } from "./sink.ts";

/** The live audit log of a data directory (rotated files beside it: .1, .2 …). */
export function auditFilePath(dataDir: string): string {
  return `${dataDir}/audit/hookbox-audit.jsonl`;
}

/** An audit log that may have failed to open: then every write fails, loudly, and answers still leave. */
export interface AuditLog {
  write(records: readonly AuditEntry[]): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): AuditStats;
  /** Records once they are written (a log that cannot be written tells of none). */
  onAppend(listener: AppendListener): () => void;
}

export interface AuditLogOptions {
  readonly fs: FileHost;
  readonly dataDir: string;
  /** This process (the append lock names its holder). */
  readonly pid: number;
  readonly maxFileBytes: number;
  readonly keepFiles: number;
  /** Check the chain's tail (and cut a torn line) at open: the daemon; a one-shot writer (emit) does it when it writes. */
  readonly repairTail: boolean;
}

/** Open the data directory's audit log. Never throws: a log that cannot be opened is a log whose writes fail. */
export async function openAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  const path = auditFilePath(options.dataDir);
  try {
    return await AuditSink.open({
      fs: options.fs,
      path,
      pid: options.pid,
      maxFileBytes: options.maxFileBytes,
      keepFiles: options.keepFiles,
      repairTail: options.repairTail,
    });
  } catch (error) {
    return unopenedLog(path, `cannot open ${path}: ${(error as Error).message}`);
  }
}

function unopenedLog(path: string, cause: string): AuditLog {
  const counts = { written: 0, dropped: 0 };
  return {
    write: async (records) => {
      counts.dropped += records.length;
      throw new Error(cause);
    },
    flush: async () => undefined,
    close: async () => undefined,
    onAppend: () => () => undefined,
    stats: () => ({
      path,
      written: counts.written,
      dropped: counts.dropped,
      rotations: 0,
      repairedTornLines: 0,
      lastError: cause,
      failing: true,
      chain: { tail: "unchecked", checkedLinks: 0, head: undefined },
    }),
  };
}
