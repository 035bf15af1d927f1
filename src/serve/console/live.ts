import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { EventGroup } from "./recent.ts";

/** What changed, for the pages that follow the stream. */
export type LiveChange =
  { readonly kind: "events"; readonly groups: readonly EventGroup[] } | { readonly kind: "approvals" } | { readonly kind: "tick" };

/** One SSE message: its event name and data (a page fragment, or a number). */
export interface LiveMessage {
  readonly event: string;
  readonly data: string;
}

/** Silence on a stream longer than this and a comment is sent, so proxies and browsers keep it open. */
const KEEPALIVE_MS = 15_000;

/** Fan-out of changes to the open streams; it closes them all when the console stops. */
export class LiveHub {
  private readonly listeners = new Set<(change: LiveChange | "closed") => void>();

  publish(change: LiveChange): void {
    for (const listener of this.listeners) listener(change);
  }

  subscribers(): number {
    return this.listeners.size;
  }

  closeAll(): void {
    for (const listener of [...this.listeners]) listener("closed");
    this.listeners.clear();
  }

  /**
   * A Server-Sent Events response that turns each change into this client's messages (rendered
   * for its view, filters and session) until the client goes away or the hub closes. It starts
   * with `initial`: what changed between the page's rendering and the stream's opening.
   */
  stream(
    c: Context,
    render: (change: LiveChange) => Promise<readonly LiveMessage[]> | readonly LiveMessage[],
    initial: () => Promise<readonly LiveMessage[]>,
  ): Response {
    return streamSSE(c, async (stream) => {
      const queue: (LiveChange | "closed")[] = [];
      let wake: (() => void) | undefined;
      const listener = (change: LiveChange | "closed"): void => {
        queue.push(change);
        wake?.();
      };
      this.listeners.add(listener);
      let open = true;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: "hello", data: "live", retry: 2000 });
        for (const message of await initial()) await stream.writeSSE(message);
        while (open) {
          if (queue.length === 0) {
            let timer: ReturnType<typeof setTimeout> | undefined;
            const idle = new Promise<"idle">((resolve) => (timer = setTimeout(() => resolve("idle"), KEEPALIVE_MS)));
            const woken = new Promise<"woken">((resolve) => (wake = () => resolve("woken")));
            const why = await Promise.race([idle, woken]);
            clearTimeout(timer);
            wake = undefined;
            if (why === "idle" && queue.length === 0 && open) await stream.write(": keepalive\n\n");
            continue;
          }
          const change = queue.shift() as LiveChange | "closed";
          if (change === "closed") break;
          for (const message of await render(change)) await stream.writeSSE(message);
        }
      } finally {
        this.listeners.delete(listener);
      }
    });
  }
}
