import { SandboxEngine, type EngineOptions } from "../engine/engine.ts";
import type { CompiledHandler } from "../transpile.ts";
import type { HostCallFn } from "../types.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WorkerIO } from "./protocol.ts";

const CODE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The loop of a sandbox worker process: run invocations one at a time on an in-process
 * engine, forwarding the guest's host calls to the parent, which owns every capability.
 * The worker itself holds no policy and no secrets (it is spawned with an empty environment).
 */
export async function serveSandboxWorker(io: WorkerIO, options: EngineOptions): Promise<void> {
  const engine = await SandboxEngine.create(options);
  await engine.selfTest();
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

  const invoke = async (message: Extract<ToWorker, { t: "invoke" }>): Promise<void> => {
    const wire = message.spec.handler;
    const handler = wire.code !== undefined ? { filename: wire.filename, codeHash: wire.codeHash, code: wire.code } : code.get(wire.codeHash);
    if (!handler) return send({ t: "need-code", id: message.id });
    remember(handler);
    const hostCall: HostCallFn = (name, args, signal) =>
      new Promise((resolve, reject) => {
        const call = ++nextCall;
        calls.set(call, { resolve, reject });
        signal.addEventListener("abort", () => calls.delete(call), { once: true });
        send({ t: "call", id: message.id, call, name, args });
      });
    const outcome = await engine.invoke({ ...message.spec, handler }, message.event, message.limits, hostCall);
    send({ t: "done", id: message.id, outcome });
  };

  io.onLine((line) => {
    const message = JSON.parse(line) as ToWorker;
    switch (message.t) {
      case "invoke":
        void invoke(message);
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
