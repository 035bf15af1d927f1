import type { WorkerProcess } from "../worker/protocol.ts";
/**
 * A worker started before anyone listens to it (`serve` and `emit` start their first sandbox
 * worker before the pool exists, so its start overlaps their own): its messages — "ready"
 * first — are held until the first listener comes, then handed over in order. Without this a
 * worker that got ready early would be waited for until the pool's start timeout.
 */
export declare function holdMessages(worker: WorkerProcess): WorkerProcess;
