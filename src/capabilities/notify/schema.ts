import { z } from "zod";

/**
 * Where notifications go (hookbox.yaml `notify:`): a hook's `hook.notify(…)` / `then.notify`, and
 * the start, completion, skip and failure of triggered runs (the seed engine's Discord messages).
 * Only the operator names sinks: a hook cannot send anywhere else, so the webhook URLs written
 * here are the allow list.
 */

export const NOTIFY_RUN_PHASES = ["started", "completed", "skipped", "failed"] as const;
export type NotifyRunPhase = (typeof NOTIFY_RUN_PHASES)[number];

const timeoutMs = z.number().int().min(100).max(60_000).default(10_000);

/** https anywhere, or http to this machine only (a local relay): a notification may carry what a hook read. */
const webhookUrl = z
  .string()
  .max(2048)
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "expected a URL" });
      return;
    }
    const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
    if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback))
      ctx.addIssue({ code: "custom", message: "expected an https: URL (http: only to localhost)" });
    if (url.username || url.password) ctx.addIssue({ code: "custom", message: "put no credentials in the URL; use a token in its path or query" });
  });

export const notifySinkSchema = z.union([
  /** A local program, run without a shell; the notification arrives as one JSON line on its stdin. */
  z.object({ command: z.array(z.string().min(1).max(4096)).min(1).max(64), timeout_ms: timeoutMs }).strict(),
  /** POST of the notification as JSON. */
  z.object({ webhook: webhookUrl, timeout_ms: timeoutMs }).strict(),
  /** The desktop's own notifications (notify-send on Linux, osascript on macOS), where there is a desktop session. */
  z.object({ desktop: z.literal(true) }).strict(),
]);

export type NotifySinkConfig = z.output<typeof notifySinkSchema>;

export const notifySettingsSchema = z
  .object({
    sinks: z.array(notifySinkSchema).max(8).default([]),
    /** Which moments of a triggered run are reported to the sinks. */
    runs: z
      .array(z.enum(NOTIFY_RUN_PHASES))
      .max(4)
      .default([...NOTIFY_RUN_PHASES]),
  })
  .strict();

export type NotifySettings = z.output<typeof notifySettingsSchema>;
