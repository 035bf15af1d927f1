import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from "quickjs-emscripten-core";
import { failure, limitExceeded, type LimitName, type SandboxFailure } from "../failure.ts";
import { formatBytes, hostResultMemoryBudget, type SandboxLimits } from "../limits.ts";
import { toHostCallError } from "../host-error.ts";
import type { HostCallFn, InvocationOutcome, LogEntry } from "../types.ts";
import { InvocationGuard } from "./guard.ts";
import { eventIntoGuest } from "./event.ts";
import { describeGuestError, limitOfGuestError, type GuestErrorInfo } from "./guest-error.ts";
import type { HookModule } from "./quickjs.ts";
import { failureInSource } from "../source-map.ts";
import type { GuestBridge, GuestContext, HookSlot } from "./slot.ts";

type Step<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: SandboxFailure };

const LOG_LEVELS = new Set(["debug", "info", "warn", "error"]);

/**
 * The state of one running invocation, and the bridge its guest calls into. Host calls are
 * promises: the guest awaits them while this side waits for them to settle, so the event loop
 * stays free and the wall-clock limit covers host work too.
 */
class ActiveInvocation implements GuestBridge {
  readonly logs: LogEntry[] = [];
  hostCalls = 0;
  inFlight = 0;
  private logBytes = 0;
  private closed = false;
  private readonly pending = new Set<QuickJSDeferredPromise>();
  /** Created on the first host call: most invocations make none, and AbortController is not free. */
  private abort: AbortController | undefined;
  private activity = false;
  private wake: (() => void) | undefined;

  constructor(
    readonly guard: InvocationGuard,
    private readonly limits: SandboxLimits,
    private readonly call: HostCallFn,
    private readonly allowed: ReadonlySet<string>,
  ) {}

  hostCall(context: QuickJSContext, name: string, argsJson: string): QuickJSHandle {
    if (!this.allowed.has(name)) throw new TypeError(`hook.${name} is not a function`);
    if (++this.hostCalls > this.limits.hostCalls) {
      this.guard.flag("hostCalls");
      throw new Error(`host call limit (${this.limits.hostCalls}) reached`);
    }
    const args = JSON.parse(argsJson) as unknown[];
    const deferred = context.newPromise();
    this.pending.add(deferred);
    this.inFlight++;
    this.abort ??= new AbortController();
    this.call(name, args, this.abort.signal).then(
      (value) => this.settle(context, deferred, { ok: true, value }),
      (error: unknown) => this.settle(context, deferred, { ok: false, error }),
    );
    return deferred.handle;
  }

  emitLog(level: string, message: string): void {
    const bytes = utf8Length(message) + 1;
    if (this.logBytes + bytes > this.limits.logBytes) {
      this.guard.flag("logBytes");
      return;
    }
    this.logBytes += bytes;
    this.logs.push({ level: (LOG_LEVELS.has(level) ? level : "info") as LogEntry["level"], message });
  }

  /** Resolves when a host call settled or `ms` passed. */
  waitForActivity(ms: number): Promise<void> {
    if (this.activity) {
      this.activity = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).then(() => {
      this.wake = undefined;
      this.activity = false;
    });
  }

  /** Ends the invocation: late host results are dropped and long host work is aborted. */
  close(): { readonly abandoned: number } {
    this.closed = true;
    const abandoned = this.pending.size;
    for (const deferred of this.pending) deferred.dispose();
    this.pending.clear();
    this.abort?.abort();
    return { abandoned };
  }

  private settle(
    context: QuickJSContext,
    deferred: QuickJSDeferredPromise,
    result: { ok: true; value: unknown } | { ok: false; error: unknown },
  ): void {
    this.inFlight--;
    if (this.closed || !this.pending.delete(deferred)) return;
    try {
      this.guard.enter(() => (result.ok ? this.resolveWith(context, deferred, result.value) : this.rejectWith(context, deferred, result.error)));
    } catch (error) {
      this.hostFault ??= error;
    }
    this.activity = true;
    this.wake?.();
  }

  /** A fault raised while settling a host call (outside any guest call); the caller rethrows it. */
  hostFault: unknown;

  private resolveWith(context: QuickJSContext, deferred: QuickJSDeferredPromise, value: unknown): void {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json === undefined) return deferred.resolve();
    // A string bigger than the guest's heap cannot be copied in safely: refuse it instead.
    if (json.length > hostResultMemoryBudget(this.limits)) {
      return this.rejectWith(context, deferred, {
        name: "HookboxError",
        message: `host result of ${formatBytes(json.length)} is too large for this hook's memory limit (${formatBytes(this.limits.memoryBytes)})`,
        code: "result_too_large",
      });
    }
    const handle = context.newString(json);
    deferred.resolve(handle);
    handle.dispose();
  }

  private rejectWith(context: QuickJSContext, deferred: QuickJSDeferredPromise, error: unknown): void {
    const { name, message, code } = toHostCallError(error);
    const handle = context.newError({ name, message });
    if (code) {
      const codeHandle = context.newString(code);
      context.setProp(handle, "code", codeHandle);
      codeHandle.dispose();
    }
    deferred.reject(handle);
    handle.dispose();
  }
}

/** Run one invocation of `slot`. Never throws for anything the guest does. */
export async function runInvocation(
  slot: HookSlot,
  event: unknown,
  limits: SandboxLimits,
  call: HostCallFn,
  threadCpuMs?: () => number | undefined,
): Promise<InvocationOutcome> {
  return inGuest(slot, limits, call, threadCpuMs, async (guest, invocation, module) => {
    const outcome = await execute(guest, invocation, module, event);
    if (invocation.hostFault) throw invocation.hostFault;
    return { outcome, keep: outcome.ok && !guest.runtime.hasPendingJob() };
  });
}

/**
 * One visit of `slot`'s guest under its limits, owned here from start to end: its module made,
 * the guard and the invocation opened, `body` run in the guest, then the invocation closed and the
 * guest kept (when `body` says it may be) or poisoned (when the host faulted), and the stats taken.
 */
async function inGuest(
  slot: HookSlot,
  limits: SandboxLimits,
  call: HostCallFn,
  threadCpuMs: (() => number | undefined) | undefined,
  body: (
    guest: GuestContext,
    invocation: ActiveInvocation,
    module: HookModule,
  ) => Promise<{ readonly outcome: Step<unknown>; readonly keep: boolean }>,
): Promise<InvocationOutcome> {
  let module: HookModule;
  const started = performance.now();
  try {
    module = await slot.ensureModule();
  } catch (error) {
    const stats = { cpuMs: 0, wallMs: performance.now() - started, hostCalls: 0, heapBytes: 0, coldStart: true };
    return { ok: false, failure: failure("sandbox_crashed", `could not create a QuickJS instance: ${errorText(error)}`), logs: [], stats };
  }
  module.resetHeapExhausted();
  const guard = new InvocationGuard(limits, () => (module.heapExhausted() ? "memoryBytes" : undefined), threadCpuMs);
  const invocation = new ActiveInvocation(guard, limits, call, new Set(slot.spec.hostFunctions));
  let cold = false;
  let keep = false;
  let poisoned = false;
  let outcome: Step<unknown>;
  try {
    const setup = slot.enterGuest(invocation);
    cold = setup.cold;
    if (!setup.ok) outcome = { ok: false, failure: limitFailure(guard, module) ?? setup.failure };
    else ({ outcome, keep } = await body(setup.guest, invocation, module));
  } catch (error) {
    poisoned = true;
    outcome = { ok: false, failure: hostFaultFailure(error, guard, module) };
  }
  const { abandoned } = invocation.close();
  if (poisoned) slot.poison();
  else slot.leaveGuest(keep && abandoned === 0);
  const stats = {
    cpuMs: round(guard.cpuMs()),
    wallMs: round(guard.wallMs()),
    hostCalls: invocation.hostCalls,
    heapBytes: module.heapBytes(),
    coldStart: cold,
  };
  return outcome.ok
    ? { ok: true, value: outcome.value, logs: invocation.logs, stats }
    : { ok: false, failure: failureInSource(outcome.failure, slot.spec.handler), logs: invocation.logs, stats };
}

/** A made-up value of an event's shape (no event's data): what a prepared guest parses and serializes once. */
const EXERCISE = {
  event_type: "PreToolUse",
  session_id: "hookbox-warm-up",
  cwd: "/",
  tool_name: "Write",
  tool_input: { file_path: "/hookbox/warm-up.txt", content: "warm-up\n", list: [1, 2.5, true, null] },
};

/**
 * Carry a value of an event's shape into the guest and its serialization back, as an event and a
 * result travel: QuickJS's JSON paths run once before the first real event needs them.
 */
function exercise(guest: GuestContext, guard: InvocationGuard): Step<undefined> {
  const { context } = guest;
  const parsed = guard.enter(() => eventIntoGuest(context, guest, EXERCISE));
  if (parsed.error) {
    parsed.error.dispose();
    return { ok: false, failure: violationOr(guard, "the warm-up value could not be carried into the guest") };
  }
  const text = guard.enter(() => context.callFunction(guest.stringify, context.undefined, parsed.value));
  parsed.value.dispose();
  if (text.error) {
    text.error.dispose();
    return { ok: false, failure: violationOr(guard, "the warm-up value could not be serialized in the guest") };
  }
  text.value.dispose();
  return { ok: true, value: undefined };
}

function violationOr(guard: InvocationGuard, message: string): SandboxFailure {
  return guard.violation ? violationFailure(guard) : failure("sandbox_crashed", message);
}

/** What a guest's top level meets if it calls the hook API while it is built ahead of any event. */
const NOT_DURING_PREPARE = (): Promise<never> =>
  Promise.reject(Object.assign(new Error("the hook API is not available while the hook is built ahead of an event"), { name: "HookboxError" }));

/**
 * Build `slot`'s guest ahead of any event (a daemon warming a project): its instance, the
 * prelude, its hook object and its module's top level, under its limits — the handler itself is
 * not called, so no event data enters it and nothing it would do for an event happens. A guest
 * whose top level reached for the hook API is not kept: the first event builds it as it always did.
 */
export async function prepareSlot(slot: HookSlot, limits: SandboxLimits, threadCpuMs?: () => number | undefined): Promise<InvocationOutcome> {
  return inGuest(slot, limits, NOT_DURING_PREPARE, threadCpuMs, async (guest, invocation) => {
    const outcome = exercise(guest, invocation.guard);
    return { outcome, keep: outcome.ok && invocation.hostCalls === 0 && !guest.runtime.hasPendingJob() };
  });
}

async function execute(guest: GuestContext, invocation: ActiveInvocation, module: HookModule, event: unknown): Promise<Step<unknown>> {
  const { context, runtime } = guest;
  const guard = invocation.guard;
  const fromGuest = (errorHandle: QuickJSHandle): Step<never> => ({ ok: false, failure: guestFailure(context, errorHandle, guard, module) });

  const parsed = guard.enter(() => eventIntoGuest(context, guest, event));
  if (parsed.error) return fromGuest(parsed.error);
  const called = guard.enter(() => context.callFunction(guest.handler, context.undefined, parsed.value, guest.hook));
  parsed.value.dispose();
  if (called.error) return fromGuest(called.error);

  // Drive the returned promise (if any) until it settles.
  let handle = called.value;
  for (;;) {
    const state = context.getPromiseState(handle);
    if (state.type === "fulfilled") {
      if (!state.notAPromise) {
        handle.dispose();
        handle = state.value;
      }
      break;
    }
    if (state.type === "rejected") {
      handle.dispose();
      return fromGuest(state.error);
    }
    const jobs = drainJobs(guest, guard);
    if (jobs.error) {
      handle.dispose();
      return fromGuest(jobs.error);
    }
    if (invocation.hostFault) throw invocation.hostFault;
    if (!guard.violation && isPending(context, handle)) {
      if (invocation.inFlight === 0 && !runtime.hasPendingJob()) {
        handle.dispose();
        return {
          ok: false,
          failure: failure("handler_hung", "the handler's promise can never settle: it awaits something that is not a host call"),
        };
      }
      await invocation.waitForActivity(guard.remainingMs());
      if (guard.remainingMs() <= 0) guard.flag("timeoutMs");
    }
    if (guard.violation) {
      handle.dispose();
      return { ok: false, failure: violationFailure(guard) };
    }
  }

  // Serializing runs guest code (toJSON, getters) and allocates: it can break a limit like the handler can.
  const serialized = guard.enter(() => context.callFunction(guest.stringify, context.undefined, handle));
  handle.dispose();
  if (serialized.error) {
    const unserializable = (info: GuestErrorInfo): SandboxFailure =>
      failure("handler_result_invalid", `the handler's result cannot be serialized as JSON: ${info.summary}`);
    return { ok: false, failure: guestFailure(context, serialized.error, guard, module, unserializable) };
  }
  const text = serialized.value;
  try {
    if (guard.violation) return { ok: false, failure: violationFailure(guard) };
    if (context.typeof(text) !== "string") return { ok: true, value: undefined };
    const lengthHandle = context.getProp(text, "length");
    const units = context.getNumber(lengthHandle);
    lengthHandle.dispose();
    const limits = guard.limits;
    // UTF-8 never takes fewer bytes than UTF-16 code units, so this refuses early without copying.
    if (units > limits.resultBytes) {
      return { ok: false, failure: limitExceeded("resultBytes", limits, `the result is at least ${formatBytes(units)}`) };
    }
    const json = context.getString(text);
    const bytes = utf8Length(json);
    if (bytes > limits.resultBytes) {
      return { ok: false, failure: limitExceeded("resultBytes", limits, `the result is ${formatBytes(bytes)}`) };
    }
    return { ok: true, value: JSON.parse(json) };
  } finally {
    text.dispose();
  }
}

/**
 * QuickJS turns an exception inside a promise job into a rejection — even the uncatchable
 * "interrupted" — so a guest can keep scheduling jobs after its limit tripped (quickjs-ng#810).
 * Jobs therefore run in bounded batches, and the guard's verdict is checked between them.
 */
const JOB_BATCH = 256;

function drainJobs(guest: GuestContext, guard: InvocationGuard): { error?: QuickJSHandle } {
  const { runtime } = guest;
  while (runtime.hasPendingJob()) {
    const result = guard.enter(() => runtime.executePendingJobs(JOB_BATCH));
    if (result.error) return { error: result.error };
    if (guard.violation || guard.shouldInterrupt()) return {};
  }
  return {};
}

function isPending(context: QuickJSContext, handle: QuickJSHandle): boolean {
  const state = context.getPromiseState(handle);
  if (state.type === "fulfilled" && !state.notAPromise) state.value.dispose();
  if (state.type === "rejected") state.error.dispose();
  return state.type === "pending";
}

function violationFailure(guard: InvocationGuard): SandboxFailure {
  const violation = guard.violation;
  if (!violation) throw new Error("violationFailure without a violation");
  return limitExceeded(violation.name, guard.limits, violation.detail);
}

const handlerThrew = (info: GuestErrorInfo): SandboxFailure =>
  failure("handler_threw", `the handler threw ${info.summary}`, { guestStack: info.stack });

/**
 * The failure for an error the guest raised: the limit it broke when it broke one — flagged by
 * the guard, seen as a heap that could not grow, or reported by QuickJS's own message — and
 * otherwise what `otherwise` makes of the error.
 */
function guestFailure(
  context: QuickJSContext,
  errorHandle: QuickJSHandle,
  guard: InvocationGuard,
  module: HookModule,
  otherwise: (info: GuestErrorInfo) => SandboxFailure = handlerThrew,
): SandboxFailure {
  if (guard.violation) {
    errorHandle.dispose();
    return violationFailure(guard);
  }
  const info = describeGuestError(context, errorHandle, guard);
  errorHandle.dispose();
  return limitFailure(guard, module, limitOfGuestError(info)) ?? otherwise(info);
}

/** The limit failure, if any: the guard's verdict first, then an exhausted heap, then `reported` (from the guest's error). */
function limitFailure(guard: InvocationGuard, module: HookModule, reported?: LimitName): SandboxFailure | undefined {
  if (guard.violation) return violationFailure(guard);
  if (module.heapExhausted()) return limitExceeded("memoryBytes", guard.limits);
  return reported ? limitExceeded(reported, guard.limits) : undefined;
}

function hostFaultFailure(error: unknown, guard: InvocationGuard, module: HookModule): SandboxFailure {
  if (guard.violation) return violationFailure(guard);
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return limitExceeded("stackBytes", guard.limits, "the host stack overflowed before the guest's");
  }
  if (module.heapExhausted()) return limitExceeded("memoryBytes", guard.limits);
  return failure("sandbox_crashed", `the hook's QuickJS instance failed and was discarded: ${errorText(error)}`);
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** UTF-8 length without allocating; lone surrogates count as the 3-byte replacement character. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
