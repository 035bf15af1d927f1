import type * as WorkerThreads from "node:worker_threads";
import type { WorkerIO, WorkerProcess } from "../../sandbox/index.ts";
import { Tail } from "./lines.ts";

/**
 * A sandbox worker as a thread of this process, speaking the same message protocol as a worker
 * process (each message posted over the thread's port), so the SandboxPool, its timeouts and
 * the pipeline's chain resumption hold unchanged. For one-shot evaluations on request
 * (`emit --thread-worker`); emit's default is a worker process, which is no slower (SECURITY.md).
 *
 * What it gives up (SECURITY.md): no separate process with an empty environment, and no kill.
 * A thread stuck inside WebAssembly cannot be stopped (not by Bun, not by Node); `kill` abandons
 * it — the pool sees it dead at once and goes on — and the process, which ends as soon as its
 * answer is written, takes the thread with it (process.exit does not wait for threads).
 */

/** The parent's side of a thread, whichever API started it. */
interface ThreadHandle {
  post(message: unknown): void;
  onMessage(listener: (data: unknown) => void): void;
  /** Its uncaught errors and anything it printed: kept for the "worker died" message. */
  onDiagnostic(listener: (text: string) => void): void;
  onExit(listener: (code: number | null) => void): void;
  /** Ask it to stop (it may not: a thread inside WebAssembly never does) and keep nothing alive. */
  abandon(): void;
}

/**
 * Sent once by a thread, beside the protocol's messages: its kernel thread id (null where there
 * is none to read), so that its parent can read the thread's CPU time (cpu-time.ts).
 */
interface ThreadIdMessage {
  readonly t: "thread-id";
  readonly tid: number | null;
}

/**
 * The clock of a thread of this process, by its id (cpu-time.ts, given by the adapter: this file
 * is loaded inside threads too, which must not pay for node:fs at start).
 */
export type ThreadCpuClock = (tid: number | undefined) => (() => number | undefined) | undefined;

function isThreadId(message: unknown): message is ThreadIdMessage {
  return typeof message === "object" && message !== null && (message as { t?: unknown }).t === "thread-id";
}

function threadWorkerProcess(thread: ThreadHandle, cpuClock: ThreadCpuClock): WorkerProcess {
  const tail = new Tail();
  const messageListeners: ((message: unknown) => void)[] = [];
  const exitListeners: ((exit: { code: number | null; signal: string | null }) => void)[] = [];
  let exited: { code: number | null; signal: string | null } | undefined;
  // Until the thread said which it is, the protocol's messages ("ready" first) wait: no step can
  // start on a thread whose CPU time the pool could not watch.
  let cpuTime: (() => number | undefined) | undefined;
  let held: unknown[] | undefined = [];
  const exit = (code: number | null, signal: string | null): void => {
    if (exited) return;
    exited = { code, signal };
    for (const listener of exitListeners) listener(exited);
  };
  const deliver = (message: unknown): void => {
    if (exited) return;
    for (const listener of messageListeners) listener(message);
  };
  thread.onMessage((message) => {
    if (held && isThreadId(message)) {
      cpuTime = cpuClock(message.tid ?? undefined);
      for (const early of held.splice(0)) deliver(early);
      held = undefined;
    } else if (held) {
      held.push(message);
    } else {
      deliver(message);
    }
  });
  thread.onDiagnostic((text) => tail.push(text));
  thread.onExit((code) => exit(code, null));
  return {
    pid: undefined,
    send: (message) => {
      if (!exited) thread.post(message);
    },
    onMessage: (listener) => messageListeners.push(listener),
    onExit: (listener) => (exited ? listener(exited) : exitListeners.push(listener)),
    stderrTail: () => tail.toString(),
    cpuTimeMs: () => cpuTime?.(),
    kill: () => {
      // Abandoned: whatever it still runs, nothing it says is heard from now on.
      exit(null, "SIGKILL");
      thread.abandon();
    },
  };
}

/** Bun (and Deno): the web Worker, which starts in less than half the time of node:worker_threads' under Bun. */
export function webThreadWorker(entry: URL, cpuClock: ThreadCpuClock): WorkerProcess {
  const worker = new Worker(entry, { type: "module" });
  return threadWorkerProcess(
    {
      post: (message) => worker.postMessage(message),
      onMessage: (listener) => worker.addEventListener("message", (event) => listener(event.data)),
      onDiagnostic: (listener) =>
        worker.addEventListener("error", (event) => {
          event.preventDefault?.();
          listener(`thread error: ${event.message}\n`);
        }),
      // Bun's "close" says the thread ended; an uncaught error ends it too.
      onExit: (listener) => {
        worker.addEventListener("close", (event) => listener((event as Event & { code?: number }).code ?? null));
        worker.addEventListener("error", () => listener(null));
      },
      abandon: () => {
        (worker as Worker & { unref?: () => void }).unref?.();
        worker.terminate();
      },
    },
    cpuClock,
  );
}

/** Node: node:worker_threads (given, so that loading it is paid only by those who start a thread). */
export function nodeThreadWorker(threads: typeof WorkerThreads, entry: URL, cpuClock: ThreadCpuClock): WorkerProcess {
  // stdout/stderr true: the thread's output is ours to read, never the process's stdout (the agent's answer).
  // execArgv []: the thread needs none of the process's flags.
  const worker = new threads.Worker(entry, { execArgv: [], stdout: true, stderr: true });
  return threadWorkerProcess(
    {
      post: (message) => worker.postMessage(message),
      onMessage: (listener) => worker.on("message", listener),
      onDiagnostic: (listener) => {
        worker.stdout.on("data", (chunk: Buffer) => listener(chunk.toString()));
        worker.stderr.on("data", (chunk: Buffer) => listener(chunk.toString()));
        worker.on("error", (error: Error) => listener(`thread error: ${error.message}\n`));
      },
      onExit: (listener) => worker.on("exit", listener),
      abandon: () => {
        worker.unref();
        void worker.terminate();
      },
    },
    cpuClock,
  );
}

/** Inside a sandbox worker thread started by webThreadWorker. */
export function webThreadIO(): WorkerIO {
  const scope = globalThis as unknown as {
    addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
    postMessage(data: unknown): void;
  };
  redirectConsole();
  announceThreadId((message) => scope.postMessage(message));
  return {
    onMessage: (listener) => scope.addEventListener("message", (event) => listener(event.data)),
    // The parent never closes a thread's port: it abandons the thread, and the process ends.
    onClose: () => undefined,
    send: (message) => scope.postMessage(message),
  };
}

/** Inside a sandbox worker thread started by nodeThreadWorker. */
export function nodeThreadIO(threads: typeof WorkerThreads): WorkerIO {
  const port = threads.parentPort;
  if (!port) throw new Error("nodeThreadIO() outside a worker thread");
  redirectConsole();
  announceThreadId((message) => port.postMessage(message));
  return {
    onMessage: (listener) => port.on("message", listener),
    onClose: (listener) => port.on("close", listener),
    send: (message) => port.postMessage(message),
  };
}

/**
 * Tell the parent this thread's id (it holds the thread's other messages until then). node:fs is
 * loaded while the engine starts, not before: on Bun it costs ~2 ms.
 */
function announceThreadId(post: (message: ThreadIdMessage) => void): void {
  void import("./cpu-time.ts")
    .then(
      ({ currentThreadId }) => currentThreadId() ?? null,
      () => null,
    )
    .then((tid) => post({ t: "thread-id", tid }));
}

/** Whatever a thread prints must not reach the process's stdout, which carries the agent's answer. */
function redirectConsole(): void {
  console.log = console.error;
  console.info = console.error;
}
