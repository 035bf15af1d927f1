/**
 * Stdout, written in order and drained before the process exits. A caller may drop a write's
 * promise (commander prints help and usage through a synchronous callback), and on Bun a write
 * to a file or a pipe completes after a process.exit would have cut it: `hookbox --help > file`
 * wrote nothing most of the time. So the exit that ends the process waits for every write.
 */
export interface StdoutQueue {
  /** Written after every earlier write; resolves once this text is out. */
  write(text: string): Promise<void>;
  /** End the process with `code` once every write so far is out (or failed: a closed pipe). */
  exit(code: number): Promise<never>;
}

export function stdoutQueue(writeNow: (text: string) => Promise<void>, exitNow: (code: number) => never): StdoutQueue {
  let last: Promise<void> = Promise.resolve();
  return {
    write: (text) => {
      const written = last.then(() => writeNow(text));
      last = written.catch(() => undefined);
      return written;
    },
    exit: async (code) => {
      // A write queued while we wait is waited for too.
      for (let drained: Promise<void> | undefined; drained !== last;) {
        drained = last;
        await drained;
      }
      return exitNow(code);
    },
  };
}
