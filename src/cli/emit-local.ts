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

/**
 * The sandbox worker of one evaluation: `started` is already on its way (emit starts it before
 * loading any of this); its replacements (after a worker killed on a timeout) are of its kind.
 */
export interface LocalWorkers {
  /** Undefined when it could not even be spawned. */
  readonly started: WorkerProcess | undefined;
  readonly kind: WorkerKind;
}

export async function evaluateLocally(
  host: RuntimeHost,
  locations: Locations,
  call: AgentCall,
  options: { failClosed: boolean; callerTimeoutMs: number; daemonsNotUsed?: readonly string[] },
  workers: LocalWorkers,
): Promise<{ output: AgentOutput; autoStart: AutoStartSettings | undefined; daemonStart: DaemonStart }> {
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
    const answer = await answerAgentCall(
      evaluator,
      call,
      { failClosed: options.failClosed, callerTimeoutMs: options.callerTimeoutMs },
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
      daemonStart: {
        ...(answer.evaluation.project !== undefined ? { warm: answer.evaluation.project } : {}),
        // An id no agent sends (huge, with a NUL) is left out: the daemon then idles out as before.
        ...(event_type === "SessionStart" && session_id && session_id.length <= 256 && !session_id.includes("\0") ? { session: session_id } : {}),
      },
    };
  } finally {
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
