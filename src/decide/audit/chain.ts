// The audit log's hash chain (DESIGN §7): each record carries `prev`, the SHA-256 of the exact
// bytes of the line before it (without its newline), so a reader checks a link by hashing bytes,
// never by re-serialising JSON. The chain runs across rotated files: the first line of a new live
// file links to the last line of the file rotated out before it.

/** The `prev` of the first record of a log that has never had a line. */
export const GENESIS = `sha256:${"0".repeat(64)}`;

const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** SHA-256 as lowercase hex, synchronously (FileHost.lock.sha256). */
export type Sha256 = (bytes: Uint8Array) => string;

/** The link to a line: `sha256:<hex>` of its bytes as written, without the newline that ends it. */
export function linkTo(sha256: Sha256, line: Uint8Array | string): string {
  return `sha256:${sha256(typeof line === "string" ? encoder.encode(line) : line)}`;
}

/**
 * Records serialised without their link, then linked in order to `head` (the link to the line the
 * file ends with): each line gets `"prev"` as its last field. Returns the text to append and the
 * link to its last line, the next batch's head.
 */
export function linkLines(sha256: Sha256, bodies: readonly string[], head: string): { text: string; head: string } {
  let prev = head;
  let text = "";
  for (const body of bodies) {
    const line = body === "{}" ? `{"prev":"${prev}"}` : `${body.slice(0, -1)},"prev":"${prev}"}`;
    text += `${line}\n`;
    prev = linkTo(sha256, line);
  }
  return { text, head: prev };
}

/** A record as the sink serialises it: whatever `prev` it carried is the sink's to set. */
export function recordBody(record: object): string {
  const { prev: _ignored, ...rest } = record as { prev?: unknown };
  return JSON.stringify(rest);
}

export interface SplitLines {
  /** Every line that ends with a newline, without it. */
  readonly lines: Uint8Array[];
  /** Bytes after the last newline: a write cut short (a crash mid-append) or a truncated file. */
  readonly torn: Uint8Array | undefined;
}

export function splitLines(bytes: Uint8Array): SplitLines {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  return { lines, torn: start < bytes.length ? bytes.subarray(start) : undefined };
}

/** What a checker needs of one line: where it is, what it hashes to, and what it links to. */
export interface LineSummary {
  readonly file: string;
  /** 1-based, within its file. */
  readonly line: number;
  readonly hash: string;
  /** False for a line that is not a JSON object. */
  readonly json: boolean;
  /** The link it carries; undefined for a record without one (written before the chain). */
  readonly prev: string | undefined;
  readonly record: RecordRef | undefined;
}

/** Enough of a record to name it in a report. */
export interface RecordRef {
  readonly id?: string;
  readonly kind: string;
  readonly event_id?: string;
  readonly hook_id?: string;
  readonly at?: string;
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

export function summarizeLine(sha256: Sha256, file: string, line: number, bytes: Uint8Array): LineSummary {
  const hash = linkTo(sha256, bytes);
  let value: unknown;
  try {
    value = JSON.parse(strictDecoder.decode(bytes));
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { file, line, hash, json: false, prev: undefined, record: undefined };
  const fields = value as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof fields[key] === "string" ? (fields[key] as string) : undefined);
  const record: RecordRef = {
    kind: text("kind") ?? (text("hook_id") ? "run" : "unknown"),
    ...(text("id") ? { id: text("id") } : {}),
    ...(text("event_id") ? { event_id: text("event_id") } : {}),
    ...(text("hook_id") ? { hook_id: text("hook_id") } : {}),
    ...(text("started_at") || text("at") ? { at: text("started_at") ?? text("at") } : {}),
  };
  const prev = "prev" in fields ? String(fields.prev) : undefined;
  return { file, line, hash, json: true, prev, record };
}

export interface Place {
  readonly file: string;
  readonly line: number;
}

export type ChainProblem =
  | {
      readonly kind: "broken_link";
      readonly file: string;
      readonly line: number;
      readonly record: RecordRef | undefined;
      /** The link the record carries: what the line before it hashed to when it was written. */
      readonly expected: string;
      /** What the line before it hashes to now. */
      readonly found: string;
      readonly previous: Place;
      /** The line the link does point at, when it is another line of the log (records moved). */
      readonly linksTo: Place | undefined;
    }
  | { readonly kind: "not_json"; readonly file: string; readonly line: number }
  | { readonly kind: "unchained"; readonly file: string; readonly line: number; readonly record: RecordRef | undefined }
  | { readonly kind: "torn_tail"; readonly file: string; readonly line: number; readonly bytes: number };

export interface ChainCheck {
  readonly problems: ChainProblem[];
  /** Lines that are records carrying a link. */
  readonly chained: number;
  /** Records before the first link (written by a Hookbox without the chain). */
  readonly unchained: { readonly count: number; readonly lastAt: string | undefined };
  /** Links that were compared with the line before them. */
  readonly checkedLinks: number;
  /** How the first line checked begins the chain. */
  readonly origin: "genesis" | "continued" | "unchained" | "empty";
  /** The link to the last line: what the next record will carry. */
  readonly head: string | undefined;
  /** Records a writer added where it found the chain broken (kind "chain"). */
  readonly restarts: Place[];
}

/**
 * Check every link of `lines` (in log order). `before` is the line before the first one, when
 * known: without it the first line's link cannot be checked (it continues a file no longer kept,
 * or one the caller did not read). `elsewhere` maps other lines' hashes to where they are, to
 * tell a moved record from a changed one.
 */
export function checkChain(lines: readonly LineSummary[], before: LineSummary | undefined, elsewhere?: ReadonlyMap<string, Place>): ChainCheck {
  const problems: ChainProblem[] = [];
  let chained = 0;
  let checkedLinks = 0;
  let unchainedCount = 0;
  let unchainedLastAt: string | undefined;
  let origin: ChainCheck["origin"] = lines.length === 0 ? "empty" : "unchained";
  let started = before?.prev !== undefined;
  const restarts: Place[] = [];
  let previous = before;
  for (const line of lines) {
    if (!line.json) problems.push({ kind: "not_json", file: line.file, line: line.line });
    else if (line.prev === undefined) {
      if (started) problems.push({ kind: "unchained", file: line.file, line: line.line, record: line.record });
      else {
        unchainedCount++;
        unchainedLastAt = line.record?.at ?? unchainedLastAt;
      }
    } else {
      chained++;
      if (!started && chained === 1) origin = previous ? "unchained" : line.prev === GENESIS ? "genesis" : "continued";
      started = true;
      if (previous) {
        checkedLinks++;
        if (line.prev !== previous.hash) {
          const target = elsewhere?.get(line.prev);
          problems.push({
            kind: "broken_link",
            file: line.file,
            line: line.line,
            record: line.record,
            expected: line.prev,
            found: previous.hash,
            previous: { file: previous.file, line: previous.line },
            linksTo: target,
          });
        }
      }
      if (line.record?.kind === "chain") restarts.push({ file: line.file, line: line.line });
    }
    previous = line;
  }
  return { problems, chained, unchained: { count: unchainedCount, lastAt: unchainedLastAt }, checkedLinks, origin, head: previous?.hash, restarts };
}

/** One sentence: where, what, and what it may mean. */
export function describeProblem(problem: ChainProblem): string {
  const at = `${problem.file} line ${problem.line}`;
  switch (problem.kind) {
    case "broken_link": {
      const previous = sameFile(problem.previous, problem.file);
      const what = problem.linksTo
        ? `it links to ${sameFile(problem.linksTo, problem.file)} instead: records were moved or reordered`
        : `${previous} was changed after it was written, or records between ${previous} and line ${problem.line} were removed`;
      return `${at}${nameRecord(problem.record)} links to ${problem.expected}, but ${previous} hashes to ${problem.found}: ${what}`;
    }
    case "not_json":
      return `${at} is not a JSON record: a line was inserted or overwritten`;
    case "unchained":
      return `${at}${nameRecord(problem.record)} carries no link inside the chained part of the log: inserted, or written by a Hookbox without the chain`;
    case "torn_tail":
      return `${at} is incomplete (${problem.bytes} bytes without a newline): a writer was interrupted mid-append, or the file was truncated; the next write cuts it`;
  }
}

/** Line 0: a line whose number was not counted (the last line of a rotated file, read from its end). */
function sameFile(place: Place, file: string): string {
  if (place.line === 0) return `the last line of ${place.file}`;
  return place.file === file ? `line ${place.line}` : `${place.file} line ${place.line}`;
}

function nameRecord(record: RecordRef | undefined): string {
  if (!record) return "";
  const parts = [record.kind, record.id ? `id ${record.id}` : undefined, record.hook_id ? `hook ${record.hook_id}` : undefined, record.at].filter(
    Boolean,
  );
  return ` (${parts.join(", ")})`;
}
