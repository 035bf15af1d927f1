import type { Declarative } from "../../hooks/config/resolve.ts";
import type { ResultTemplate } from "../../hooks/config/steps-schema.ts";
import { skipReason } from "./conditions.ts";
import { askPrompt } from "./prompt.ts";
import { runStep, StepDenied, type HostCall, type StepResult } from "./run.ts";
import { render, type TemplateScope } from "./template.ts";

/** What the declarative part of one run did. */
export type DeclarativeRun =
  | {
      readonly kind: "ran";
      readonly steps: readonly StepResult[];
      /** The rendered `then` (a hook with a handler returns the handler's result instead). */
      readonly result: Record<string, unknown> | undefined;
    }
  /** A short circuit, skip_if or when decided against the result: recorded `skipped` with this reason. */
  | { readonly kind: "skipped"; readonly steps: readonly StepResult[]; readonly reason: string }
  /** The hook fails (its on_error applies): a step was denied, or the time ran out. */
  | {
      readonly kind: "failed";
      readonly steps: readonly StepResult[];
      readonly code: "capability_denied" | "sandbox_timeout" | "llm_failed";
      readonly message: string;
    };

/**
 * Run a hook's steps one after another through its own host calls (the seed engine's context
 * steps), then its conditions, then — for a hook without a handler — render its result. All of
 * it within the hook's timeout_ms: a step gets at most what is left.
 */
export async function runDeclarative(
  declarative: Declarative,
  options: {
    readonly event: Readonly<Record<string, unknown>>;
    readonly call: HostCall;
    readonly timeoutMs: number;
    readonly hasHandler: boolean;
    readonly now?: () => number;
  },
): Promise<DeclarativeRun> {
  const now = options.now ?? (() => performance.now());
  const deadline = now() + options.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const steps: StepResult[] = [];
  const scope: TemplateScope = { event: options.event, steps };
  const outOfTime = (): DeclarativeRun => ({
    kind: "failed",
    steps,
    code: "sandbox_timeout",
    message: `the steps took longer than the hook's timeout_ms (${options.timeoutMs} ms)`,
  });
  try {
    for (const [index, step] of declarative.steps.entries()) {
      const remaining = deadline - now();
      if (remaining <= 0) return outOfTime();
      steps.push(await runStep(step, index, scope, options.call, controller.signal, remaining));
    }
    if (controller.signal.aborted) return outOfTime();
    const reason = skipReason(declarative.steps, steps, declarative.skipIf, declarative.when, scope);
    if (reason !== undefined) return { kind: "skipped", steps, reason };
    if (declarative.prompt) {
      // A skip above made no model call; this is the only one.
      const asked = await askPrompt(declarative.prompt, scope, options.call, controller.signal);
      if (asked.kind === "failed")
        return controller.signal.aborted
          ? outOfTime()
          : { kind: "failed", steps, code: asked.code as "capability_denied" | "llm_failed", message: asked.message };
      return { kind: "ran", steps, result: asked.result };
    }
    if (options.hasHandler || !declarative.then) return { kind: "ran", steps, result: undefined };
    const { notify, ...result } = renderResult(declarative.then, scope);
    if (notify !== undefined && notify.trim() !== "") {
      try {
        await options.call("notify", [notify], controller.signal);
      } catch (error) {
        // A sink that fails is in the run's host calls; a notify the hook may not make fails it.
        const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
        if (code === "capability_denied") return { kind: "failed", steps, code: "capability_denied", message: `then.notify: ${String(message)}` };
      }
    }
    return { kind: "ran", steps, result };
  } catch (error) {
    if (error instanceof StepDenied) return { kind: "failed", steps, code: "capability_denied", message: error.message };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Every string of the result template filled in; the result is then checked like a handler's. */
export function renderResult(then: ResultTemplate, scope: TemplateScope): Record<string, unknown> & { notify?: string } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(then)) {
    if (value === undefined) continue;
    if (key === "action" || key === "context_injection_role" || key === "user_message_level") out[key] = value;
    else if (Array.isArray(value)) out[key] = value.map((item: string) => render(item, scope));
    else out[key] = render(value as string, scope);
  }
  // An empty injection is no injection: a template over a step that printed nothing.
  if (out.context_injection === "") delete out.context_injection;
  return out;
}
