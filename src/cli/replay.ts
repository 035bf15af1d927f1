import { Option, type Command } from "commander";
import { HISTORIES, HISTORY_AGENTS, isHistoryAgent, type HistoryAgent } from "../agents/histories.ts";
import { createCapabilityHost } from "../capabilities/index.ts";
import { HookboxError } from "../core/errors.ts";
import { parseYaml } from "../hooks/config/diagnostics.ts";
import { formatDiagnostic } from "../hooks/config/diagnostic.ts";
import type { LocationFlags } from "../hooks/config/locations.ts";
import { parseDuration } from "../hooks/config/trigger-schema.ts";
import type { Executor } from "../decide/executor.ts";
import { findProjectRoot } from "../decide/project.ts";
import { stageCandidates, type StagedCandidates } from "../decide/replay/candidates.ts";
import { compareReplays } from "../decide/replay/compare.ts";
import { replayCapabilityDeps } from "../decide/replay/effects.ts";
import { replayCalls, type ReplayedEvent, type ReplayHookSet, type ReplaySetup } from "../decide/replay/engine.ts";
import { buildReport } from "../decide/replay/report.ts";
import { saveReport } from "../decide/replay/saved.ts";
import { gatherHistory, type GatheredHistory } from "../decide/replay/sources.ts";
import { pinnedReplySchema } from "../decide/testing/fixture.ts";
import { pinnedLlm } from "../decide/testing/pinned-llm.ts";
import { z } from "zod";
import { openPool, type CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { formatComparison, formatReport } from "./replay-format.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";

interface ReplayOptions extends LocationFlags {
  readonly agent?: string;
  readonly project?: string;
  readonly since?: string;
  readonly sessions?: number;
  readonly event?: string[];
  readonly with?: string[];
  readonly compare?: string[];
  readonly llmReplies?: string;
  readonly limit: number;
  readonly save?: boolean;
  readonly json?: boolean;
}

/** When no sources are given: the project's most recent sessions, this many. */
const DEFAULT_SESSIONS = 20;
/** Progress on stderr once a replay has taken this long, then at this interval. */
const PROGRESS_MS = 2000;

/** `hookbox replay`: what a hook set would have done to recorded sessions, with no effect. */
export function registerReplay(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("replay")
      .description("Replay recorded agent sessions through a hook set, with no effect: what it would have denied, asked or rewritten")
      .argument("[sources...]", "session files or directories of them; default: this project's recent sessions of every agent"),
  )
    .addOption(new Option("--agent <agent>", "only this agent's history (and the files given are read as its)").choices(HISTORY_AGENTS))
    .option("--project <dir>", "whose sessions, when no source is given (default: the project of the current directory)")
    .option("--since <when>", "only calls recorded since then: a duration back from now (7d, 12h, 30m) or a date (2026-11-01)")
    .addOption(
      new Option("--sessions <n>", `the most recent sessions only (default: ${DEFAULT_SESSIONS} when no source is given, else all)`).argParser(
        positive("--sessions"),
      ),
    )
    .option("--event <type>", "only this native event (PreToolUse, UserPromptSubmit …; repeatable)", collect)
    .option(
      "--with <package>",
      "also run this hook, not installed yet: a package folder, a bundle (.tar.gz) or git+<repo>; it stands in for an installed hook of its id (repeatable)",
      collect,
    )
    .option(
      "--compare <sets...>",
      "replay two hook sets (A B) over the same calls and show only the calls they decide differently; each is current, an operator file (.yaml) or a package",
    )
    .option(
      "--llm-replies <file>",
      "model replies for hook.llm.complete and prompt hooks (YAML or JSON list of {answer} or {error}; the last repeats); without it no model is asked",
    )
    .addOption(new Option("--limit <n>", "denials, asks and rewrites listed in the text report").default(50).argParser(positive("--limit")))
    .option("--save", "also keep the report in the data directory (replays/), where the web console lists it")
    .option("--json", "print the report (or the comparison) as JSON")
    .addHelpText(
      "after",
      `
Where each agent's history is read from (files given on the command line are recognized by their
path and first line, or read as --agent's):
${HISTORY_AGENTS.map((agent) => `  ${agent.padEnd(8)} ${HISTORIES[agent].where}`).join("\n")}

Each recorded tool call and lifecycle event becomes the hook event the agent would have sent,
decoded by the same code as hookbox emit, and the hook set decides it: the current one (the
operator file and hooks an event of that project gets), or --hooks/--config/--builtin, plus the
hooks --with adds. A replay never acts: hooks keep their read grants; commands other than reads
(git diff, git status, cat …) are not run, network requests and notifications not sent, models
not asked (unless --llm-replies), store writes kept in memory — each counted in the report —
and nothing is written to the audit log. Lines that cannot be read (truncated, unknown) are
reported with file:line and skipped.

Examples:
  hookbox replay                                       # this project's recent sessions, the current hook set
  hookbox replay ~/.claude/projects/-home-me-app --since 7d --event PreToolUse
  hookbox replay --with ./stricter-guard               # the current set plus a hook not installed yet
  hookbox replay --compare current ./deny-env-1.1.0.tar.gz   # before hookbox update: only what changes
  hookbox replay --json > report.json                  # for CI

Exit status: 0 when the replay ran (whatever it found); with --compare, 1 when B blocks a call A
let through; 2 on a usage error or a source that cannot be read.`,
    )
    .action(async (sources: string[], options: ReplayOptions) => {
      const compare = options.compare;
      if (compare && compare.length !== 2)
        throw new HookboxError(
          "usage",
          `--compare takes two hook sets, A and B (got ${compare.length}); give the session files before it, or after --`,
        );
      const started = Date.now();
      const history = await gather(ctx, sources, options);
      if (history.calls.length === 0 && history.files === 0) {
        const where = history.searched.length > 0 ? `; looked in: ${history.searched.join("; ")}` : "";
        throw new HookboxError("file_unreadable", `no recorded sessions to replay${where}`);
      }
      const pool = await openPool(ctx, Math.min(2, ctx.host.cpuCount()));
      const staged: StagedCandidates[] = [];
      try {
        const setup = await replaySetup(ctx, runtime, pool, options, history.calls.length);
        const run = async (spec: string): Promise<{ label: string; events: ReplayedEvent[] }> => {
          const set = await hookSet(ctx, spec, options, staged);
          return { label: set.label, events: await replayCalls(history.calls, set, setup) };
        };
        if (compare) {
          const [a, b] = [await run(compare[0] as string), await run(compare[1] as string)];
          const comparison = compareReplays({ a: a.label, b: b.label }, a.events, b.events);
          await ctx.out(options.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison, options.limit));
          setExit(comparison.newly_blocked > 0 ? EXIT.failed : EXIT.ok);
          return;
        }
        const replayed = await run("current");
        const missingProjects = await missingDirs(ctx, replayed);
        const report = buildReport({
          hookSet: replayed.label,
          replayed: replayed.events,
          files: history.files,
          lines: history.lines,
          problems: history.problems,
          missingProjects,
          startedAt: started,
          now: Date.now(),
        });
        await ctx.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, options.limit));
        if (options.save) {
          const saved = await saveReport(ctx.host.fs, locationsFrom(ctx, options).dataDir, report, commandLine(sources, options));
          ctx.err(`report kept in ${saved}\n`);
        }
        setExit(EXIT.ok);
      } finally {
        for (const set of staged) await set.remove();
        await pool.close(0);
      }
    });
}

async function gather(ctx: CliContext, sources: readonly string[], options: ReplayOptions): Promise<GatheredHistory> {
  const cwd = ctx.host.cwd();
  const absolute = (path: string): string => (path.startsWith("/") ? path : `${cwd}/${path}`).replace(/\/+$/, "") || "/";
  const project = await findProjectRoot(ctx.host.fs, options.project ? absolute(options.project) : cwd, ctx.host.homeDir());
  const events = options.event?.map((name) => name.trim()).filter(Boolean);
  return gatherHistory(
    {
      paths: sources.map(absolute),
      project,
      ...(options.agent && isHistoryAgent(options.agent) ? { agent: options.agent as HistoryAgent } : {}),
      ...(options.since !== undefined ? { since: sinceOf(options.since, Date.now()) } : {}),
      ...(options.sessions !== undefined ? { sessions: options.sessions } : sources.length === 0 ? { sessions: DEFAULT_SESSIONS } : {}),
      ...(events && events.length > 0 ? { events } : {}),
    },
    { home: ctx.host.homeDir(), env: ctx.host.env },
    ctx.host.fs,
  );
}

async function replaySetup(
  ctx: CliContext,
  runtime: HookRuntimeFactory,
  pool: Executor,
  options: ReplayOptions,
  total: number,
): Promise<ReplaySetup> {
  const locations = locationsFrom(ctx, options);
  const replies = options.llmReplies !== undefined ? await readReplies(ctx, options.llmReplies) : undefined;
  let shownAt = Date.now();
  return {
    host: ctx.host,
    capabilities: createCapabilityHost(
      replayCapabilityDeps({
        io: ctx.host.capabilityIO,
        env: ctx.host.env,
        home: ctx.host.homeDir(),
        dataDir: locations.dataDir,
        ...(replies ? { llm: pinnedLlm(replies, { repeatLast: true }) } : {}),
      }),
    ),
    embedded: runtime.embedded(),
    executor: pool,
    onProgress: (done) => {
      if (Date.now() - shownAt < PROGRESS_MS || done === total) return;
      shownAt = Date.now();
      ctx.err(`replayed ${done}/${total} events…\n`);
    },
  };
}

/** A side of --compare (or "current"): the current set, an operator file in place of the current one, or the current set plus a package. */
async function hookSet(ctx: CliContext, spec: string, options: ReplayOptions, staged: StagedCandidates[]): Promise<ReplayHookSet> {
  const operatorFile = /\.ya?ml$/.test(spec) && !/(^|\/)hook\.ya?ml$/.test(spec) && (await ctx.host.fs.kind(spec)) === "file";
  const flags: LocationFlags = operatorFile ? { ...options, config: spec } : options;
  const locations = locationsFrom(ctx, flags);
  const packages = [...(options.with ?? []), ...(spec !== "current" && !operatorFile ? [spec] : [])];
  const label =
    spec === "current"
      ? describeCurrent(options)
      : operatorFile
        ? `operator file ${spec}${withText(options)}`
        : `${describeCurrent(options)} + ${spec}`;
  if (packages.length === 0) return { label, locations };
  const host = ctx.host;
  const candidates = await stageCandidates(
    packages,
    host.cwd(),
    { fs: host.fs, io: host.capabilityIO, packageIO: host.packageIO, env: host.env, home: host.homeDir() },
    locations.userHooksDir,
  );
  staged.push(candidates);
  return { label, locations, extraSources: [candidates.source], fs: candidates.fs };
}

function describeCurrent(options: ReplayOptions): string {
  const parts = [options.hooks?.length ? `--hooks ${options.hooks.join(" ")}` : "current", options.config ? `--config ${options.config}` : ""];
  return `${parts.filter(Boolean).join(" ")}${withText(options)}`;
}

function withText(options: ReplayOptions): string {
  return options.with?.length ? ` + ${options.with.join(" + ")}` : "";
}

async function readReplies(ctx: CliContext, file: string) {
  const text = await ctx.host.fs.readText(file).catch((error: unknown) => {
    throw new HookboxError("file_unreadable", `--llm-replies ${file}: ${(error as Error).message}`);
  });
  const parsed = parseYaml(text, file, z.array(pinnedReplySchema).min(1).max(10_000));
  if (!parsed.ok) throw new HookboxError("config_invalid", parsed.diagnostics.map(formatDiagnostic).join("\n"));
  return parsed.value;
}

/** The sessions' project directories that are gone: their hooks read nothing there. */
async function missingDirs(ctx: CliContext, replayed: { events: readonly ReplayedEvent[] }): Promise<string[]> {
  const dirs = new Set(replayed.events.map((event) => event.call.payload.cwd).filter((cwd): cwd is string => typeof cwd === "string"));
  const missing: string[] = [];
  for (const dir of dirs) if ((await ctx.host.fs.kind(dir)) === "missing") missing.push(dir);
  return missing;
}

/** --since: a duration back from now, or a date. */
function sinceOf(text: string, now: number): number {
  const seconds = parseDuration(text);
  if (seconds !== undefined) return now - seconds * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) throw new HookboxError("usage", `--since ${text}: give a duration (7d, 12h, 30m) or a date (2026-11-01)`);
  return date;
}

function positive(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new HookboxError("usage", `${flag} must be a positive whole number, got ${value}`);
    return n;
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function commandLine(sources: readonly string[], options: ReplayOptions): string {
  return [
    "hookbox replay",
    ...sources,
    ...(options.with ?? []).map((w) => `--with ${w}`),
    options.config ? `--config ${options.config}` : "",
    options.since ? `--since ${options.since}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
