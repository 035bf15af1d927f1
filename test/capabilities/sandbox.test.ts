import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { HOOK_API_METHODS } from "../../src/capabilities/index.ts";
import { createEngine, handlerSpec, limits } from "../helpers/sandbox.ts";
import { event, operator, prepare, removeDir, tempDir, testHost } from "./helpers.ts";
import { liveProcesses, markedSeconds } from "./processes.ts";

let engine: SandboxEngine;
let ws: string;

beforeAll(async () => {
  engine = await createEngine();
  ws = tempDir("hookbox-sbx-");
  execFileSync("git", ["init", "-q", ws]);
  writeFileSync(`${ws}/a.txt`, "from the workspace");
});
afterAll(() => {
  engine.dispose();
  removeDir(ws);
});

const HANDLER = `
export default async function handler(event: HookEvent, hook: Hook): Promise<HookResult> {
  const seen: Record<string, unknown> = { text: await hook.readFile("a.txt") };
  try {
    await hook.readFile("/etc/passwd");
  } catch (e) {
    seen.denied = { name: e.name, isPermissionDenied: e instanceof PermissionDenied, isHookboxError: e instanceof HookboxError, code: e.code, message: e.message, stack: typeof e.stack };
  }
  try {
    await hook.run("git", ["-c", "core.pager=sh", "log"]);
  } catch (e) {
    seen.gitC = e.message;
  }
  try {
    await (hook as any).readFile(42);
  } catch (e) {
    seen.typeError = { name: e.name, code: e.code };
  }
  seen.status = (await hook.run("git", ["status", "--porcelain"])).exitCode;
  await hook.injectContext("remember this");
  return { action: "continue", data: seen };
}`;

describe("capabilities through the real sandbox", () => {
  it("a guest gets results, a catchable PermissionDenied with the message, and nothing of the host", async () => {
    const host = testHost();
    const grants = await prepare(host, { read: ["${workspace}/**"], run: [{ cmd: "git", args: ["**"], env: [] }], inject_context: true });
    const caps = host.forInvocation(grants, event(ws));
    const spec = await handlerSpec(HANDLER, { id: "test-hook", hostFunctions: [...HOOK_API_METHODS] });
    const outcome = await engine.invoke(spec, event(ws), limits(), caps.call);
    expect(outcome.ok).toBe(true);
    const data = (outcome as { value: { data: Record<string, unknown> } }).value.data;
    expect(data.text).toBe("from the workspace");
    expect(data.denied).toMatchObject({ name: "PermissionDenied", isPermissionDenied: true, isHookboxError: true, code: "capability_denied" });
    expect((data.denied as { message: string }).message).toMatch(
      /^hook test-hook: hook\.readFile\("\/etc\/passwd"\) is not granted; to allow it add to its YAML: {2}permissions: \{ read: \["\/etc\/passwd"\] \}/,
    );
    expect(data.gitC).toMatch(/"-c": it sets git configuration/);
    expect(data.typeError).toEqual({ name: "TypeError", code: "invalid_argument" });
    expect(data.status).toBe(0);
    expect(caps.injections).toEqual([{ content: "remember this", role: "system" }]);
    expect(caps.hostCalls.map((c) => `${c.capability}:${c.outcome}`)).toEqual([
      "readFile:allowed",
      "readFile:denied",
      "run:denied",
      "readFile:error",
      "run:allowed",
      "injectContext:allowed",
    ]);
  });

  it("host call time counts toward the invocation's timeout, and the command dies with it", async () => {
    const host = testHost();
    const grants = await prepare(host, { run: [{ cmd: "sleep", args: ["*"], env: [] }] }, { operator: operator() });
    const caps = host.forInvocation(grants, event(ws));
    const mark = markedSeconds(34);
    const spec = await handlerSpec(`export default async (e: HookEvent, hook: Hook) => { await hook.run("sleep", ["${mark}"]); }`, {
      hostFunctions: [...HOOK_API_METHODS],
    });
    const started = performance.now();
    const outcome = await engine.invoke(spec, event(ws), limits({ timeoutMs: 300 }), caps.call);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? undefined : outcome.failure.code).toBe("sandbox_timeout");
    expect(performance.now() - started).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(liveProcesses(mark)).toEqual([]);
  });
});
