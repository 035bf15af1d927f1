// Reading the end of an audit log: the link the next record must carry, and (for the daemon at
// start) whether the last records' links still hold. Called under the append lock.
import type { FileHost } from "../../platform/index.ts";
import { checkChain, GENESIS, linkTo, splitLines, summarizeLine, type ChainProblem, type LineSummary } from "./chain.ts";

const NEWLINE = 0x0a;
/** Records are ~0.5–2 KiB; a larger one (a run with many logs) takes another read, eight times larger. */
const FIRST_WINDOW_BYTES = 8 * 1024;
const CHECK_WINDOW_BYTES = 1024 * 1024;

export interface TailState {
  /** The file's size once a torn tail is cut. */
  readonly size: number;
  /** The link the next record carries: to the last line, across rotation; GENESIS when there is none. */
  readonly head: string;
  /** Bytes of a torn last line that were cut (0 when the file ended with a newline). */
  readonly cutBytes: number;
}

/**
 * Cut a torn last line (a writer that crashed mid-append: under the lock no writer is appending,
 * so bytes after the last newline belong to nobody), then find the link to the last line. An empty
 * live file continues the file rotated out before it (`<path>.1`). `size`: the file's, as just seen.
 */
export async function prepareTail(fs: FileHost, path: string, size: number): Promise<TailState> {
  const last = size > 0 ? await lastLineOf(fs, path, size) : { line: undefined, torn: 0 };
  if (last.torn > 0) await fs.truncate(path, size - last.torn);
  if (last.line) return { size: size - last.torn, head: linkTo(fs.lock.sha256, last.line), cutBytes: last.torn };
  const rotated = await lastLineOfRotated(fs, path);
  return { size: size - last.torn, head: rotated ? linkTo(fs.lock.sha256, rotated) : GENESIS, cutBytes: last.torn };
}

async function lastLineOfRotated(fs: FileHost, path: string): Promise<Uint8Array | undefined> {
  const size = fs.lock.stamp(`${path}.1`)?.size ?? 0;
  return size > 0 ? (await lastLineOf(fs, `${path}.1`, size)).line : undefined;
}

/** The last complete line (without its newline) and how many bytes follow it. */
async function lastLineOf(fs: FileHost, path: string, size: number): Promise<{ line: Uint8Array | undefined; torn: number }> {
  for (let window = FIRST_WINDOW_BYTES; ; window *= 8) {
    const bytes = await fs.readTail(path, Math.min(window, size));
    const whole = bytes.length >= size;
    const end = bytes.lastIndexOf(NEWLINE);
    if (end === -1) {
      if (whole) return { line: undefined, torn: bytes.length };
      continue;
    }
    const start = end === 0 ? -1 : bytes.lastIndexOf(NEWLINE, end - 1);
    if (start !== -1 || whole) return { line: bytes.subarray(start + 1, end), torn: bytes.length - end - 1 };
  }
}

export interface TailCheck {
  readonly checkedLinks: number;
  /** The first problem among the last records (files by name, lines counted from the file's start). */
  readonly problem: ChainProblem | undefined;
}

/**
 * Check the links of the last `maxLines` lines (within the last MiB), back to the newest record a
 * writer added where it found the chain broken (that break is already on record). Cheap: a daemon
 * runs it at start; `hookbox audit verify` checks the whole log.
 */
export async function checkTail(fs: FileHost, path: string, maxLines: number): Promise<TailCheck> {
  const size = (await fs.size(path)) ?? 0;
  if (size === 0) return { checkedLinks: 0, problem: undefined };
  const window = await fs.readTail(path, Math.min(size, CHECK_WINDOW_BYTES));
  const covered = window.length >= size;
  const lines = splitLines(window).lines;
  const name = path.slice(path.lastIndexOf("/") + 1);
  // A window that starts inside the file starts inside a line: that one is not whole.
  const first = Math.max(covered ? 0 : 1, lines.length - maxLines - 1);
  const check = async (lineOffset: number): Promise<TailCheck> => {
    const summaries: LineSummary[] = [];
    for (let i = first; i < lines.length; i++) summaries.push(summarizeLine(fs.lock.sha256, name, lineOffset + i + 1, lines[i] as Uint8Array));
    const restart = summaries.findLastIndex((s) => s.record?.kind === "chain");
    const from = restart > 0 ? restart : first === 0 && covered ? 0 : 1;
    const before = from > 0 ? summaries[from - 1] : await rotatedLast(fs, path);
    const result = checkChain(summaries.slice(from), before);
    return { checkedLinks: result.checkedLinks, problem: result.problems[0] };
  };
  const relative = await check(0);
  if (!relative.problem || covered) return relative;
  // Number the lines from the file's start: only on this rare path is the whole file read.
  const all = await fs.readBytes(path);
  let before = 0;
  for (let i = all.indexOf(NEWLINE), limit = size - window.length; i !== -1 && i < limit; i = all.indexOf(NEWLINE, i + 1)) before++;
  return check(before);
}

/** The last line of the file rotated out before `path`, numbered 0 (its number is not counted). */
async function rotatedLast(fs: FileHost, path: string): Promise<LineSummary | undefined> {
  const line = await lastLineOfRotated(fs, path);
  return line ? summarizeLine(fs.lock.sha256, `${path.slice(path.lastIndexOf("/") + 1)}.1`, 0, line) : undefined;
}
