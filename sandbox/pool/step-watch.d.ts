import type { SandboxLimits } from "../limits.ts";
/** What the pool saw of a step it ended by killing its worker. */
export interface KilledStep {
    readonly wallMs: number;
    /** CPU time the worker spent on the step, where it could be read. */
    readonly cpuMs: number | undefined;
}
/**
 * The watch over one running step, on one timer: the worker is killed after `timeoutMs` +
 * `graceMs` of wall clock, or once it spent `cpuMs` + CPU_SLACK_MS of CPU time on the step,
 * where `cpuTimeMs` can read it. The CPU is read only once the budget could have run out (a
 * thread spends at most its wall time), so a step shorter than its budget costs no read at all.
 */
export declare class StepWatch {
    private readonly cpuTimeMs;
    private readonly kill;
    private readonly startedAt;
    private readonly cpuAtStart;
    private readonly wallDeadline;
    private readonly cpuBudgetMs;
    private timer;
    constructor(limits: SandboxLimits, graceMs: number, cpuTimeMs: () => number | undefined, kill: (reason: "timeout" | "cpu", seen: KilledStep) => void);
    stop(): void;
    private wake;
    private check;
    private end;
}
