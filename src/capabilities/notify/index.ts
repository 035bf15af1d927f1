// src/capabilities/notify owns hook.notify, the notify: schema and the sending to sinks; it must not import above src/capabilities.
import type { NotifySinkConfig } from "./schema.ts";
import { MAX_MESSAGE_CHARS, sendNotification } from "./send.ts";
import { arity, optionsArg, stringArg } from "../args.ts";
import type { Capability } from "../capability.ts";
import { deniedByVerdict, renderCall } from "../denied.ts";
import { invalidArgument } from "../errors.ts";
import { flagVerdict, parseFlagPolicy, type FlagPolicy } from "../grants/flag.ts";
import { wellFormed, withoutControls } from "../text.ts";

export interface NotifyPolicy {
  readonly flag: FlagPolicy;
  /** The operator's sinks when the hook was loaded: a hook can send nowhere else. */
  readonly sinks: readonly NotifySinkConfig[];
}

const LEVELS = ["info", "warning", "error"] as const;

/**
 * `notify`: hook.notify(message, {title, level}) sends a message to the operator's notification
 * sinks (hookbox.yaml notify.sinks: a local command, a webhook, the desktop) → {sent, failed}.
 * The text is made safe to show (control characters removed) and cut at 4096 characters. With no
 * sink configured it sends nothing (sent: 0): the operator decides where messages go, if anywhere.
 */
export const notifyCapability: Capability<NotifyPolicy> = {
  name: "notify",
  parse: (sources) => ({ flag: parseFlagPolicy(sources, "notify"), sinks: sources.notifySinks }),
  summary: (policy) => (policy.flag.declared ? ["notify"] : []),
  contribute: (policy, scope) => ({
    notify: async (args, call) => {
      arity("notify", args, 2);
      const raw = stringArg("notify", "message", args[0], 16 * MAX_MESSAGE_CHARS, { allowEmpty: false, allowNul: true });
      const options = optionsArg("notify", args[1], ["title", "level"]);
      const title =
        options.title === undefined || options.title === null
          ? `Hookbox: ${scope.hookId}`
          : withoutControls(wellFormed(stringArg("notify", "title", options.title, 200)));
      const level = options.level === undefined || options.level === null ? "info" : options.level;
      if (!(LEVELS as readonly unknown[]).includes(level))
        throw invalidArgument(`hook.notify: level must be one of ${LEVELS.join(", ")}, got ${JSON.stringify(level)}`);
      const message = withoutControls(wellFormed(raw)).slice(0, MAX_MESSAGE_CHARS);
      call.target = `${policy.sinks.length} sink${policy.sinks.length === 1 ? "" : "s"}`;
      const verdict = flagVerdict(policy.flag);
      if (!verdict.ok) throw deniedByVerdict(scope.hookId, renderCall("notify", ["…"]), verdict, { kind: "notify", yaml: "true" });
      const io = scope.deps.notify;
      if (!io || policy.sinks.length === 0) return { sent: 0, failed: [] };
      return sendNotification(io, policy.sinks, {
        v: 1,
        kind: "hook",
        hook_id: scope.hookId,
        level: level as (typeof LEVELS)[number],
        title,
        message,
        at: new Date().toISOString(),
      });
    },
  }),
};
