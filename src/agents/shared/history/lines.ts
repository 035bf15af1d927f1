import type { AgentName } from "../protocol/types.ts";
import type { HistoryCall, HistoryFs, HistoryProblem, HistoryRead } from "./types.ts";

/** How much of a line a problem quotes. */
const QUOTED_CHARS = 80;

/** One JSON line of a history file, parsed, or why not. */
export type JsonLine =
  | { readonly ok: true; readonly line: number; readonly value: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly problem: HistoryProblem };

/**
 * The JSON objects of a JSONL file, each with its line number; a line that is not a JSON object
 * (truncated by a crash, cut by a copy, something else) is a problem naming file:line, never a
 * stop: the lines after it are read.
 */
export function* jsonLines(file: string, text: string): Generator<JsonLine> {
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] as string).replace(/\r$/, "");
    if (raw.trim() === "") continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      const last = index === lines.length - 1 || (index === lines.length - 2 && lines[lines.length - 1] === "");
      yield {
        ok: false,
        problem: { file, line, problem: `${last ? "truncated" : "not JSON"} (${quote(raw)}): skipped` },
      };
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      yield { ok: false, problem: { file, line, problem: `not a JSON object (${quote(raw)}): skipped` } };
      continue;
    }
    yield { ok: true, line, value: value as Record<string, unknown> };
  }
}

/** A problem for a line whose JSON is fine but whose shape this reader does not know. */
export function unknownLine(file: string, line: number, what: string): HistoryProblem {
  return { file, line, problem: `unknown entry (${what}): skipped` };
}

function quote(raw: string): string {
  return JSON.stringify(raw.length > QUOTED_CHARS ? `${raw.slice(0, QUOTED_CHARS)}…` : raw);
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The first line of a file's text (for recognizing its format without reading it all twice). */
export function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
}

/** Claude Code's and Qwen Code's name for a project's directory: every character but a-z, A-Z, 0-9 becomes "-". */
export function mungedPath(path: string): string {
  return path.replace(/[^A-Za-z0-9]/g, "-");
}

/** Files in a directory whose names match, newest name last → sorted newest first by name (their names start with a time or an id). */
export async function filesIn(
  fs: { listDir(path: string): Promise<readonly { readonly name: string; readonly kind: string }[]> },
  dir: string,
  name: RegExp,
): Promise<string[]> {
  const entries = await fs.listDir(dir).catch(() => []);
  return entries.filter((entry) => entry.kind === "file" && name.test(entry.name)).map((entry) => `${dir}/${entry.name}`);
}

/** Whether `path` is `dir` or inside it. */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/**
 * One file's reading, as every reader keeps it: the calls made of it, the lines that could not be
 * read (each at file:line), how many lines there were, and each tool call by its id (its result,
 * further on, says how it went or that a hook blocked it in the session).
 */
export class HistoryReading<Tool extends object> {
  readonly calls: HistoryCall[] = [];
  readonly problems: HistoryProblem[] = [];
  lines = 0;
  private readonly tools = new Map<string, Tool & { readonly index: number }>();

  constructor(
    readonly agent: AgentName,
    readonly file: string,
  ) {}

  /** A call read at `where.line`: the agent's event name and the payload it would have sent. */
  call(
    eventName: string,
    payload: Readonly<Record<string, unknown>>,
    where: { readonly line: number; readonly at: string | undefined; readonly session: string },
  ): HistoryCall {
    return { agent: this.agent, eventName, payload, file: this.file, ...where };
  }

  /** The file's JSON objects; a line that is not one is a problem, and the lines after it are read. */
  *entries(content: string): Generator<{ readonly line: number; readonly value: Readonly<Record<string, unknown>> }> {
    for (const parsed of jsonLines(this.file, content)) {
      this.lines++;
      if (parsed.ok) yield parsed;
      else this.problems.push(parsed.problem);
    }
  }

  /** A line whose JSON is fine but whose shape the reader does not know. */
  unknown(line: number, what: string): void {
    this.problems.push(unknownLine(this.file, line, what));
  }

  problem(line: number, problem: string): void {
    this.problems.push({ file: this.file, line, problem });
  }

  /** A call; undefined (a call that could not be made, its problem said) is left out. */
  push(call: HistoryCall | undefined): void {
    if (call) this.calls.push(call);
  }

  /** A tool call (PreToolUse), kept by its id for its result. */
  toolCall(id: string, tool: Tool, call: HistoryCall): void {
    this.tools.set(id, { ...tool, index: this.calls.length });
    this.calls.push(call);
  }

  tool(id: string | undefined): Tool | undefined {
    return id !== undefined ? this.tools.get(id) : undefined;
  }

  hasTool(id: string): boolean {
    return this.tools.has(id);
  }

  /** A hook blocked the tool call in the session (its result says so): the tool never ran. */
  blocked(id: string, why: string): void {
    const tool = this.tools.get(id);
    if (tool) this.calls[tool.index] = { ...(this.calls[tool.index] as HistoryCall), blockedLive: why };
  }

  result(): HistoryRead {
    return { calls: this.calls, problems: this.problems, lines: this.lines };
  }
}

/** What Gemini CLI's hook payloads, and those of Qwen Code (its fork), open with. */
export function geminiStyleFields(
  session: string,
  file: string,
  cwd: string | undefined,
  eventName: string,
  at: string | undefined,
): Record<string, unknown> {
  return {
    session_id: session,
    transcript_path: file,
    ...(cwd !== undefined ? { cwd } : {}),
    hook_event_name: eventName,
    ...(at !== undefined ? { timestamp: at } : {}),
  };
}

/** The project's directories under `root` where Claude Code and Qwen Code keep sessions: its own, and those of directories below it. */
export async function mungedProjectDirs(fs: Pick<HistoryFs, "listDir">, root: string, project: string): Promise<string[]> {
  const own = mungedPath(project);
  return (await fs.listDir(root).catch(() => []))
    .filter((entry) => entry.kind === "dir" && (entry.name === own || entry.name.startsWith(`${own}-`)))
    .map((entry) => `${root}/${entry.name}`);
}
