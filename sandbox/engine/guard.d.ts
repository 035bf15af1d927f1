import type { LimitName } from "../failure.ts";
import type { SandboxLimits } from "../limits.ts";
export declare class InvocationGuard {
    readonly limits: SandboxLimits;
    /** Extra check polled with the clocks: returns a limit to flag (the heap could not grow). */
    private readonly probe;
    /** This thread's CPU time in ms (undefined when it cannot be read): the judge once the wall clock says the budget is spent. */
    private readonly threadCpuMs?;
    private readonly startedAt;
    private readonly deadline;
    private cpuUsedMs;
    private sliceStart;
    private flagged;
    private readonly threadCpuAtStart;
    private nextCpuCheck;
    constructor(limits: SandboxLimits, 
    /** Extra check polled with the clocks: returns a limit to flag (the heap could not grow). */
    probe?: () => LimitName | undefined, 
    /** This thread's CPU time in ms (undefined when it cannot be read): the judge once the wall clock says the budget is spent. */
    threadCpuMs?: (() => number | undefined) | undefined);
    get violation(): {
        name: LimitName;
        detail: string | undefined;
    } | undefined;
    flag(name: LimitName, detail?: string): void;
    shouldInterrupt(): boolean;
    /** Run a synchronous slice of guest execution, accounting its time as guest CPU. */
    enter<T>(fn: () => T): T;
    /** Past the wall-clock budget: has the thread really used `cpuMs`? Read at most every 2 ms. */
    private cpuReallySpent;
    remainingMs(): number;
    /** Guest CPU time: the thread's own clock where there is one, else the slices' wall time. */
    cpuMs(): number;
    wallMs(): number;
}
