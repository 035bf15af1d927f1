import { type SandboxLimits } from "../limits.ts";
import type { HostCallFn, InvocationOutcome } from "../types.ts";
import type { HookSlot } from "./slot.ts";
/** Run one invocation of `slot`. Never throws for anything the guest does. */
export declare function runInvocation(slot: HookSlot, event: unknown, limits: SandboxLimits, call: HostCallFn, threadCpuMs?: () => number | undefined): Promise<InvocationOutcome>;
/** UTF-8 length without allocating; lone surrogates count as the 3-byte replacement character. */
export declare function utf8Length(text: string): number;
