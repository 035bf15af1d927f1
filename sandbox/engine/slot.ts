import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { failure, limitExceeded, type SandboxFailure } from "../failure.ts";
import type { HandlerSpec } from "../types.ts";
import type { InvocationGuard } from "./guard.ts";
import { describeGuestError, limitOfGuestError, type GuestErrorInfo } from "./guest-error.ts";
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from "./prelude.ts";
import type { HookModule, QuickJsFactory } from "./quickjs.ts";

/** Live QuickJS objects, counted so tests can assert nothing leaked. */
export interface EngineCounters {
  modules: number;
  runtimes: number;
  contexts: number;
  poisonedModules: number;
}

/** Calls from guest code into the host, routed to the invocation that is running. */
export interface GuestBridge {
  hostCall(context: QuickJSContext, name: string, argsJson: string): QuickJSHandle;
  emitLog(level: string, message: string): void;
  readonly guard: InvocationGuard;
}

/** A context prepared for one handler: the handler function, its `hook`, and the prelude's functions, captured before handler code ran. */
export interface GuestContext {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  readonly handler: QuickJSHandle;
  readonly hook: QuickJSHandle;
  readonly parse: QuickJSHandle;
  readonly stringify: QuickJSHandle;
  readonly place: QuickJSHandle;
}

export type GuestSetup = { readonly ok: true; readonly guest: GuestContext } | { readonly ok: false; readonly failure: SandboxFailure };

/**
 * One hook's home in the engine: its own WebAssembly instance and, for warm isolation, the
 * context that stays loaded between invocations. The slot owns both and is the only code that
 * disposes them. A module that saw a host-level fault (abort, host stack overflow) is
 * *poisoned*: it is dropped without dispose, which could itself abort (quickjs-emscripten#257).
 */
export class HookSlot {
  private module: HookModule | undefined;
  private guest: GuestContext | undefined;
  private bridge: GuestBridge | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  constructor(
    readonly spec: HandlerSpec,
    readonly memoryBytes: number,
    readonly stackBytes: number,
    private readonly factory: QuickJsFactory,
    private readonly counters: EngineCounters,
  ) {}

  /** Serialise invocations of this slot: a context runs one invocation at a time. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = this.tail.then(fn, fn).finally(() => this.queued--);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** True while an invocation runs or waits for this slot; a busy slot is never evicted. */
  get busy(): boolean {
    return this.queued > 0;
  }

  get loadedModule(): HookModule | undefined {
    return this.module;
  }

  async ensureModule(): Promise<HookModule> {
    if (!this.module) {
      this.module = await this.factory.newModule(this.memoryBytes);
      this.counters.modules++;
    }
    return this.module;
  }

  /** The warm context, or a new one whose setup (prelude and handler top level) runs under `bridge.guard`. */
  enterGuest(bridge: GuestBridge): GuestSetup & { cold: boolean } {
    this.bridge = bridge;
    if (this.guest) return { ok: true, guest: this.guest, cold: false };
    const setup = this.createGuest(bridge.guard);
    if (setup.ok) this.guest = setup.guest;
    return { ...setup, cold: true };
  }

  /** End of an invocation: the bridge detaches; a fresh-isolation or failed context is disposed. */
  leaveGuest(keep: boolean): void {
    this.bridge = undefined;
    if (!keep || this.spec.isolation === "fresh") this.disposeGuest();
  }

  disposeGuest(): void {
    const guest = this.guest;
    this.guest = undefined;
    if (!guest) return;
    try {
      for (const handle of [guest.handler, guest.hook, guest.parse, guest.stringify, guest.place]) if (handle.alive) handle.dispose();
      guest.context.dispose();
      this.counters.contexts--;
      guest.runtime.dispose();
      this.counters.runtimes--;
    } catch {
      // A dispose that aborts leaves the module in an unknown state: never use it again.
      this.poison();
    }
  }

  /** Drop the module without touching it again. */
  poison(): void {
    if (this.guest) {
      this.counters.contexts--;
      this.counters.runtimes--;
      this.guest = undefined;
    }
    if (this.module) {
      this.module = undefined;
      this.counters.modules--;
      this.counters.poisonedModules++;
    }
  }

  /**
   * Dispose, asking the sanitizer (debug builds only) whether anything stayed allocated.
   * "discarded": the module was poisoned and dropped, so there is nothing left to check.
   */
  disposeAndCheckLeaks(): "clean" | "leaked" | "discarded" | "unknown" {
    this.disposeGuest();
    const ffi = this.module?.qjs.getFFI();
    const verdict = !ffi ? "discarded" : !ffi.QTS_BuildIsSanitizeLeak() ? "unknown" : ffi.QTS_RecoverableLeakCheck() === 0 ? "clean" : "leaked";
    this.dispose();
    return verdict;
  }

  dispose(): void {
    this.disposeGuest();
    if (this.module) {
      this.module = undefined;
      this.counters.modules--;
    }
  }

  private createGuest(guard: InvocationGuard): GuestSetup {
    const module = this.module;
    if (!module) throw new Error("HookSlot.createGuest before ensureModule");
    const runtime = module.qjs.newRuntime();
    this.counters.runtimes++;
    runtime.setMemoryLimit(this.memoryBytes);
    runtime.setMaxStackSize(this.stackBytes);
    // Outside an invocation no guest code may run at all.
    runtime.setInterruptHandler(() => (this.bridge ? this.bridge.guard.shouldInterrupt() : true));
    const context = runtime.newContext();
    this.counters.contexts++;
    const owned: QuickJSHandle[] = [];
    const fail = (result: SandboxFailure): GuestSetup => {
      for (const handle of owned) if (handle.alive) handle.dispose();
      context.dispose();
      this.counters.contexts--;
      runtime.dispose();
      this.counters.runtimes--;
      return { ok: false, failure: result };
    };

    const hostCall = context.newFunction("hostCall", (nameHandle, argsHandle) => {
      if (!this.bridge) return { error: context.newError("the hook API was called after its invocation ended") };
      return this.bridge.hostCall(context, context.getString(nameHandle), context.getString(argsHandle));
    });
    const emitLog = context.newFunction("emitLog", (levelHandle, messageHandle) => {
      this.bridge?.emitLog(context.getString(levelHandle), context.getString(messageHandle));
    });
    const preludeResult = guard.enter(() => context.evalCode(PRELUDE_SOURCE, PRELUDE_FILENAME, { type: "global", strict: true }));
    if (preludeResult.error) {
      preludeResult.error.dispose();
      hostCall.dispose();
      emitLog.dispose();
      return fail(failure("sandbox_crashed", "the sandbox prelude failed to load"));
    }
    const preludeFn = preludeResult.value;
    const apiResult = guard.enter(() => context.callFunction(preludeFn, context.undefined, hostCall, emitLog));
    preludeFn.dispose();
    hostCall.dispose();
    emitLog.dispose();
    if (apiResult.error) {
      apiResult.error.dispose();
      return fail(failure("sandbox_crashed", "the sandbox prelude failed to initialise"));
    }
    const api = apiResult.value;
    const parse = context.getProp(api, "parse");
    const stringify = context.getProp(api, "stringify");
    const place = context.getProp(api, "place");
    const makeHook = context.getProp(api, "makeHook");
    api.dispose();
    owned.push(parse, stringify, place);

    const hookResult = guard.enter(() => {
      const names = context.newString(JSON.stringify(this.spec.hostFunctions));
      const data = context.newString(JSON.stringify(this.spec.hookData));
      try {
        return context.callFunction(makeHook, context.undefined, names, data);
      } finally {
        names.dispose();
        data.dispose();
        makeHook.dispose();
      }
    });
    if (hookResult.error) {
      const info = this.describe(context, hookResult.error, guard);
      return fail(brokenLimit(info, guard) ?? failure("handler_invalid", `could not build the hook object: ${info.summary}`));
    }
    owned.push(hookResult.value);

    const { filename, code } = this.spec.handler;
    const evaluated = guard.enter(() => context.evalCode(code, filename, { type: "module", strict: true }));
    if (evaluated.error) {
      const info = this.describe(context, evaluated.error, guard);
      return fail(brokenLimit(info, guard) ?? moduleLoadFailure(info, filename));
    }
    let namespace = evaluated.value;
    const state = context.getPromiseState(namespace);
    if (state.type === "pending") {
      namespace.dispose();
      return fail(failure("handler_invalid", `${filename}: top-level await is not supported in handlers; await inside the handler function instead`));
    }
    if (state.type === "rejected") {
      namespace.dispose();
      const info = this.describe(context, state.error, guard);
      return fail(brokenLimit(info, guard) ?? moduleLoadFailure(info, filename));
    }
    if (!state.notAPromise) {
      namespace.dispose();
      namespace = state.value;
    }
    const handler = context.getProp(namespace, "default");
    namespace.dispose();
    if (context.typeof(handler) !== "function") {
      handler.dispose();
      return fail(
        failure(
          "handler_invalid",
          `${filename}: the handler must \`export default function (event, hook) { … }\`; no default export function was found`,
        ),
      );
    }
    return { ok: true, guest: { runtime, context, handler, hook: hookResult.value, parse, stringify, place } };
  }

  private describe(context: QuickJSContext, errorHandle: QuickJSHandle, guard: InvocationGuard): GuestErrorInfo {
    try {
      return describeGuestError(context, errorHandle, guard);
    } finally {
      errorHandle.dispose();
    }
  }
}

/** A limit QuickJS reported while the context was set up (a parse "stack overflow" is the stack limit, not a syntax error). */
function brokenLimit(info: GuestErrorInfo, guard: InvocationGuard): SandboxFailure | undefined {
  const limit = limitOfGuestError(info);
  return limit ? limitExceeded(limit, guard.limits) : undefined;
}

function moduleLoadFailure(info: GuestErrorInfo, filename: string): SandboxFailure {
  if (info.name === "SyntaxError") {
    const location = info.location ?? { file: filename, line: 1, column: 1 };
    return failure("handler_syntax", `${location.file}:${location.line}:${location.column}: syntax error: ${info.message}`, { location });
  }
  const missing = /^could not load module '(.*)'$/.exec(info.message);
  if (missing) {
    return failure(
      "handler_invalid",
      `${filename}: imports '${missing[1]}', but handlers are single files: inline what you need, and use the hook object for host access`,
    );
  }
  return failure("handler_threw", `${filename}: the handler's top level threw ${info.summary}`, { guestStack: info.stack });
}
