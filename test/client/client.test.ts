// hookbox/client (src/client) against the built binary's daemon over a real unix socket and over
// its loopback TCP listener with the token: typed answers, stable error codes, approvals, a
// daemon killed and restarted in the middle of a sequence (the one retry), and a timeout (a
// daemon stopped with SIGSTOP: the connection is accepted, no answer comes).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, HookboxClientError, type ClientTransport, type HookboxClient } from "../../src/client/index.ts";
import { requestNode } from "../../src/platform/node-request.ts";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { ENV_GUARD_YAML } from "../helpers/hook-yaml.ts";

const CONTEXT = `id: notes
events: [UserPromptSubmit]
permissions: { inject_context: true }
handler: { code: "export default () => ({ action: 'inject_context', context_injection: 'the tests run with vitest' })" }
`;
const ASKER = `id: asker
events: [PreToolUse]
priority: 5
match: { tool: Deploy }
approval: { timeout_ms: 20000, default: deny }
handler: { code: "export default (e) => ({ action: 'ask_user', approval_prompt: 'Deploy to ' + e.tool_input.target + '?' })" }
`;

const write = (path: string) => ({
  event_type: "PreToolUse",
  session_id: "c1",
  cwd: "/proj",
  tool_name: "Write",
  tool_input: { file_path: path, content: "x" },
});
const deploy = (target: string) => ({ event_type: "PreToolUse", session_id: "c2", cwd: "/proj", tool_name: "Deploy", tool_input: { target } });

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; status: number | undefined; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HookboxClientError);
  const { code, status, message } = error as HookboxClientError;
  return { code, status, message };
}

async function pendingApproval(client: HookboxClient): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const [first] = await client.approvals();
    if (first) return first.id;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no approval became pending");
}

describe("hookbox/client against dist/hookbox serve", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  const start = async (): Promise<DaemonProcess> =>
    (daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1", "--listen", "127.0.0.1:0"]));

  beforeAll(async () => {
    world = new DaemonWorld().withoutAutoStart();
    writeFileSync(join(world.hooks, "guard.yaml"), ENV_GUARD_YAML);
    writeFileSync(join(world.hooks, "notes.yaml"), CONTEXT);
    writeFileSync(join(world.hooks, "asker.yaml"), ASKER);
    await start();
  });
  afterAll(async () => {
    await daemon?.stop("SIGKILL");
    world.cleanup();
  });

  it("over the unix socket: decisions, context, hooks, runs and health, typed", async () => {
    const client = await createClient({ socket: world.socket });
    const denied = await client.evaluate(write("/proj/.env"));
    expect(denied).toMatchObject({ v: 1, decision: "deny", decided_by: "guard", reason: "writing /proj/.env is not allowed" });
    expect((await client.evaluate(write("/proj/src/a.ts"))).decision).toBe("allow");
    const prompt = await client.evaluate({ event_type: "UserPromptSubmit", session_id: "c1", cwd: "/proj", prompt: "run the tests" });
    expect(prompt.context_injections).toEqual([{ hook_id: "notes", role: "system", content: "the tests run with vitest" }]);
    expect(await client.fire("guard", write("/proj/.env"))).toMatchObject({ decision: "deny", decided_by: "guard" });
    const hooks = await client.hooks();
    expect(hooks.hooks.PreToolUse?.map((hook) => hook.id)).toEqual(expect.arrayContaining(["guard", "asker"]));
    const runs = await client.runs({ hook: "guard", limit: 2 });
    expect(runs.runs.length).toBe(2);
    expect(runs.runs.every((run) => run.hook_id === "guard")).toBe(true);
    expect((await client.health()).status).toBe("ok");
  });

  it("over loopback TCP with the token; a wrong token is unauthorized (401), none is refused before any request", async () => {
    const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(daemon.stderr)?.[1]);
    const token = readFileSync(join(world.home, ".local/share/hookbox/http-token"), "utf8").trim();
    const client = await createClient({ url: `http://127.0.0.1:${port}`, token });
    expect((await client.evaluate(write("/proj/.env"))).decision).toBe("deny");
    const wrong = await createClient({ url: `http://127.0.0.1:${port}`, token: "wrong-token-wrong-token" });
    expect(await codeOf(wrong.health())).toMatchObject({ code: "unauthorized", status: 401 });
    await expect(createClient({ url: `http://127.0.0.1:${port}` })).rejects.toThrow(/needs the daemon's bearer token/);
    await expect(createClient({ url: "http://10.0.0.1:8787", token })).rejects.toThrow(/loopback/);
  });

  it("errors carry the daemon's stable codes and statuses", async () => {
    const client = await createClient({ socket: world.socket });
    expect(await codeOf(client.fire("no-such-hook"))).toMatchObject({ code: "not_found", status: 404 });
    expect(await codeOf(client.deny("no-such-approval"))).toMatchObject({
      code: "not_found",
      status: 404,
      message: expect.stringMatching(/no pending approval/),
    });
    expect(await codeOf(client.runs({ limit: 0 }))).toMatchObject({ code: "event_invalid", status: 400 });
    expect(await codeOf(client.evaluate({ event_type: "PreToolUse", tool_input: "not an object" } as never))).toMatchObject({
      code: "event_invalid",
      status: 400,
    });
    const nobody = await createClient({ socket: join(world.dir, "nobody.sock"), retryDelayMs: 10 });
    expect(await codeOf(nobody.health())).toMatchObject({ code: "daemon_unavailable", status: undefined });
  });

  it("approvals: a held ask is listed, approved or denied, and the waiting evaluate gets the verdict", async () => {
    const client = await createClient({ socket: world.socket });
    expect(await client.evaluate(deploy("qa"), { holdApprovals: false })).toMatchObject({
      decision: "ask",
      approval: { hook_id: "asker", prompt: "Deploy to qa?" },
    });
    const approved = client.evaluate(deploy("staging"));
    const first = await pendingApproval(client);
    expect((await client.approvals())[0]).toMatchObject({ id: first, hook_id: "asker", prompt: "Deploy to staging?" });
    expect(await client.approve(first)).toEqual({ v: 1, id: first, decision: "allow" });
    expect(await approved).toMatchObject({ decision: "allow" });
    const denied = client.evaluate(deploy("production"));
    const second = await pendingApproval(client);
    expect(await client.deny(second)).toEqual({ v: 1, id: second, decision: "deny" });
    expect(await denied).toMatchObject({ decision: "deny" });
  });

  it("a daemon killed mid-sequence and restarted: the next call is retried once and answered by the new daemon", async () => {
    let restarted: Promise<unknown> | undefined;
    let attempts = 0;
    // The runtime's own transport; the first failure is held until the new daemon is up, so the one retry finds it.
    const transport: ClientTransport = async (target, init) => {
      attempts++;
      try {
        return await requestNode(target, init);
      } catch (error) {
        restarted ??= start();
        await restarted;
        throw error;
      }
    };
    const client = await createClient({ socket: world.socket, transport, retryDelayMs: 50 });
    const before = (await client.health()).pid;
    expect((await client.evaluate(write("/proj/.env"))).decision).toBe("deny");
    await daemon.stop("SIGKILL");
    attempts = 0;
    expect((await client.evaluate(write("/proj/.env"))).decision).toBe("deny");
    expect(attempts).toBe(2);
    expect((await client.health()).pid).not.toBe(before);
  });

  it("a daemon that accepts and never answers: a timeout (code timeout), not a hang", async () => {
    const client = await createClient({ socket: world.socket, timeoutMs: 400, retryDelayMs: false });
    daemon.child.kill("SIGSTOP");
    try {
      expect(await codeOf(client.evaluate(write("/proj/.env")))).toMatchObject({
        code: "timeout",
        message: expect.stringMatching(/no answer in time/),
      });
    } finally {
      daemon.child.kill("SIGCONT");
    }
    expect((await client.evaluate(write("/proj/.env"), { timeoutMs: 30_000 })).decision).toBe("deny");
  });
});
