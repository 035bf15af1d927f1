import { stringify } from "yaml";
import type { SandboxEngine } from "../../sandbox/index.ts";
import type { CapabilityHost } from "../../src/capabilities/types.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { Dispatcher } from "../../src/decide/chain/dispatcher.ts";
import { engineExecutor } from "../../src/decide/chain/chain.ts";
import { createInvoker } from "../../src/decide/chain/invoker.ts";
import { failClosedBy } from "../../src/decide/rule.ts";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { Registry } from "../../src/hooks/registry/registry.ts";
import { fakeCapabilities } from "./fake-capabilities.ts";
import { memoryFs } from "./memory-fs.ts";

export interface InlineHooks {
  /** Hook definitions as they would be written in YAML (objects are stringified). */
  readonly hooks: readonly (Record<string, unknown> | string)[];
  /** Extra files next to the hooks (handler .ts files), relative to /hooks. */
  readonly files?: Readonly<Record<string, string>>;
  readonly operator?: Record<string, unknown>;
}

/** A registry and dispatcher over hooks held in memory, run by an in-process engine. */
export async function dispatchEnv(engine: SandboxEngine, spec: InlineHooks, capabilities: CapabilityHost = fakeCapabilities()) {
  const files: Record<string, string> = {};
  spec.hooks.forEach((hook, index) => {
    const text = typeof hook === "string" ? hook : stringify(hook);
    const id = typeof hook === "string" ? `hook-${index}` : String(hook.id ?? `hook-${index}`);
    files[`/hooks/${String(index).padStart(3, "0")}-${id}.yaml`] = text;
  });
  for (const [name, text] of Object.entries(spec.files ?? {})) files[`/hooks/${name}`] = text;
  const fs = memoryFs(files);
  const operator = operatorFileSchema.parse(spec.operator ?? {});
  const registry = await Registry.load(
    async () => ({ sources: [{ dir: "/hooks", origin: "dir", required: false }], operator, operatorFile: undefined, embedded: new Map() }),
    { fs, capabilities },
  );
  return {
    registry,
    dispatcher: boundDispatcher(registry, new Dispatcher(createInvoker(engineExecutor(engine), capabilities), operator.dispatch.concurrency)),
  };
}

/** A dispatcher that always answers from the registry's current snapshot, fail-closed as the evaluator would make it. */
export function boundDispatcher(registry: Registry, dispatcher: Dispatcher) {
  return {
    handle: (event: NativeEvent, options: { failClosed?: boolean } = {}) => {
      const snapshot = registry.current();
      return dispatcher.handle(event, snapshot, { failClosed: failClosedBy(snapshot.operator, options.failClosed) !== undefined });
    },
    fire: (id: string, event: NativeEvent) => dispatcher.fire(id, event, registry.current()),
    inFlight: () => dispatcher.inFlight(),
  };
}
