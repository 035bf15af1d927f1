import { SandboxEngine, type EngineOptions } from "../engine/engine.ts";
import type { CompiledHandler } from "../transpile.ts";
import { continueAlways, type ChainContinuation, type HandlerSpec, type HostCallFn } from "../types.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WireSpec, type WorkerIO } from "./protocol.ts";

const CODE_CACHE_BYTES = 64 * 1024 * 1024;

export interface WorkerOptions extends EngineOptions {
  /** Decides between the steps of a chain; without one a chain runs every step on the same event. */
  readonly continuation?: ChainContinuation;
}

/**
 * The loop of a sandbox worker process: run chains of invocations one at a time on an
 * in-process engine, forwarding the guest's host calls to the parent, which owns every
 * capability. The worker itself holds no policy and no secrets (it is spawned with an empty
 * environment); what decides between the steps of a chain is given to it by its entry point.
 */
export async function serveSandboxWorker(io: WorkerIO, options: WorkerOptions): Promise<void> {
  const engine = await SandboxEngine.create(options);
  await engine.selfTest();
  const continuation = options.continuation ?? continueAlways;
  const code = new Map<string, CompiledHandler>();
  let codeBytes = 0;
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextCall = 0;
  const send = (message: FromWorker): void => io.write(JSON.stringify(message));

  const remember = (handler: CompiledHandler): void => {
    if (code.has(handler.codeHash)) return;
    code.set(handler.codeHash, handler);
    codeBytes += handler.code.length;
    for (const [hash, old] of code) {
      if (codeBytes <= CODE_CACHE_BYTES) break;
      code.delete(hash);
      codeBytes -= old.code.length;
    }
  };

  const resolveSpec = (wire: WireSpec): HandlerSpec | undefined => {
    const { handler } = wire;
    const known = handler.code !== undefined ? { filename: handler.filename, codeHash: handler.codeHash, code: handler.code } : code.get(handler.codeHash);
    if (!known) return undefined;
    remember(known);
    return { ...wire, handler: known };
  };

  const runChain = async (message: Extract<ToWorker, { t: "chain" }>): Promise<void> => {
    const specs = message.steps.map((step) => resolveSpec(step.spec));
    // All code must be here before anything runs: a chain never starts and then stalls.
    if (specs.some((spec) => spec === undefined)) return send({ t: "need-code", id: message.id });
    let event = message.event;
    for (const [index, step] of message.steps.entries()) {
      const hostCall: HostCallFn = (name, args, signal) =>
        new Promise((resolve, reject) => {
          const call = ++nextCall;
          calls.set(call, { resolve, reject });
          signal.addEventListener("abort", () => calls.delete(call), { once: true });
          send({ t: "call", id: message.id, step: index, call, name, args });
        });
      const outcome = await engine.invoke(specs[index] as HandlerSpec, event, step.limits, hostCall);
      send({ t: "step", id: message.id, index, outcome });
      if (index === message.steps.length - 1) break;
      let next: ReturnType<ChainContinuation>;
      try {
        next = continuation(step.tag, outcome, event);
      } catch {
        // A continuation that fails ends the chain here; the parent sees where and decides.
        break;
      }
      if (next.stop) break;
      event = next.event;
    }
    send({ t: "done", id: message.id });
  };

  io.onLine((line) => {
    const message = JSON.parse(line) as ToWorker;
    switch (message.t) {
      case "chain":
        void runChain(message);
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
        send({ t: "stats", id: message.id, stats: engine.stats() });
        return;
    }
  });
  io.onClose(() => engine.dispose());
  send({ t: "ready", v: WORKER_PROTOCOL_VERSION });
}
