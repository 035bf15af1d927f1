import { formatBytes, type SandboxLimits } from "./limits.ts";

/**
 * Why an invocation did not produce a result. Guest failures are values, never host
 * exceptions: callers switch on `code`, which is stable and part of the wire contract.
 */
export type SandboxFailureCode =
  | "sandbox_cpu"
  | "sandbox_memory"
  | "sandbox_stack"
  | "sandbox_timeout"
  | "sandbox_result_size"
  | "sandbox_log_size"
  | "sandbox_host_calls"
  | "handler_syntax"
  | "handler_invalid"
  | "handler_threw"
  | "handler_result_invalid"
  | "handler_hung"
  | "sandbox_crashed"
  | "sandbox_queue_full"
  | "sandbox_closed";

export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface SandboxFailure {
  readonly code: SandboxFailureCode;
  readonly message: string;
  /** The limit that was broken, for limit codes. */
  readonly limit?: { readonly name: LimitName; readonly value: number; readonly unit: "ms" | "bytes" | "calls" };
  /** Guest stack trace (file:line:col of the handler source) for errors raised by guest code. */
  readonly guestStack?: string;
  /** Where a syntax error is, in the TypeScript source. */
  readonly location?: SourceLocation;
}

export type LimitName = keyof SandboxLimits;

const LIMIT_CODES: Record<LimitName, SandboxFailureCode> = {
  cpuMs: "sandbox_cpu",
  memoryBytes: "sandbox_memory",
  stackBytes: "sandbox_stack",
  timeoutMs: "sandbox_timeout",
  resultBytes: "sandbox_result_size",
  logBytes: "sandbox_log_size",
  hostCalls: "sandbox_host_calls",
};

const LIMIT_YAML: Record<LimitName, string> = {
  cpuMs: "cpu_ms",
  memoryBytes: "memory_mb",
  stackBytes: "stack_kb",
  timeoutMs: "timeout_ms",
  resultBytes: "result_kb",
  logBytes: "log_kb",
  hostCalls: "host_calls",
};

/** "cpu limit 50 ms exceeded" — names the limit, its value and the YAML key that raises it. */
export function limitExceeded(name: LimitName, limits: SandboxLimits, detail?: string): SandboxFailure {
  const value = limits[name];
  const unit = name === "hostCalls" ? "calls" : name.endsWith("Ms") ? "ms" : "bytes";
  const shown = unit === "ms" ? `${value} ms` : unit === "bytes" ? formatBytes(value) : `${value} calls`;
  const label = name === "timeoutMs" ? "timeout" : `${LIMIT_YAML[name].replace(/_(ms|mb|kb)$/, "").replace("_", " ")} limit`;
  const extra = detail ? ` (${detail})` : "";
  return {
    code: LIMIT_CODES[name],
    message: `${label} ${shown} exceeded${extra}; raise limits.${LIMIT_YAML[name]} in the hook's YAML if this is expected`,
    limit: { name, value, unit },
  };
}

export function failure(code: SandboxFailureCode, message: string, extra?: Partial<SandboxFailure>): SandboxFailure {
  return { code, message, ...extra };
}

/** Failure codes that mean the limit machinery, not the handler's logic, ended the run. */
export function isLimitFailure(code: SandboxFailureCode): boolean {
  return code.startsWith("sandbox_") && code !== "sandbox_crashed" && code !== "sandbox_queue_full" && code !== "sandbox_closed";
}
