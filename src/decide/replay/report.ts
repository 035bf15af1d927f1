import type { HistoryProblem } from "../../agents/histories.ts";
import type { AuditRecordV1 } from "../audit/record.ts";
import { NOT_MADE } from "./effects.ts";
import { callSummary, type CallSummary, type ReplayedEvent } from "./engine.ts";

/** The report of a replay, as `hookbox replay --json` prints it (snake_case, versioned). */
export interface ReplayReport {
  readonly v: 1;
  readonly hook_set: string;
  readonly sources: ReplaySources;
  readonly totals: {
    readonly events: number;
    readonly allowed: number;
    readonly denied: number;
    readonly asked: number;
    readonly incomplete: number;
  };
  /** Per hook, in the order they first ran. */
  readonly hooks: readonly HookTally[];
  /** Each deny, ask and rewrite, per hook, in the order of the sessions. */
  readonly decisions: readonly ListedDecision[];
  /** The side effects the hooks asked for, answered without being made. */
  readonly effects: readonly EffectTally[];
  /** What the replay could not reproduce as it was in the session. */
  readonly not_reproduced: readonly Unreproduced[];
  /** History lines that could not be read (truncated, unknown): reported, skipped. */
  readonly history_problems: readonly HistoryProblem[];
  readonly started_at: string;
  readonly duration_ms: number;
}

export interface ReplaySources {
  readonly files: number;
  readonly lines: number;
  /** Sessions replayed, per agent. */
  readonly sessions: Readonly<Record<string, number>>;
  /** Events replayed, per native event type. */
  readonly events: Readonly<Record<string, number>>;
}

export interface HookTally {
  readonly hook_id: string;
  /** Events it was matched for (skipped ones included). */
  readonly seen: number;
  readonly allowed: number;
  readonly denied: number;
  readonly asked: number;
  readonly rewrote: number;
  readonly failed: number;
  readonly skipped: number;
  /** In shadow mode (mode: monitor): its counts are what it would have done. */
  readonly monitor: boolean;
}

export interface ListedDecision extends CallSummary {
  readonly hook_id: string;
  readonly decision: "deny" | "ask" | "rewrite";
  readonly reason: string;
  /** A hook blocked this call in the session too. */
  readonly blocked_live: boolean;
  /** The hook is in shadow mode: this is what it would have done. */
  readonly monitor: boolean;
}

export interface EffectTally {
  readonly effect: EffectKind;
  readonly count: number;
  readonly hooks: readonly string[];
  /** A few of them, as the run records show them. */
  readonly examples: readonly string[];
}

export type EffectKind =
  | "command not run"
  | "network request not sent"
  | "model not asked"
  | "model answered by a pinned reply"
  | "notification not sent"
  | "store write kept in memory";

export interface Unreproduced {
  readonly what: string;
  readonly count: number;
  readonly examples: readonly string[];
}

const EXAMPLES = 3;

export interface ReportInputs {
  readonly hookSet: string;
  readonly replayed: readonly ReplayedEvent[];
  readonly files: number;
  readonly lines: number;
  readonly problems: readonly HistoryProblem[];
  /** Project directories of the sessions that no longer exist. */
  readonly missingProjects: readonly string[];
  readonly startedAt: number;
  readonly now: number;
}

/** The report of one replay, from its events' records alone. */
export function buildReport(inputs: ReportInputs): ReplayReport {
  const { replayed } = inputs;
  const tallies = new Map<string, Tally>();
  const decisions: ListedDecision[] = [];
  const effects = new Map<EffectKind, { count: number; hooks: Set<string>; examples: string[] }>();
  const unreproduced = new Map<string, { count: number; examples: string[] }>();
  const note = (what: string, example: string): void => {
    const entry = unreproduced.get(what) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < EXAMPLES && !entry.examples.includes(example)) entry.examples.push(example);
    unreproduced.set(what, entry);
  };
  const sessions = new Map<string, Set<string>>();
  const events: Record<string, number> = {};
  for (const event of replayed) {
    (sessions.get(event.call.agent) ?? sessions.set(event.call.agent, new Set()).get(event.call.agent))?.add(event.call.session);
    events[event.eventType] = (events[event.eventType] ?? 0) + 1;
    if (event.incomplete)
      note("events Hookbox could not evaluate (the fail-closed rule answered)", `${event.call.file}:${event.call.line}: ${event.incomplete.cause}`);
    // A hook can have two records for one event (a rewriter judging the final input again): its last one counts.
    const last = new Map<string, AuditRecordV1>();
    for (const record of event.records) last.set(record.hook_id, record);
    for (const record of last.values()) {
      const tally = tallies.get(record.hook_id) ?? newTally(record.mode === "monitor");
      tallies.set(record.hook_id, tally);
      const outcome = outcomeOf(record, event);
      tally.seen++;
      tally[outcome.counted]++;
      if (outcome.listed) decisions.push(listed(record, outcome.listed, outcome.reason, event));
    }
    for (const record of event.records) {
      let dependsOnEffect = false;
      for (const call of record.host_calls) {
        const kind = effectOf(call);
        if (kind) {
          const entry = effects.get(kind) ?? { count: 0, hooks: new Set<string>(), examples: [] };
          entry.count++;
          entry.hooks.add(record.hook_id);
          const example = `${record.hook_id}: ${call.capability}(${call.target})`;
          if (entry.examples.length < EXAMPLES && !entry.examples.includes(example)) entry.examples.push(example);
          effects.set(kind, entry);
          if (kind !== "notification not sent" && kind !== "store write kept in memory") dependsOnEffect = true;
        }
        if (
          call.outcome === "error" &&
          /\b(ENOENT|not_found|no such file)/i.test(call.detail ?? "") &&
          /^(readFile|listFiles|fileDiff)$/.test(call.capability)
        )
          note("files a hook read that do not exist now", `${record.hook_id}: ${call.target}`);
        if (call.outcome === "allowed" && /^(run|gitDiff|fileDiff)$/.test(call.capability))
          note(
            "read-only commands run against today's files (their output may differ from the session's)",
            `${record.hook_id}: ${call.capability}(${call.target})`,
          );
      }
      if (dependsOnEffect)
        note("decisions that depended on an effect the replay did not make", `${record.hook_id} at ${event.call.file}:${event.call.line}`);
    }
  }
  for (const project of inputs.missingProjects) note("project directories of the sessions that do not exist now (hooks saw no files there)", project);
  const totals = {
    events: replayed.length,
    allowed: replayed.filter((e) => e.decision === "allow").length,
    denied: replayed.filter((e) => e.decision === "deny").length,
    asked: replayed.filter((e) => e.decision === "ask").length,
    incomplete: replayed.filter((e) => e.incomplete !== undefined).length,
  };
  return {
    v: 1,
    hook_set: inputs.hookSet,
    sources: {
      files: inputs.files,
      lines: inputs.lines,
      sessions: Object.fromEntries([...sessions].map(([agent, ids]) => [agent, ids.size])),
      events,
    },
    totals,
    hooks: [...tallies].map(([hook_id, tally]) => ({ hook_id, ...tally })),
    decisions: [...decisions].sort((a, b) => a.hook_id.localeCompare(b.hook_id) || 0),
    effects: [...effects].map(([effect, entry]) => ({ effect, count: entry.count, hooks: [...entry.hooks].sort(), examples: entry.examples })),
    not_reproduced: [...unreproduced].map(([what, entry]) => ({ what, ...entry })),
    history_problems: inputs.problems,
    started_at: new Date(inputs.startedAt).toISOString(),
    duration_ms: inputs.now - inputs.startedAt,
  };
}

type Tally = { seen: number; allowed: number; denied: number; asked: number; rewrote: number; failed: number; skipped: number; monitor: boolean };

function newTally(monitor: boolean): Tally {
  return { seen: 0, allowed: 0, denied: 0, asked: 0, rewrote: 0, failed: 0, skipped: 0, monitor };
}

type Counted = "allowed" | "denied" | "asked" | "rewrote" | "failed" | "skipped";

/** What one hook's (last) record of an event counts as, and whether it is listed. */
function outcomeOf(record: AuditRecordV1, event: ReplayedEvent): { counted: Counted; listed?: ListedDecision["decision"]; reason: string } {
  if (record.would) {
    const would = record.would;
    const reason = would.reason ?? record.reason ?? "";
    if (would.decision === "deny") return { counted: "denied", listed: "deny", reason };
    if (would.decision === "ask") return { counted: "asked", listed: "ask", reason };
    if (would.decision === "modify") return { counted: "rewrote", listed: "rewrite", reason };
    return { counted: record.status === "failed" ? "failed" : record.status === "skipped" ? "skipped" : "allowed", reason };
  }
  if (record.status === "skipped") return { counted: "skipped", reason: record.reason ?? "" };
  if (record.status === "denied") return { counted: "denied", listed: "deny", reason: record.reason ?? "" };
  if (record.status === "failed") {
    // A failure that denied (on_error: deny) is listed with the denials: it blocked the call.
    const blocked = event.decision === "deny" && event.decidedBy === record.hook_id;
    return blocked
      ? { counted: "failed", listed: "deny", reason: event.reason ?? record.reason ?? "" }
      : { counted: "failed", reason: record.reason ?? "" };
  }
  if (record.action === "ask_user")
    return {
      counted: "asked",
      listed: "ask",
      reason: event.decidedBy === record.hook_id ? (event.reason ?? "") : (record.reason ?? "asks the user"),
    };
  if (record.action === "modify" && !(record.notes ?? []).some((n) => n.startsWith("modify refused")))
    return { counted: "rewrote", listed: "rewrite", reason: record.reason ?? "rewrote the input" };
  return { counted: "allowed", reason: record.reason ?? "" };
}

function listed(record: AuditRecordV1, decision: ListedDecision["decision"], reason: string, event: ReplayedEvent): ListedDecision {
  return {
    hook_id: record.hook_id,
    decision,
    reason,
    ...callSummary(event),
    blocked_live: event.call.blockedLive !== undefined,
    monitor: record.mode === "monitor",
  };
}

/** The effect a host call asked for, when the replay answered it without making it. */
function effectOf(call: AuditRecordV1["host_calls"][number]): EffectKind | undefined {
  const notMade = (call.detail ?? "").includes(NOT_MADE);
  switch (call.capability) {
    case "run":
    case "runTests":
    case "gitDiff":
    case "fileDiff":
      return notMade ? "command not run" : undefined;
    case "http.get":
      return notMade ? "network request not sent" : undefined;
    case "llm.complete":
      return notMade ? "model not asked" : call.outcome === "allowed" ? "model answered by a pinned reply" : undefined;
    case "notify":
      return call.outcome === "allowed" ? "notification not sent" : undefined;
    case "store.set":
    case "store.delete":
      return call.outcome === "allowed" ? "store write kept in memory" : undefined;
    default:
      return undefined;
  }
}
