import type { NotifySinkConfig } from "./schema.ts";
import { errorMessage } from "../../core/errors.ts";
import type { NotifyIO } from "../../platform/index.ts";

/** One notification, as every sink receives it (a command: one JSON line on stdin; a webhook: the JSON body). */
export interface Notification {
  readonly v: 1;
  /** "hook": a hook's own message (hook.notify); "run": a triggered run started, completed, was skipped or failed. */
  readonly kind: "hook" | "run";
  readonly hook_id: string;
  readonly project?: string;
  readonly level: "info" | "warning" | "error";
  readonly title: string;
  readonly message: string;
  readonly phase?: "started" | "completed" | "skipped" | "failed";
  readonly trigger?: string;
  readonly run_id?: string;
  readonly at: string;
}

export interface Delivery {
  /** Sinks that took it (a command that exited 0, a webhook answering 2xx, a desktop notification started). */
  readonly sent: number;
  readonly failed: readonly string[];
}

/** The longest message a sink gets: a notification is a line, not a report. */
export const MAX_MESSAGE_CHARS = 4096;

/**
 * Send to every sink, all at once, each bounded by its timeout. Never rejects: a sink that fails
 * is named in `failed` (and the caller records it), the others still get it.
 */
export async function sendNotification(io: NotifyIO, sinks: readonly NotifySinkConfig[], notification: Notification): Promise<Delivery> {
  const results = await Promise.all(
    sinks.map((sink) =>
      deliver(io, sink, notification).then(
        (problem) => problem,
        (error: unknown) => `${describeSink(sink)}: ${errorMessage(error)}`,
      ),
    ),
  );
  const failed = results.filter((problem): problem is string => problem !== undefined);
  return { sent: sinks.length - failed.length, failed };
}

async function deliver(io: NotifyIO, sink: NotifySinkConfig, notification: Notification): Promise<string | undefined> {
  if ("command" in sink) {
    const code = await io.command(sink.command, `${JSON.stringify(notification)}\n`, sink.timeout_ms);
    return code === 0
      ? undefined
      : `${describeSink(sink)}: ${code === null ? `did not finish within ${sink.timeout_ms} ms or could not start` : `exited with ${code}`}`;
  }
  if ("webhook" in sink) {
    const status = await io.postJson(sink.webhook, JSON.stringify(notification), sink.timeout_ms);
    return status >= 200 && status < 300 ? undefined : `${describeSink(sink)}: answered HTTP ${status}`;
  }
  return io.desktop(notification.title, notification.message)
    ? undefined
    : "desktop: no desktop notifications here (notify-send or osascript, and a desktop session)";
}

function describeSink(sink: NotifySinkConfig): string {
  if ("command" in sink) return `command ${sink.command[0]}`;
  if ("webhook" in sink) return `webhook ${new URL(sink.webhook).host}`;
  return "desktop";
}
