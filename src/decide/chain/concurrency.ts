/**
 * A counting semaphore for hook invocations across all events (the global concurrency cap).
 * Waiters are served in arrival order; a waiter that times out leaves the queue.
 */
export class Semaphore {
  private available: number;
  private readonly waiters: { grant: () => void }[] = [];

  constructor(readonly capacity: number) {
    this.available = capacity;
  }

  /** Resolves true with a slot, or false when `timeoutMs` passed first. */
  acquire(timeoutMs: number): Promise<boolean> {
    if (this.available > 0) {
      this.available--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(
        () => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve(false);
        },
        Math.max(0, timeoutMs),
      );
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.available = Math.min(this.capacity, this.available + 1);
  }

  inUse(): number {
    return this.capacity - this.available;
  }
}
