import type { InvocationOutcome, SourceLocation } from "../../../sandbox/index.ts";
import type { AuditRecordV1 } from "../audit/record.ts";
import type { StepTag } from "../chain/chain.ts";
import type { SandboxExecutor } from "../chain/invoker.ts";
import { locateInvalidResult } from "./result-location.ts";

/** A hook run that failed during a fixture: what `hookbox test` shows, expected or not. */
export interface RunFailure {
  readonly hook_id: string;
  readonly error_code: string;
  readonly message: string;
  /** Where in the handler's TypeScript: where it threw, or where the invalid result it returned was written. */
  readonly location?: SourceLocation;
  /** That line of the handler. */
  readonly source_line?: string;
}

/** Remembers each hook's last sandbox outcome: the failure's location, or the invalid value it returned. */
export function recording(executor: SandboxExecutor, outcomes: Map<string, InvocationOutcome>): SandboxExecutor {
  return {
    async invokeChain(steps, event) {
      const chain = await executor.invokeChain(steps, event);
      chain.outcomes.forEach((outcome, index) => {
        const hookId = (steps[index]?.tag as Partial<StepTag> | undefined)?.hookId;
        if (hookId !== undefined) outcomes.set(hookId, outcome);
      });
      return chain;
    },
  };
}

/** A failed run, located in the handler's source: where it threw, or where the invalid result is written. */
export function failureOf(
  run: AuditRecordV1,
  outcome: InvocationOutcome | undefined,
  handler: { file: string; source: string | undefined } | undefined,
): RunFailure {
  const source = handler?.source;
  const failure: RunFailure = { hook_id: run.hook_id, error_code: run.error_code ?? "internal", message: run.reason ?? "" };
  let location: SourceLocation | undefined;
  if (outcome && !outcome.ok && outcome.failure.code === run.error_code) location = outcome.failure.location;
  if (outcome?.ok && run.error_code === "handler_result_invalid" && handler && source !== undefined) {
    const at = locateInvalidResult(source, outcome.value);
    if (at) location = { file: handler.file, ...at };
  }
  if (!location) return failure;
  const line = source?.split("\n")[location.line - 1];
  return { ...failure, location, ...(line !== undefined ? { source_line: line } : {}) };
}
