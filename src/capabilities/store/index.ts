// src/capabilities/store owns hook.store, a hook's own small key-value file; it must not import another capability or above src/capabilities.
import { arity, stringArg } from "../args.ts";
import type { Capability, CallContext, InvocationScope } from "../capability.ts";
import { deniedByVerdict, renderCall } from "../denied.ts";
import { failed } from "../errors.ts";
import { flagVerdict, parseFlagPolicy, type FlagPolicy } from "../grants/flag.ts";
import { utf8Bytes } from "../text.ts";

/** The whole store of one hook, as its JSON file, at most this many bytes. */
export const STORE_MAX_BYTES = 1024 * 1024;
const MAX_KEY_CHARS = 256;

interface StoreFile {
  readonly v: 1;
  readonly entries: Record<string, unknown>;
}

function storePath(scope: InvocationScope): string {
  // Hook ids are [a-z0-9-] (config schema): safe as a file name.
  return `${scope.deps.dataDir}/store/${scope.hookId}.json`;
}

async function load(scope: InvocationScope): Promise<Map<string, unknown>> {
  const bytes = await scope.deps.io.readPrivateFile(storePath(scope), STORE_MAX_BYTES);
  if (bytes === undefined) return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw failed("io_failed", `the store of hook ${scope.hookId} is not valid JSON (${storePath(scope)}); delete the file to start over`);
  }
  const entries = (parsed as Partial<StoreFile> | null)?.entries;
  if (!entries || typeof entries !== "object" || Array.isArray(entries))
    throw failed("io_failed", `the store of hook ${scope.hookId} has an unknown shape (${storePath(scope)})`);
  // A Map, not an object: a key named __proto__ is just a key.
  return new Map(Object.entries(entries));
}

async function save(scope: InvocationScope, entries: Map<string, unknown>): Promise<void> {
  const file: StoreFile = { v: 1, entries: Object.fromEntries(entries) };
  const json = JSON.stringify(file);
  const bytes = utf8Bytes(json);
  if (bytes > STORE_MAX_BYTES)
    throw failed("too_large", `hook.store.set: the store of hook ${scope.hookId} would be ${bytes} bytes, more than ${STORE_MAX_BYTES}`);
  await scope.deps.io.writePrivateFile(storePath(scope), new TextEncoder().encode(json));
}

type StoreOp = (entries: Map<string, unknown>, key: string, args: readonly unknown[]) => { result: unknown; changed: boolean };

const OPS: Readonly<Record<"get" | "set" | "delete", StoreOp>> = {
  get: (entries, key) => ({ result: entries.get(key), changed: false }),
  set: (entries, key, args) => {
    // The value came through JSON from the guest: it is JSON already; undefined means null there.
    entries.set(key, args[1] === undefined ? null : args[1]);
    return { result: undefined, changed: true };
  },
  delete: (entries, key) => {
    const existed = entries.delete(key);
    return { result: existed, changed: existed };
  },
};

function storeMethod(policy: FlagPolicy, scope: InvocationScope, op: keyof typeof OPS) {
  const api = `store.${op}`;
  return async (args: readonly unknown[], call: CallContext): Promise<unknown> => {
    arity(api, args, op === "set" ? 2 : 1);
    const key = stringArg(api, "key", args[0], MAX_KEY_CHARS);
    call.target = key;
    const verdict = flagVerdict(policy);
    if (!verdict.ok) throw deniedByVerdict(scope.hookId, renderCall(api, [key]), verdict, { kind: "store", yaml: "true" });
    return scope.stores.run(scope.hookId, async () => {
      const entries = await load(scope);
      const { result, changed } = OPS[op](entries, key, args);
      if (changed) await save(scope, entries);
      return result;
    });
  };
}

/**
 * `store`: hook.store.get/set/delete(key) — a small persistent key-value store per hook (for
 * ledgers and idempotency), in `<dataDir>/store/<hook-id>.json`, mode 0600, replaced atomically
 * on every change; values are JSON; the whole store is at most 1 MiB.
 */
export const storeCapability: Capability<FlagPolicy> = {
  name: "store",
  parse: (sources) => parseFlagPolicy(sources, "store"),
  summary: (policy) => (policy.declared ? ["store"] : []),
  contribute: (policy, scope) => ({
    "store.get": storeMethod(policy, scope, "get"),
    "store.set": storeMethod(policy, scope, "set"),
    "store.delete": storeMethod(policy, scope, "delete"),
  }),
};
