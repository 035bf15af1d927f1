import { SandboxEngine, type EngineOptions } from "../engine/engine.ts";
import type { CompiledHandler } from "../transpile.ts";
import { continueAlways, type ChainContinuation, type HandlerSpec, type HostCallFn, type InvocationOutcome } from "../types.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WireStep, type WorkerIO } from "./protocol.ts";

const CODE_CACHE_BYTES = 64 * 1024 * 1024;

export interface WorkerOptions extends EngineOptions {
  /** Decides between the steps of a chain; without one a chain runs every step on the same event. */
  readonly continuation?: ChainContinuation;
}

type ChainMessage = Extract<ToWorker, { t: "chain" }>;

/**
 * The loop of a sandbox worker process: run chains of invocations one at a time, in the order
 * they arrive, on an in-process engine, forwarding the guest's host calls to the parent, which
 * owns every capability. The worker itself holds no policy and no secrets (it is spawned with an
 * empty environment); what decides between the steps of a chain is given to it by its entry point.
 */
export async function serveSandboxWorker(io: WorkerIO, options: WorkerOptions): Promise<void> {
  const engine = await SandboxEngine.create(options);
  await engine.selfTest();
  const continuation = options.continuation ?? continueAlways;
  const specs = new SpecCache(CODE_CACHE_BYTES);
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextCall = 0;
  // The parent may send the next chain before this one ends (so no round trip is lost between
  // them); they still run strictly one after another.
  const waiting: ChainMessage[] = [];
  let running = false;

  const runChain = async (message: ChainMessage): Promise<void> => {
    const resolved = message.steps.map((step) => specs.resolve(step));
    // All code must be here before anything runs: a chain never starts and then stalls.
    if (resolved.some((spec) => spec === undefined)) return io.send({ t: "need-code", id: message.id });
    if (message.prepare) {
      for (const [index, step] of message.steps.entries()) {
        const outcome = await engine.prepare(resolved[index] as HandlerSpec, step.limits);
        io.send(index === message.steps.length - 1 ? { t: "done", id: message.id, outcome } : { t: "step", id: message.id, index, outcome });
      }
      return;
    }
    let event = message.event;
    for (let index = 0; ; index++) {
      const step = message.steps[index] as WireStep;
      const hostCall: HostCallFn = (name, args, signal) =>
        new Promise((resolve, reject) => {
          const call = ++nextCall;
          calls.set(call, { resolve, reject });
          signal.addEventListener("abort", () => calls.delete(call), { once: true });
          io.send({ t: "call", id: message.id, step: index, call, name, args });
        });
      const outcome: InvocationOutcome = await engine.invoke(resolved[index] as HandlerSpec, event, step.limits, hostCall);
      let next: ReturnType<ChainContinuation> = { stop: true };
      if (index < message.steps.length - 1) {
        try {
          next = continuation(step.tag, outcome, event);
        } catch {
          // A continuation that fails ends the chain here; the parent sees where and decides.
        }
      }
      if (next.stop) return io.send({ t: "done", id: message.id, outcome });
      io.send({ t: "step", id: message.id, index, outcome });
      event = next.event;
    }
  };

  const drain = async (): Promise<void> => {
    if (running) return;
    running = true;
    for (let message = waiting.shift(); message; message = waiting.shift()) await runChain(message);
    running = false;
  };

  io.onMessage((raw) => {
    const message = raw as ToWorker;
    switch (message.t) {
      case "chain":
        waiting.push(message);
        void drain();
        return;
      case "host": {
        const pending = calls.get(message.call);
        if (!pending) return;
        calls.delete(message.call);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(message.error);
        return;
      }
      case "evict":
        engine.evict(message.hookIds);
        return;
      case "stats":
        io.send({ t: "stats", id: message.id, stats: engine.stats() });
        return;
    }
  });
  io.onClose(() => engine.dispose());
  io.send({ t: "ready", v: WORKER_PROTOCOL_VERSION } satisfies FromWorker);
}

/** The specs (and their code) this worker was sent, by spec key; code is kept up to a byte budget. */
class SpecCache {
  private readonly code = new Map<string, CompiledHandler>();
  private readonly specs = new Map<string, HandlerSpec>();
  private codeBytes = 0;

  constructor(private readonly maxCodeBytes: number) {}

  /** The spec a step names, or undefined when this worker does not hold it (or its code). */
  resolve(step: WireStep): HandlerSpec | undefined {
    const wire = step.spec;
    if (!wire) return this.specs.get(step.key);
    const { handler } = wire;
    const known =
      handler.code !== undefined
        ? {
            filename: handler.filename,
            codeHash: handler.codeHash,
            code: handler.code,
            ...(handler.sourceMap !== undefined ? { sourceMap: handler.sourceMap } : {}),
          }
        : this.code.get(handler.codeHash);
    if (!known) return undefined;
    this.remember(known);
    const spec: HandlerSpec = { ...wire, handler: known };
    this.specs.set(step.key, spec);
    return spec;
  }

  private remember(handler: CompiledHandler): void {
    if (this.code.has(handler.codeHash)) return;
    this.code.set(handler.codeHash, handler);
    this.codeBytes += handler.code.length;
    for (const [hash, old] of this.code) {
      if (this.codeBytes <= this.maxCodeBytes) break;
      this.code.delete(hash);
      this.codeBytes -= old.code.length;
      // A spec whose code is gone is gone too: the parent resends both on need-code.
      for (const [key, spec] of this.specs) if (spec.handler.codeHash === hash) this.specs.delete(key);
    }
  }
}
