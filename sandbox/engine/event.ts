import type { QuickJSContext } from "quickjs-emscripten-core";
import { KiB } from "../limits.ts";
import type { GuestContext } from "./slot.ts";

type CallResult = ReturnType<QuickJSContext["callFunction"]>;

/**
 * Strings at least this long cross into the guest on their own, not inside the event's JSON.
 * The guest's JSON.parse builds each string in a buffer that grows by half with every realloc,
 * so a string of n bytes needs up to ~2.5n of heap at the peak, on top of the JSON text itself:
 * a 10 MiB Write would need ~35 MiB. Sent alone, a string costs its copy plus the transient
 * buffer that carries it in (2n), and the heap limit measures what the handler does with it.
 */
const SEPARATE_STRING_CHARS = 64 * KiB;

interface LargeString {
  readonly path: readonly string[];
  readonly value: string;
}

/** Copy the event into the guest as a value; runs guest-side parsing, so call it inside a guard slice. */
export function eventIntoGuest(context: QuickJSContext, guest: GuestContext, event: unknown): CallResult {
  const { json, large } = splitEvent(event);
  let result = withString(context, json, (text) => context.callFunction(guest.parse, context.undefined, text));
  for (const { path, value } of large) {
    if (result.error) return result;
    const root = result.value;
    result = withString(context, JSON.stringify(path), (pathText) =>
      withString(context, value, (valueText) => context.callFunction(guest.place, context.undefined, root, pathText, valueText)),
    );
    root.dispose();
  }
  return result;
}

function withString(context: QuickJSContext, text: string, use: (handle: ReturnType<QuickJSContext["newString"]>) => CallResult): CallResult {
  const handle = context.newString(text);
  try {
    return use(handle);
  } finally {
    handle.dispose();
  }
}

/**
 * Each event's split, by identity: the hooks of one chain get the same event object (a rewrite
 * makes a new one), so it is serialized once per chain, not once per hook. Nothing here changes
 * an event it was given.
 */
const splits = new WeakMap<object, { json: string; large: LargeString[] }>();

/**
 * The event's JSON with its large strings taken out (replaced by null), and where they go.
 * Small events, by far the most common, are stringified once and not walked.
 */
export function splitEvent(event: unknown): { json: string; large: LargeString[] } {
  if (event === null || typeof event !== "object") return splitValue(event);
  let split = splits.get(event);
  if (!split) splits.set(event, (split = splitValue(event)));
  return split;
}

function splitValue(event: unknown): { json: string; large: LargeString[] } {
  const json = JSON.stringify(event ?? null);
  if (json.length < SEPARATE_STRING_CHARS) return { json, large: [] };
  const root: unknown = JSON.parse(json); // plain data, ours to edit
  if (typeof root === "string") return { json: "null", large: [{ path: [], value: root }] };
  const large: LargeString[] = [];
  // Iterative: an event may nest deeper than the host stack allows recursion.
  type Node = { readonly value: Record<string, unknown>; readonly parent: Node | undefined; readonly key: string };
  const pathOf = (node: Node | undefined, key: string): string[] => {
    const path = [key];
    for (let at = node; at?.parent; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const pending: Node[] = root && typeof root === "object" ? [{ value: root as Record<string, unknown>, parent: undefined, key: "" }] : [];
  for (let node = pending.pop(); node; node = pending.pop()) {
    for (const key of Object.keys(node.value)) {
      const child = node.value[key];
      if (typeof child === "string" && child.length >= SEPARATE_STRING_CHARS) {
        large.push({ path: pathOf(node, key), value: child });
        node.value[key] = null;
      } else if (child && typeof child === "object") {
        pending.push({ value: child as Record<string, unknown>, parent: node, key });
      }
    }
  }
  return large.length ? { json: JSON.stringify(root), large } : { json, large };
}
