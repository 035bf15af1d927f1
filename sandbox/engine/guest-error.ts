import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { LimitName, SourceLocation } from "../failure.ts";
import type { InvocationGuard } from "./guard.ts";

const MAX_MESSAGE = 2048;
const MAX_STACK = 4096;

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
export function describeGuestError(context: QuickJSContext, handle: QuickJSHandle, guard: InvocationGuard): GuestErrorInfo {
  let dumped: unknown;
  try {
    dumped = guard.enter(() => context.dump(handle));
  } catch {
    dumped = undefined;
  }
  if (dumped && typeof dumped === "object") {
    const record = dumped as Record<string, unknown>;
    const name = clean(typeof record.name === "string" ? record.name : "Error", 100);
    const message = clean(typeof record.message === "string" ? record.message : safeJson(record), MAX_MESSAGE);
    const stack = typeof record.stack === "string" && record.stack.trim() ? clean(record.stack, MAX_STACK, true) : undefined;
    return { name, message, stack, location: firstLocation(stack), summary: `${name}: ${message}` };
  }
  const message = clean(dumped === undefined ? "undefined" : typeof dumped === "string" ? dumped : safeJson(dumped), MAX_MESSAGE);
  return { name: "Thrown", message, stack: undefined, location: undefined, summary: `a non-Error value: ${message}` };
}

/**
 * The limit a guest error reports, if it is one QuickJS raises for a limit: "out of memory"
 * (an InternalError) for the heap, and "stack overflow" for the stack, whatever its class —
 * the interpreter throws an InternalError, while the parser, JSON.parse and the RegExp compiler
 * throw a SyntaxError with the same message.
 */
export function limitOfGuestError(info: GuestErrorInfo): LimitName | undefined {
  if (info.name === "InternalError" && info.message === "out of memory") return "memoryBytes";
  if (info.message === "stack overflow") return "stackBytes";
  return undefined;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function clean(text: string, max: number, keepNewlines = false): string {
  const stripped = text.replace(keepNewlines ? /[\u0000-\u0009\u000b-\u001f\u007f]/g : /[\u0000-\u001f\u007f]/g, " ");
  return stripped.length > max ? `${stripped.slice(0, max)}…` : stripped;
}

/** QuickJS stack lines look like "    at handler (/hooks/x/handler.ts:4:29)" or "    at /h.ts:1:38". */
function firstLocation(stack: string | undefined): SourceLocation | undefined {
  if (!stack) return undefined;
  const match = /at (?:[^\n(]*\()?([^\n()]+):(\d+):(\d+)\)?/.exec(stack);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { file: match[1], line: Number(match[2]), column: Number(match[3]) };
}
