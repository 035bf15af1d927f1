import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPool } from "../../sandbox/index.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { boundDispatcher } from "../helpers/dispatch-env.ts";
import { Dispatcher } from "../../src/decide/chain/dispatcher.ts";
import { createInvoker } from "../../src/decide/chain/invoker.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { Registry } from "../../src/hooks/registry/registry.ts";
import { stringify } from "yaml";
import { fakeCapabilities } from "../helpers/fake-capabilities.ts";
import { memoryFs } from "../helpers/memory-fs.ts";
import { createPool } from "../helpers/sandbox.ts";

// The daemon's real path: a hook chain runs in a worker process in one round trip, the
// worker applying the pipeline's rules between hooks (src/decide/chain/chain.ts).
let pool: SandboxPool;
beforeAll(async () => {
  pool = await createPool(1);
});
afterAll(() => pool.close());

async function dispatcherFor(hooks: Record<string, unknown>[]) {
  const files = Object.fromEntries(hooks.map((hook, i) => [`/hooks/${i}.yaml`, stringify(hook)]));
  const capabilities = fakeCapabilities();
  const registry = await Registry.load(
    async () => ({
      sources: [{ dir: "/hooks", origin: "dir", required: true }],
      operator: operatorFileSchema.parse({}),
      operatorFile: undefined,
      embedded: new Map(),
    }),
    { fs: memoryFs(files), capabilities },
  );
  expect(registry.current().diagnostics).toEqual([]);
  return boundDispatcher(registry, new Dispatcher(createInvoker(pool, capabilities), 16));
}

const event = () => parseEvent({ event_type: "PreToolUse", session_id: "s", cwd: "/p", tool_name: "Bash", tool_input: { command: "ls" } });

describe("hook chains in a worker process", () => {
  it("ten hooks run in one round trip; a deny at position 5 stops the worker there", async () => {
    const hooks = Array.from({ length: 10 }, (_, i) => ({
      id: `h${i + 1}`,
      events: ["PreToolUse"],
      priority: i,
      handler: {
        code:
          i === 4
            ? "export default () => ({ action: 'deny', reason: 'five says no' })"
            : `export default (e) => ({ action: 'modify', data: { ...e.tool_input, seen: [...(e.tool_input.seen ?? []), ${i + 1}] } })`,
      },
    }));
    const dispatcher = await dispatcherFor(hooks);
    const before = pool.stats().workers[0]?.invocations ?? 0;
    const { decision } = await dispatcher.handle(event());
    expect(decision).toMatchObject({ decision: "deny", decided_by: "h5", reason: "five says no" });
    expect(decision.runs.map((r) => r.status)).toEqual(["completed", "completed", "completed", "completed", "denied", ...Array(5).fill("skipped")]);
    expect(pool.stats().workers[0]?.invocations).toBe(before + 1); // one job for the whole chain
  });

  it("transforms through the worker: each sees the previous one's data, then all judge the final input", async () => {
    const hooks = Array.from({ length: 4 }, (_, i) => ({
      id: `m${i + 1}`,
      events: ["PreToolUse"],
      priority: i,
      permissions: { modify: ["tool_input.seen"] },
      handler: { code: `export default (e) => ({ action: 'modify', data: { ...e.tool_input, seen: [...(e.tool_input.seen ?? []), ${i + 1}] } })` },
    }));
    const { decision } = await (await dispatcherFor(hooks)).handle(event());
    expect(decision).toMatchObject({ decision: "allow", data: { command: "ls", seen: [1, 2, 3, 4] } });
  });

  it("host calls of each hook go to that hook's own capabilities", async () => {
    const hooks = ["first", "second"].map((id, i) => ({
      id,
      events: ["PreToolUse"],
      priority: i,
      permissions: { inject_context: true },
      handler: { code: `export default async (e, hook) => { await hook.injectContext('from ${id}'); }` },
    }));
    const { decision } = await (await dispatcherFor(hooks)).handle(event());
    expect(decision.context_injections).toEqual([
      { hook_id: "first", role: "system", content: "from first" },
      { hook_id: "second", role: "system", content: "from second" },
    ]);
  });

  it("a worker killed mid-chain fails that hook only; the hooks after it run on a new worker", async () => {
    const hooks = [
      { id: "before", events: ["PreToolUse"], priority: 1, handler: { code: "export default () => ({ reason: 'ran' })" } },
      {
        id: "stuck",
        events: ["PreToolUse"],
        priority: 2,
        limits: { timeout_ms: 300 },
        handler: { code: "export default () => new Array(1e9).join('x').length" },
      },
      { id: "after", events: ["PreToolUse"], priority: 3, handler: { code: "export default () => ({ action: 'deny', reason: 'still guarded' })" } },
    ];
    const kills = pool.stats().timeoutKills;
    const { decision } = await (await dispatcherFor(hooks)).handle(event());
    expect(decision.runs).toMatchObject([
      { hook_id: "before", status: "completed" },
      { hook_id: "stuck", status: "failed", error_code: "sandbox_timeout" },
      { hook_id: "after", status: "denied" },
    ]);
    expect(decision).toMatchObject({ decision: "deny", reason: "still guarded" });
    expect(pool.stats().timeoutKills).toBe(kills + 1);
  });
});
