import { type EngineOptions } from "../engine/engine.ts";
import { type ChainContinuation } from "../types.ts";
import { type WorkerIO } from "./protocol.ts";
export interface WorkerOptions extends EngineOptions {
    /** Decides between the steps of a chain; without one a chain runs every step on the same event. */
    readonly continuation?: ChainContinuation;
}
/**
 * The loop of a sandbox worker process: run chains of invocations one at a time, in the order
 * they arrive, on an in-process engine, forwarding the guest's host calls to the parent, which
 * owns every capability. The worker itself holds no policy and no secrets (it is spawned with an
 * empty environment); what decides between the steps of a chain is given to it by its entry point.
 */
export declare function serveSandboxWorker(io: WorkerIO, options: WorkerOptions): Promise<void>;
