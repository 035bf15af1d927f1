import { type SandboxLimits } from "./limits.ts";
/**
 * Why an invocation did not produce a result. Guest failures are values, never host
 * exceptions: callers switch on `code`, which is stable and part of the wire contract.
 */
export type SandboxFailureCode = "sandbox_cpu" | "sandbox_memory" | "sandbox_stack" | "sandbox_timeout" | "sandbox_result_size" | "sandbox_log_size" | "sandbox_host_calls" | "handler_syntax" | "handler_invalid" | "handler_threw" | "handler_result_invalid" | "handler_hung" | "sandbox_crashed" | "sandbox_queue_full" | "sandbox_closed";
export interface SourceLocation {
    readonly file: string;
    readonly line: number;
    readonly column: number;
}
export interface SandboxFailure {
    readonly code: SandboxFailureCode;
    readonly message: string;
    /** The limit that was broken, for limit codes. */
    readonly limit?: {
        readonly name: LimitName;
        readonly value: number;
        readonly unit: "ms" | "bytes" | "calls";
    };
    /** Guest stack trace (file:line:col of the handler source) for errors raised by guest code. */
    readonly guestStack?: string;
    /** Where a syntax error is, in the TypeScript source. */
    readonly location?: SourceLocation;
}
export type LimitName = keyof SandboxLimits;
/** "cpu limit 50 ms exceeded" — names the limit, its value and the YAML key that raises it. */
export declare function limitExceeded(name: LimitName, limits: SandboxLimits, detail?: string): SandboxFailure;
export declare function failure(code: SandboxFailureCode, message: string, extra?: Partial<SandboxFailure>): SandboxFailure;
/** Failure codes that mean the limit machinery, not the handler's logic, ended the run. */
export declare function isLimitFailure(code: SandboxFailureCode): boolean;
