// `hookbox audit verify`: every link of the live log and its rotated files, oldest first.
import type { FileHost } from "../../platform/index.ts";
import { checkChain, describeProblem, splitLines, summarizeLine, type ChainProblem, type LineSummary, type Place } from "./chain.ts";
import { AppendLock, type HeldLock } from "../../platform/lock.ts";
import { checkHeads, type AuditHead, type SystemLogCheck } from "./system-log.ts";

export interface VerifyOptions {
  readonly fs: FileHost;
  /** The live log; rotated files are found beside it (`<name>.1` newest … `<name>.N` oldest). */
  readonly path: string;
  readonly pid: number;
  /** A link saved earlier (a head printed by verify, or exported): the log must still hold that line. */
  readonly anchor?: string;
  /** Heads the system log holds for this log (`--against-system-log`): each one sent since the oldest kept record must be a line. */
  readonly heads?: readonly AuditHead[];
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly directory: string;
  /** Oldest first. */
  readonly files: readonly { readonly name: string; readonly lines: number }[];
  readonly records: number;
  readonly chained: number;
  /** Records written before the chain (by a Hookbox without it): nothing to verify them against. */
  readonly unchained: { readonly count: number; readonly lastAt: string | undefined };
  /** genesis: from the first record ever; continued: the oldest kept file continues one rotated out. */
  readonly origin: "genesis" | "continued" | "unchained" | "empty";
  readonly checkedLinks: number;
  /** The link to the last line: what to keep (or export) as an anchor. */
  readonly head: (Place & { readonly hash: string }) | undefined;
  /** Where a writer found the chain broken and went on (records of kind "chain"). */
  readonly restarts: readonly Place[];
  readonly problems: readonly (ChainProblem & { readonly message: string })[];
  readonly anchor?: { readonly hash: string; readonly found: Place | undefined };
  /** Set when the files were read without the append lock (a directory this user cannot write): a record being appended may show as a torn line. */
  readonly unlocked?: string;
  /** With heads from the system log: what they say of the kept files. */
  readonly systemLog?: SystemLogCheck;
}

const ROTATION_RETRIES = 3;

export async function verifyAuditLog(options: VerifyOptions): Promise<VerifyReport> {
  for (let attempt = 1; ; attempt++) {
    const snapshot = await takeSnapshot(options);
    const read = await readSnapshot(options.fs, snapshot);
    // A rotation while the files were read renames them under us: read them again.
    if (read) return report(options, snapshot, read);
    if (attempt === ROTATION_RETRIES) throw new Error(`${options.path} was rotated ${attempt} times while it was being verified; run it again`);
  }
}

interface Snapshot {
  readonly directory: string;
  /** Oldest first; the live file last. */
  readonly files: readonly { readonly name: string; readonly stamp: string; readonly size: number }[];
  /** Why the files were read without the append lock, when they were. */
  readonly unlocked: string | undefined;
}

/**
 * Under the append lock (held for a few stats): which files there are and how far the live file
 * goes, so a record being appended right now is neither half-read nor taken for a torn line. A
 * directory this user cannot write (someone else's log, a read-only copy) is read without it.
 */
async function takeSnapshot(options: VerifyOptions): Promise<Snapshot> {
  const { fs, path } = options;
  const slash = path.lastIndexOf("/");
  const directory = path.slice(0, slash) || "/";
  const live = path.slice(slash + 1);
  if ((await fs.kind(directory)) !== "dir") return { directory, files: [], unlocked: undefined };
  let lock: HeldLock | undefined;
  let unlocked: string | undefined;
  try {
    lock = await new AppendLock({ io: fs.lock, path: `${path}.lock`, pid: options.pid }).acquire();
  } catch (error) {
    unlocked = (error as Error).message;
  }
  try {
    const entries = (await fs.listDir(directory)).filter((e) => e.kind === "file");
    const rotated = entries
      .map((e) => ({ name: e.name, n: rotationNumber(live, e.name) }))
      .filter((e): e is { name: string; n: number } => e.n !== undefined)
      .sort((a, b) => b.n - a.n);
    const names = [...rotated.map((e) => e.name), ...(entries.some((e) => e.name === live) ? [live] : [])];
    const files = names.map((name) => ({ name, ...(fs.lock.stamp(`${directory}/${name}`) ?? { token: "missing", size: 0 }) }));
    return { directory, files: files.map((f) => ({ name: f.name, stamp: f.token, size: f.size })), unlocked };
  } finally {
    lock?.release();
  }
}

function rotationNumber(live: string, name: string): number | undefined {
  if (!name.startsWith(`${live}.`)) return undefined;
  const suffix = name.slice(live.length + 1);
  return /^[1-9][0-9]{0,5}$/.test(suffix) ? Number(suffix) : undefined;
}

interface Read {
  readonly lines: LineSummary[];
  readonly perFile: { name: string; lines: number }[];
  readonly torn: ChainProblem[];
}

/** Every line's summary, or undefined when a rotated file changed while it was read. */
async function readSnapshot(fs: FileHost, snapshot: Snapshot): Promise<Read | undefined> {
  const lines: LineSummary[] = [];
  const perFile: { name: string; lines: number }[] = [];
  const torn: ChainProblem[] = [];
  const last = snapshot.files.length - 1;
  for (const [index, file] of snapshot.files.entries()) {
    const full = `${snapshot.directory}/${file.name}`;
    // The live file grows while it is read: only what it held under the lock counts.
    const bytes = (await fs.readBytes(full).catch(() => new Uint8Array())).subarray(0, file.size);
    if (index !== last && fs.lock.stamp(full)?.token !== file.stamp) return undefined;
    const split = splitLines(bytes);
    for (const [i, line] of split.lines.entries()) lines.push(summarizeLine(fs.lock.sha256, file.name, i + 1, line));
    if (split.torn) torn.push({ kind: "torn_tail", file: file.name, line: split.lines.length + 1, bytes: split.torn.length });
    perFile.push({ name: file.name, lines: split.lines.length });
  }
  return { lines, perFile, torn };
}

function report(options: VerifyOptions, snapshot: Snapshot, read: Read): VerifyReport {
  const places = new Map<string, Place>();
  for (const line of read.lines) places.set(line.hash, { file: line.file, line: line.line });
  const check = checkChain(read.lines, undefined, places);
  const order = new Map(read.perFile.map((file, index) => [file.name, index]));
  const problems = [...check.problems, ...read.torn]
    .sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line)
    .map((problem) => ({ ...problem, message: describeProblem(problem) }));
  const tail = read.lines.at(-1);
  const anchor = options.anchor === undefined ? undefined : { hash: options.anchor, found: places.get(options.anchor) };
  const systemLog = options.heads === undefined ? undefined : checkHeads(read.lines, check.origin, options.heads);
  return {
    ok: problems.length === 0 && (anchor === undefined || anchor.found !== undefined) && (systemLog === undefined || systemLog.ok),
    directory: snapshot.directory,
    files: read.perFile,
    records: read.lines.filter((l) => l.json).length,
    chained: check.chained,
    unchained: check.unchained,
    origin: check.origin,
    checkedLinks: check.checkedLinks,
    head: tail ? { hash: tail.hash, file: tail.file, line: tail.line } : undefined,
    restarts: check.restarts,
    problems,
    ...(anchor ? { anchor } : {}),
    ...(snapshot.unlocked ? { unlocked: snapshot.unlocked } : {}),
    ...(systemLog ? { systemLog } : {}),
  };
}
