// The in-process half of `hookbox emit`: when no daemon answers for this hook set, evaluate the
// event here, with the evaluator the daemon uses. Loaded only then, so the daemon path stays small.
import type { WorkerProcess } from "../../sandbox/index.ts";
import { auditFilePath, openAuditLog, type AuditLog } from "../decide/audit/open.ts";
import { DEFAULT_SYSTEM_LOG, sendHead } from "../decide/audit/system-log.ts";
import type { OperatorFile } from "../hooks/config/schema.ts";
import { hookRuntime } from "./compose.ts";
import type { Locations } from "../hooks/config/locations.ts";
import { answerAgentCall, type AgentCall } from "../decide/agent-answer.ts";
import { composeEvaluator, snapshotCacheFor } from "../decide/compose.ts";
import { unguardedNotice } from "../decide/guards.ts";
import { createExecutor, type WorkerKind } from "../decide/executor.ts";
import type { AgentOutput } from "../agents/protocols.ts";
import type { AutoStartSettings } from "../serve/daemon/lifecycle.ts";
import type { DaemonStart } from "../serve/daemon/auto-start.ts";
import type { RuntimeHost } from "../platform/index.ts";
import type { ProjectHookSet } from "../decide/hook-sets.ts";

/**
 * The sandbox worker of one evaluation: `started` is already on its way (emit starts it before
 * loading any of this); its replacements (after a worker killed on a timeout) are of its kind.
 */
export interface LocalWorkers {
  /** Undefined when it could not even be spawned. */
  readonly started: WorkerProcess | undefined;
  readonly kind: WorkerKind;
}

/**
 * Nobody serves this hook set on its daemon socket: `start` spawns a daemon there. Called as soon
 * as the event's hook set is known, before its hooks run, so the daemon boots and warms the
 * project while this event is still being evaluated (a SessionStart's hooks, then its answer):
 * the session's first tool call, a model turn later, then finds it warm. An evaluation that
 * fails or times out after that point has started it all the same.
 */
export interface EarlyDaemon {
  start(settings: AutoStartSettings, start: DaemonStart): Promise<void>;
}

export async function evaluateLocally(
  host: RuntimeHost,
  locations: Locations,
  call: AgentCall,
  options: { failClosed: boolean; callerTimeoutMs: number; daemonsNotUsed?: readonly string[] },
  workers: LocalWorkers,
  daemon?: EarlyDaemon,
): Promise<{ output: AgentOutput; autoStart: AutoStartSettings | undefined; daemonStart: DaemonStart; daemonStarted: boolean }> {
  // The pool is created only when a hook is about to run: most events of most agents match none.
  // The started worker is its first; killed at the end if no hook ran.
  const executor = await createExecutor({
    sandbox: host.sandbox,
    kind: workers.kind,
    lazy: true,
    ...(workers.started ? { prestarted: workers.started } : {}),
  });
  const runtime = hookRuntime(host);
  // A one-shot writer appends only (under the append lock shared with the daemon): rotating, and
  // checking the chain's tail at open, are the daemon's job.
  const audit = await openAuditLog({
    fs: host.fs,
    dataDir: locations.dataDir,
    pid: host.pid,
    maxFileBytes: Number.POSITIVE_INFINITY,
    keepFiles: 0,
    repairTail: false,
  });
  let starting: Promise<void> | undefined;
  try {
    const evaluator = await composeEvaluator({
      host,
      locations,
      // Under the system tier nothing the user can write decides: not a cache of loaded hook sets either.
      ...(locations.system.required ? {} : { snapshots: snapshotCacheFor(host, locations) }),
      capabilities: runtime.capabilities(locations),
      embedded: runtime.embedded(),
      executor,
      audit,
      via: "emit",
      log: (line) => host.writeStderr(`hookbox: ${line}\n`),
    });
    const onHookSet = (set: ProjectHookSet, event: { readonly eventType?: string; readonly sessionId?: string }): void => {
      if (!daemon || starting) return;
      const settings = set.snapshot.operatorStatus.state === "unusable" ? undefined : set.snapshot.operator.daemon;
      // A daemon that would fail its own start check is not started (an invalid operator file, auto_start: false).
      if (!settings?.auto_start) return;
      starting = daemon.start(settings, daemonStartOf(set.project, event.eventType, event.sessionId)).catch(() => undefined);
    };
    const answer = await answerAgentCall(
      evaluator,
      call,
      { failClosed: options.failClosed, callerTimeoutMs: options.callerTimeoutMs, onHookSet },
      unguardedNotice(evaluator.hookSets, locations.operatorFile.path, options.daemonsNotUsed ?? []),
    );
    for (const entry of answer.evaluation.decisionRecord.hook_set.broken)
      host.writeStderr(`hookbox: hook ${entry} is broken: see hookbox validate\n`);
    // The operator file as this event's hook set had it (already loaded, perhaps from the cache: not parsed again).
    const { snapshot } = await evaluator.hookSets.forProject(answer.evaluation.project);
    const underSystem = locations.system.required || (await evaluator.hookSets.operatorView()).layers !== undefined;
    await audit.close();
    if (underSystem) await anchorInSystemLog(host, locations, audit, snapshot.operator);
    const { event_type, session_id } = answer.evaluation.decisionRecord;
    return {
      output: answer.output,
      autoStart: snapshot.operatorStatus.state === "unusable" ? undefined : snapshot.operator.daemon,
      daemonStart: daemonStartOf(answer.evaluation.project, event_type, session_id),
      daemonStarted: starting !== undefined,
    };
  } finally {
    // Spawned long before (a detached spawn takes milliseconds): the agent does not wait on it.
    await starting;
    await audit.close();
    await executor.close(0);
  }
}

/**
 * The system tier: the chain head this emit left goes to the system log too, where the user can
 * append but not erase (`hookbox audit verify --against-system-log`). After the record is written,
 * before the answer: nothing is said when the system log does not take it — an agent reads this
 * process's stderr as its answer's reason (exit 2) — doctor checks the system log instead.
 */
async function anchorInSystemLog(host: RuntimeHost, locations: Locations, audit: AuditLog, operator: OperatorFile): Promise<void> {
  const head = audit.stats().chain.head;
  if (head === undefined) return;
  await sendHead(
    host.sockets,
    operator.audit.system_log ?? DEFAULT_SYSTEM_LOG,
    { v: 1, uid: host.uid() ?? null, log: auditFilePath(locations.dataDir), head, at: new Date().toISOString() },
    { hostname: host.hostname(), pid: host.pid },
  );
}

/** What the daemon is told of the event that started it: its project to warm, and the session a SessionStart opened. */
function daemonStartOf(project: string | undefined, eventType: string | undefined, sessionId: string | undefined): DaemonStart {
  return {
    ...(project !== undefined ? { warm: project } : {}),
    // An id no agent sends (huge, with a NUL) is left out: the daemon then idles out as before.
    ...(eventType === "SessionStart" && sessionId && sessionId.length <= 256 && !sessionId.includes("\0") ? { session: sessionId } : {}),
  };
}
