/**
 * One writer per hook store at a time within this process: invocations of the same hook may
 * run concurrently, and read-modify-write on one file must not lose updates. (Two Hookbox
 * processes sharing a data dir are not coordinated: the daemon is meant to be the only one.)
 */
export class StoreLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
