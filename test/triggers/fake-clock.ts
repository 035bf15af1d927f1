import type { Clock, TimerHandle } from "../../src/serve/triggers/clock.ts";

/** A clock that moves only when told: trigger tests advance it instead of sleeping. */
export class FakeClock implements Clock {
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  private next = 1;

  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.next++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return { __timer: true, id } as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete((handle as unknown as { id: number }).id);
  }

  /** Move to now + ms, running each timer due on the way at its own time (and what it schedules). */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
      await settle();
    }
    this.time = end;
  }

  pending(): number {
    return this.timers.size;
  }
}

/** Let promise chains and real I/O callbacks of this turn run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}
