import {
  firstLine,
  HISTORIES,
  HISTORY_AGENTS,
  historyFormatOf,
  type HistoryAgent,
  type HistoryCall,
  type HistoryFormat,
  type HistoryFs,
  type HistoryPlaces,
  type HistoryProblem,
} from "../../agents/histories.ts";
import { nativeEventName, PROTOCOLS } from "../../agents/protocols.ts";
import { HookboxError } from "../../core/errors.ts";

/** What a replay reads: files and directories given, or the project's recent sessions of each agent. */
export interface HistoryQuery {
  /** Files or directories; empty: the recent sessions of `project`. */
  readonly paths: readonly string[];
  readonly project: string;
  /** Only this agent's history (and, for a file given, read as this agent's). */
  readonly agent?: HistoryAgent;
  /** Only calls recorded at or after this instant (epoch ms). */
  readonly since?: number;
  /** Only the most recent sessions, this many. */
  readonly sessions?: number;
  /** Only these native event types (PreToolUse …). */
  readonly events?: readonly string[];
}

export interface GatheredHistory {
  readonly calls: readonly HistoryCall[];
  readonly problems: readonly HistoryProblem[];
  readonly files: number;
  readonly lines: number;
  /** Where the sessions were looked for, when none was given and none was found. */
  readonly searched: readonly string[];
}

/** A history file larger than this is skipped, said (a session of many hours is tens of MiB). */
const MAX_FILE_BYTES = 512 * 1024 * 1024;
const MAX_DIRECTORY_FILES = 10_000;
const MAX_DEPTH = 8;

export interface SourceFs extends HistoryFs {
  size(path: string): Promise<number | undefined>;
}

/**
 * The recorded calls to replay, oldest session first (each session's calls in the order the
 * agent made them). A file no reader recognizes is a problem, not a stop; a line no reader can
 * read is one too (its readers report it with file:line).
 */
export async function gatherHistory(query: HistoryQuery, places: HistoryPlaces, fs: SourceFs): Promise<GatheredHistory> {
  const problems: HistoryProblem[] = [];
  const targets: { file: string; format: HistoryFormat | undefined }[] = [];
  const searched: string[] = [];
  if (query.paths.length === 0) {
    for (const agent of query.agent ? [query.agent] : HISTORY_AGENTS) {
      searched.push(HISTORIES[agent].where);
      for (const file of await HISTORIES[agent].sessionsOf(query.project, places, fs)) targets.push({ file, format: HISTORIES[agent] });
    }
  } else {
    for (const path of query.paths) {
      const kind = await fs.kind(path);
      if (kind === "missing") throw new HookboxError("file_unreadable", `${path}: no such file or directory`);
      const files = kind === "dir" ? await historyFiles(fs, path) : [path];
      for (const file of files) targets.push({ file, format: query.agent ? HISTORIES[query.agent] : undefined });
    }
  }
  const sessions: { key: string; calls: HistoryCall[]; last: number }[] = [];
  let lines = 0;
  let files = 0;
  for (const target of targets) {
    const size = await fs.size(target.file);
    if (size !== undefined && size > MAX_FILE_BYTES) {
      problems.push({ file: target.file, line: 0, problem: `${size} bytes, more than the ${MAX_FILE_BYTES} a history file may have: skipped` });
      continue;
    }
    let text: string;
    try {
      text = await fs.readText(target.file);
    } catch (error) {
      problems.push({ file: target.file, line: 0, problem: `cannot be read (${(error as Error).message}): skipped` });
      continue;
    }
    const format = target.format ?? historyFormatOf(target.file, firstLine(text));
    if (!format) {
      // A directory holds other files too: only a file named on the command line is worth a word.
      if (query.paths.includes(target.file))
        problems.push({
          file: target.file,
          line: 1,
          problem: `not a history Hookbox reads (${HISTORY_AGENTS.join(", ")}; --agent names one): skipped`,
        });
      continue;
    }
    if (query.agent && format.agent !== query.agent) continue;
    files++;
    const read = await format.read(target.file, text, fs);
    lines += read.lines;
    problems.push(...read.problems);
    const bySession = new Map<string, HistoryCall[]>();
    for (const call of read.calls) {
      if (query.since !== undefined && call.at !== undefined && Date.parse(call.at) < query.since) continue;
      if (query.events && !query.events.includes(nativeEventName(PROTOCOLS[call.agent], call.eventName) ?? call.eventName)) continue;
      const list = bySession.get(call.session) ?? [];
      list.push(call);
      bySession.set(call.session, list);
    }
    for (const [session, calls] of bySession)
      sessions.push({
        key: `${format.agent}:${session}:${target.file}`,
        calls,
        last: Math.max(0, ...calls.map((call) => Date.parse(call.at ?? "") || 0)),
      });
  }
  sessions.sort((a, b) => a.last - b.last);
  const kept = query.sessions !== undefined ? sessions.slice(-query.sessions) : sessions;
  return { calls: kept.flatMap((session) => session.calls), problems, files, lines, searched };
}

/** The files under a directory that may be histories (JSONL, JSON), bounded. */
async function historyFiles(fs: HistoryFs, dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || found.length >= MAX_DIRECTORY_FILES) return;
    const entries = [...(await fs.listDir(path).catch(() => []))].sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const child = `${path}/${entry.name}`;
      if (entry.kind === "dir") await walk(child, depth + 1);
      else if (entry.kind === "file" && /\.jsonl?$/.test(entry.name) && found.length < MAX_DIRECTORY_FILES) found.push(child);
    }
  };
  await walk(dir.replace(/\/+$/, ""), 0);
  return found;
}
