import type { HistoryCall } from "../../agents/histories.ts";
import type { CapabilityHost } from "../../capabilities/types.ts";
import type { Locations } from "../../hooks/config/locations.ts";
import type { EmbeddedHook, HookSource } from "../../hooks/registry/sources.ts";
import type { RuntimeHost } from "../../platform/index.ts";
import { answerAgentCall } from "../agent-answer.ts";
import type { AuditRecordV1 } from "../audit/record.ts";
import type { SandboxExecutor } from "../chain/invoker.ts";
import { MemoryCooldowns, type ClaimResult, type CooldownClaim, type CooldownStore } from "../chain/cooldowns.ts";
import { composeEvaluator } from "../compose.ts";
import type { Evaluator } from "../evaluator.ts";

/** One hook set a replay runs: the current one, or one given (an operator file, packages not installed yet). */
export interface ReplayHookSet {
  /** How the report names it: "current", or what was given. */
  readonly label: string;
  readonly locations: Locations;
  /** Hook directories besides the usual ones (--with: packages staged for the replay). */
  readonly extraSources?: readonly HookSource[];
  /** The file access the hook set is loaded through (a replay's --with hides an installed copy it replaces). */
  readonly fs?: RuntimeHost["fs"];
}

export interface ReplaySetup {
  readonly host: RuntimeHost;
  /** The replay's capability host (effects.ts: reads only, no effect). */
  readonly capabilities: CapabilityHost;
  readonly embedded: ReadonlyMap<string, EmbeddedHook>;
  readonly executor: SandboxExecutor;
  /** Called after each event (progress on a long replay). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One recorded call, decided again. */
export interface ReplayedEvent {
  readonly call: HistoryCall;
  readonly eventType: string;
  readonly toolName: string | undefined;
  /** What the call was about in a line (the command, the path, the prompt), as the audit log says it. */
  readonly subject: string | undefined;
  readonly decision: "allow" | "deny" | "ask";
  readonly decidedBy: string | undefined;
  readonly reason: string | undefined;
  /** The answer rewrote the call's input (a modify the agent would have applied). */
  readonly rewritten: boolean;
  readonly records: readonly AuditRecordV1[];
  /** Set when the event could not be fully evaluated (undecodable, an unusable operator file): the rule answered. */
  readonly incomplete: { readonly code: string; readonly cause: string; readonly rule: string } | undefined;
  readonly project: string | undefined;
}

/** A replayed call as the report and the comparison list it: when, whose, which event and tool, the input in a line, where it was read. */
export interface CallSummary {
  readonly at: string | null;
  readonly agent: string;
  readonly session: string;
  readonly event_type: string;
  readonly tool: string | null;
  /** The call's input in a line. */
  readonly input: string;
  readonly file: string;
  readonly line: number;
}

export function callSummary(event: ReplayedEvent): CallSummary {
  return {
    at: event.call.at ?? null,
    agent: event.call.agent,
    session: event.call.session,
    event_type: event.eventType,
    tool: event.toolName ?? null,
    input: event.subject ?? "",
    file: event.call.file,
    line: event.call.line,
  };
}

/**
 * Cooldowns on the recorded events' clock: a hook with cooldown_seconds runs in a replay where it
 * ran in the session, not once for the whole replay (which takes seconds for hours of sessions).
 */
class RecordedClock implements CooldownStore {
  at = Date.now();
  private readonly memory = new MemoryCooldowns();

  claim(runs: readonly CooldownClaim[], _now: number, options?: { readonly bypass?: boolean }): Promise<ClaimResult> {
    return this.memory.claim(runs, this.at, options);
  }

  lastRun(key: string): Promise<number | undefined> {
    return this.memory.lastRun(key);
  }
}

/**
 * Decide recorded calls again, each as the agent would have sent it: decoded by the agent's own
 * protocol and evaluated by the one evaluator (answerAgentCall, as `emit` does), with the
 * replay's capabilities. Its records stay in memory: nothing reaches the audit log.
 */
export async function replayCalls(calls: readonly HistoryCall[], set: ReplayHookSet, setup: ReplaySetup): Promise<ReplayedEvent[]> {
  const clock = new RecordedClock();
  const evaluator: Evaluator = await composeEvaluator({
    host: {
      fs: set.fs ?? setup.host.fs,
      pid: setup.host.pid,
      homeDir: () => setup.host.homeDir(),
      // The binary self-protect protects: its hook_binaries are what the live evaluation saw.
      ...(setup.host.binaryPath ? { binaryPath: () => setup.host.binaryPath?.() } : {}),
      ...(setup.host.executablePath ? { executablePath: () => setup.host.executablePath?.() } : {}),
    },
    locations: set.locations,
    capabilities: setup.capabilities,
    embedded: setup.embedded,
    executor: setup.executor,
    // A replay writes nothing: the records are returned with each evaluation.
    audit: { write: async () => undefined },
    via: "replay",
    cooldowns: clock,
    ...(set.extraSources ? { extraSources: set.extraSources } : {}),
  });
  const replayed: ReplayedEvent[] = [];
  for (const call of calls) {
    const at = call.at !== undefined ? Date.parse(call.at) : Number.NaN;
    if (!Number.isNaN(at)) clock.at = at;
    const answer = await answerAgentCall(
      evaluator,
      { agent: call.agent, payload: JSON.stringify(call.payload), eventName: call.eventName, env: {} },
      { failClosed: false },
    );
    const { decision, decisionRecord, records } = answer.evaluation;
    replayed.push({
      call,
      eventType: decision.event_type,
      toolName: decisionRecord.tool_name,
      subject: decisionRecord.subject,
      decision: decision.decision,
      decidedBy: decision.decided_by,
      reason: decision.reason,
      rewritten: decision.decision === "allow" && decision.data !== undefined,
      records,
      incomplete: decisionRecord.incomplete,
      project: answer.evaluation.project,
    });
    setup.onProgress?.(replayed.length, calls.length);
  }
  return replayed;
}
