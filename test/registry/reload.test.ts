import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { Dispatcher } from "../../src/decide/chain/dispatcher.ts";
import { engineExecutor } from "../../src/decide/chain/chain.ts";
import { createInvoker } from "../../src/decide/chain/invoker.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { Registry, type ReloadReport } from "../../src/hooks/registry/registry.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { boundDispatcher } from "../helpers/dispatch-env.ts";
import { fakeCapabilities } from "../helpers/fake-capabilities.ts";
import { createEngine } from "../helpers/sandbox.ts";

let engine: SandboxEngine;
let dir: string;
beforeAll(async () => {
  engine = await createEngine();
  dir = mkdtempSync(join(tmpdir(), "hookbox-reload-"));
});
afterAll(() => {
  engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function writeHooks(version: string): void {
  for (const [id, priority] of [
    ["alpha", 1],
    ["beta", 2],
  ] as const) {
    writeFileSync(join(dir, `${id}.yaml`), `id: ${id}\nevents: [PreToolUse]\npriority: ${priority}\nhandler: ./${id}.ts\n`);
    writeFileSync(join(dir, `${id}.ts`), `export default () => ({ reason: "${version}" });\n`);
  }
}

async function setup(onReload?: (report: ReloadReport) => void) {
  const capabilities = fakeCapabilities();
  const registry = await Registry.load(
    async () => ({
      sources: [{ dir, origin: "dir", required: true }],
      operator: operatorFileSchema.parse({}),
      operatorFile: undefined,
      embedded: new Map(),
    }),
    { fs: nodeFileHost, capabilities },
    onReload,
  );
  return { registry, dispatcher: boundDispatcher(registry, new Dispatcher(createInvoker(engineExecutor(engine), capabilities), 16)) };
}

const event = () => parseEvent({ event_type: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } });

describe("reloading hooks", () => {
  it("under a stream of concurrent events, each is answered wholly by the old or the new registry", async () => {
    writeHooks("v1");
    const { registry, dispatcher } = await setup();
    const answers: { version: number; reasons: (string | undefined)[] }[] = [];
    let reloading = true;
    const stream = async (): Promise<void> => {
      while (reloading) {
        const outcome = await dispatcher.handle(event());
        answers.push({ version: outcome.registryVersion, reasons: outcome.decision.runs.map((r) => r.reason) });
        // The in-process engine settles through microtasks only: yield so timers (the reloads) run.
        await new Promise((r) => setImmediate(r));
      }
    };
    const reloads = (async () => {
      for (const version of ["v2", "v3", "v4"]) {
        await new Promise((r) => setTimeout(r, 30));
        writeHooks(version);
        await registry.reload();
      }
      await new Promise((r) => setTimeout(r, 30));
      reloading = false;
    })();
    await Promise.all([stream(), stream(), stream(), stream(), reloads]);
    const seen = new Map<number, string>();
    for (const answer of answers) {
      expect(answer.reasons).toHaveLength(2);
      expect(answer.reasons[0], "both hooks of one event come from one registry").toBe(answer.reasons[1]);
      const known = seen.get(answer.version);
      if (known) expect(answer.reasons[0]).toBe(known);
      seen.set(answer.version, answer.reasons[0] as string);
    }
    expect(seen.size).toBe(4); // the streams really spanned every reload
  });

  it("an invalid change makes the hook a broken entry that fails where it would run, until it is fixed", async () => {
    writeHooks("good");
    const { registry, dispatcher } = await setup();
    writeFileSync(join(dir, "alpha.yaml"), "id: alpha\nevents: [PreToolUse]\npriority: 1\non_error: deny\nhandler: ./alpha.ts\nenabeld: true\n");
    writeFileSync(join(dir, "beta.ts"), "export default () => ({ reason: 'broken' +  });\n");
    const report = await registry.reload();
    expect([...report.broken].sort()).toEqual(["alpha", "beta"]);
    expect(report.diagnostics.map((d) => `${d.field} ${d.message}`).join("\n")).toMatch(/enabeld/);
    expect(report.diagnostics.some((d) => d.file.endsWith("beta.ts") && d.line === 1)).toBe(true);
    const outcome = await dispatcher.handle(event());
    // alpha is on_error: deny: broken, it denies; beta (continue) is not reached after the deny.
    expect(outcome.decision).toMatchObject({ decision: "deny", decided_by: "alpha" });
    expect(outcome.decision.runs.map((r) => [r.hook_id, r.status, r.error_code])).toEqual([
      ["alpha", "failed", "hook_broken"],
      ["beta", "skipped", undefined],
    ]);
    // Fixing the files brings the new version in.
    writeHooks("fixed");
    const fixed = await registry.reload();
    expect(fixed.broken).toEqual([]);
    expect((await dispatcher.handle(event())).decision.runs.map((r) => r.reason)).toEqual(["fixed", "fixed"]);
  });

  it("fresh() reloads before answering when a file changed since the last load", async () => {
    writeHooks("one");
    const { registry } = await setup();
    const first = await registry.fresh();
    expect(await registry.fresh()).toBe(first);
    writeFileSync(join(dir, "beta.ts"), `export default () => ({ reason: "two, a longer text" });\n`);
    const second = await registry.fresh();
    expect(second).not.toBe(first);
    expect(second.version).toBe(first.version + 1);
  });

  it("a deleted hook file removes its hook", async () => {
    writeHooks("x");
    const { registry } = await setup();
    rmSync(join(dir, "beta.yaml"));
    const report = await registry.reload();
    expect(report.removed).toEqual(["beta"]);
    expect(registry.current().hooks.map((h) => h.definition.id)).toEqual(["alpha"]);
  });

  it("watching the directory reloads on change", async () => {
    writeHooks("before");
    const reloaded: ReloadReport[] = [];
    const { registry } = await setup((report) => reloaded.push(report));
    const watcher = nodeFileHost.watch([dir], () => void registry.reload(), 50);
    try {
      writeFileSync(join(dir, "alpha.ts"), `export default () => ({ reason: "after" });\n`);
      const deadline = Date.now() + 5000;
      while (!reloaded.some((r) => r.changed.includes("alpha")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(reloaded.some((r) => r.changed.includes("alpha"))).toBe(true);
    } finally {
      watcher.close();
    }
  });
});
