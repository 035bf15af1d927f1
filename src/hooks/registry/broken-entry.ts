import type { Diagnostic } from "../config/diagnostic.ts";
import type { HookOrigin } from "../../core/origin.ts";
import type { Matcher } from "./matcher.ts";

/**
 * A hook that did not load stays in the registry as this: a guard that is installed is a guard
 * that runs, or fails loudly. What of it could be read decides where it applies (its events and
 * matcher, else every event) and what its failure does (its on_error, else the default);
 * dispatch records it as a failed run and applies that on_error on every event it would have
 * matched, until it is fixed.
 */
export interface BrokenHook {
  readonly broken: true;
  /** The id it declares, or `broken:<file>` when none can be read. */
  readonly id: string;
  readonly file: string;
  readonly origin: HookOrigin;
  /** The canonical events it declares, or "all" when they cannot be read. */
  readonly events: readonly string[] | "all";
  /** Absent when its matcher cannot be read: it matches every event of its events. */
  readonly matcher: Matcher | undefined;
  readonly onError: "continue" | "deny";
  readonly priority: number;
  readonly enabled: boolean;
  /** Why it did not load, each at file:line:col. */
  readonly problems: readonly Diagnostic[];
}

export function isBroken(entry: object): entry is BrokenHook {
  return (entry as { broken?: unknown }).broken === true;
}
