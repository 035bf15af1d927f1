// sandbox/ owns running untrusted handler code in QuickJS-in-WebAssembly with limits that hold; it must not import anything from src/.
// It installs the host functions it is given and knows no policy. This is the host's entry point; a worker's loop is
// worker.ts (no transpiler) and what starts before either loads is start.ts: src/ imports sandbox/ through these three only.
export { DEFAULT_LIMITS, MAX_LIMITS, MIN_LIMITS, MAX_SOURCE_BYTES, KiB, MiB, formatBytes, type SandboxLimits } from "./limits.ts";
export {
  failure,
  limitExceeded,
  isLimitFailure,
  type SandboxFailure,
  type SandboxFailureCode,
  type SourceLocation,
  type LimitName,
} from "./failure.ts";
export { compileHandler, compileKey, rememberCompiled, type CompiledHandler, type CompileResult, type GuestModules } from "./transpile.ts";
export { codeHashOf, sha256Hex } from "./hash.ts";
export { createHandlerSpec, slotKey, type HandlerSpecInput } from "./spec.ts";
export { continueAlways } from "./types.ts";
export type {
  ChainContinuation,
  ChainOutcome,
  ChainStep,
  HandlerSpec,
  HostCallError,
  HostCallFn,
  InvocationOutcome,
  InvocationStats,
  Isolation,
  LogEntry,
} from "./types.ts";
export { SandboxEngine, type EngineOptions, type EngineStats } from "./engine/engine.ts";
export { releaseVariant } from "./engine/quickjs.ts";
export { SandboxPool, type PoolOptions, type PoolStats } from "./pool/pool.ts";
export { holdMessages } from "./pool/held-worker.ts";
export { serveSandboxWorker, type WorkerOptions } from "./worker/serve.ts";
export type { WorkerIO, WorkerProcess } from "./worker/protocol.ts";
