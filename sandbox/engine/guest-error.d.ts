import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { LimitName, SourceLocation } from "../failure.ts";
import type { InvocationGuard } from "./guard.ts";
export interface GuestErrorInfo {
    readonly name: string;
    readonly message: string;
    readonly stack: string | undefined;
    readonly location: SourceLocation | undefined;
    /** "TypeError: x is not a function" */
    readonly summary: string;
}
/**
 * Read a thrown guest value. Reading runs guest code (getters, toJSON), so it happens inside a
 * guard slice; everything read is truncated and stripped of control characters before it can
 * reach a log or a terminal.
 */
export declare function describeGuestError(context: QuickJSContext, handle: QuickJSHandle, guard: InvocationGuard): GuestErrorInfo;
/**
 * The limit a guest error reports, if it is one QuickJS raises for a limit: "out of memory"
 * (an InternalError) for the heap, and "stack overflow" for the stack, whatever its class —
 * the interpreter throws an InternalError, while the parser, JSON.parse and the RegExp compiler
 * throw a SyntaxError with the same message.
 */
export declare function limitOfGuestError(info: GuestErrorInfo): LimitName | undefined;
