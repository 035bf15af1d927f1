import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

/**
 * Air-gapped: `serve` and `emit` work inside a network namespace with no usable interface
 * (unshare -rn, or unshare -n as root). Where the kernel or the sandbox this runs in refuses new
 * namespaces, the tests print why and are reported as skipped, never as passed.
 */

const FIXTURE = resolve(import.meta.dirname, "../fixtures/agents/claude-code/PreToolUse-5.json");

/** The unshare invocation that works here, or why none does. */
function probeUnshare(): { ok: true; wrap: string[] } | { ok: false; reason: string } {
  const errors: string[] = [];
  for (const flags of [["-rn"], ["-n"]]) {
    const probe = spawnSync("unshare", [...flags, "cat", "/proc/net/dev"], { encoding: "utf8", timeout: 10_000 });
    if (probe.error) {
      errors.push(`unshare ${flags.join(" ")}: ${probe.error.message}`);
      continue;
    }
    if (probe.status !== 0) {
      errors.push(`unshare ${flags.join(" ")}: exit ${probe.status}: ${probe.stderr.trim()}`);
      continue;
    }
    return { ok: true, wrap: ["unshare", ...flags] };
  }
  return { ok: false, reason: `no network namespace available (${errors.join("; ")})` };
}

const unshare = probeUnshare();

function skipUnlessNamespaces(ctx: { skip: (note?: string) => never }): string[] {
  if (!unshare.ok) {
    console.log(`air-gapped tests skipped: ${unshare.reason}`);
    ctx.skip(unshare.reason);
  }
  return (unshare as { wrap: string[] }).wrap;
}

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runIn(wrap: readonly string[], args: readonly string[], world: DaemonWorld, stdin: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((done, reject) => {
    const [program, ...rest] = [...wrap, BUILT_BINARY, ...args] as [string, ...string[]];
    const child = spawn(program, rest, { cwd: world.dir, env: world.env(env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.on("error", () => undefined); // a program that exits without reading its input
    child.stdin.end(stdin);
  });
}

const GUARD = `id: no-echo-redirect
events: [PreToolUse]
match: { tool: Bash, fields: { tool_input.command: "^echo .*>" } }
handler: { code: "export default (e) => ({ action: 'deny', reason: 'air-gapped deny: ' + e.tool_input.command })" }
`;
const FETCHER = `id: fetcher
events: [net.probe]
permissions: { net: ["192.0.2.1"] }
handler: { code: "export default async (e, hook) => { try { await hook.http.get('http://192.0.2.1/'); return { reason: 'reached' }; } catch (err) { return { reason: 'refused ' + err.code }; } }" }
`;

describe("air-gapped: serve and emit in a network namespace without interfaces", () => {
  const worlds: DaemonWorld[] = [];
  const daemons: DaemonProcess[] = [];
  afterAll(async () => {
    for (const daemon of daemons) await daemon.stop("SIGKILL");
    for (const world of worlds) world.cleanup();
  });

  it("the namespace really has no network: only a loopback interface, no route", (ctx) => {
    const wrap = skipUnlessNamespaces(ctx);
    const dev = spawnSync(wrap[0] as string, [...wrap.slice(1), "cat", "/proc/net/dev", "/proc/net/route"], { encoding: "utf8" });
    const interfaces = dev.stdout
      .split("\n")
      .filter((line) => /^\s*[\w.-]+:/.test(line))
      .map((line) => line.trim().split(":")[0]);
    expect(interfaces).toEqual(["lo"]);
    expect(dev.stdout).not.toMatch(/^\w+\t[0-9A-F]{8}\t/m);
  });

  it("serve inside it answers events over its unix socket; a hook's http.get fails fast instead of hanging", async (ctx) => {
    const wrap = skipUnlessNamespaces(ctx);
    const world = new DaemonWorld();
    worlds.push(world);
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    writeFileSync(join(world.hooks, "fetcher.yaml"), FETCHER);
    const configDir = join(world.home, ".config", "hookbox");
    spawnSync("mkdir", ["-p", configDir]);
    writeFileSync(join(configDir, "hookbox.yaml"), "hooks: { fetcher: { permissions: { net: ['192.0.2.1'] } } }\n");
    const daemon = await DaemonProcess.start([...wrap, BUILT_BINARY], world, ["--workers", "1"]);
    daemons.push(daemon);
    const payload = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;
    const denied = await call(world.socket, "POST", "/v1/agents/claude", payload);
    expect(denied.json).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "air-gapped deny: echo hello > out.txt" },
    });
    expect((await call(world.socket, "GET", "/healthz")).json).toMatchObject({ status: "ok" });
    const fetched = await call(world.socket, "POST", "/v1/events/net.probe", { cwd: world.dir }, {}, 20_000);
    expect(fetched.json).toMatchObject({ runs: [{ hook_id: "fetcher", status: "completed", reason: "refused http_failed" }] });

    // emit, in a namespace of its own, reaches the socket file; whether it may let that daemon
    // decide depends on whether it can prove what listens there: from another user namespace the
    // kernel refuses it the daemon's /proc entry, so it evaluates here, says why, and decides the same.
    const viaDaemon = await runIn(wrap, ["emit", "PreToolUse", "--agent", "claude", "--hooks", world.hooks], world, JSON.stringify(payload));
    if (viaDaemon.stderr !== "")
      expect(viaDaemon.stderr, "the only fallback is a daemon emit cannot verify").toMatch(
        /^hookbox: evaluating here, not through the daemon: \S+hookbox\.sock: cannot verify what answers there: [^\n]+\n$/,
      );
    expect(viaDaemon.code).toBe(0);
    expect(JSON.parse(viaDaemon.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    const lines = readFileSync(world.auditFile, "utf8").split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) JSON.parse(line);
  });

  it("emit inside it, with no daemon, evaluates in-process", async (ctx) => {
    const wrap = skipUnlessNamespaces(ctx);
    const world = new DaemonWorld();
    worlds.push(world);
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    const out = await runIn(
      wrap,
      ["emit", "PreToolUse", "--agent", "claude", "--no-daemon", "--hooks", world.hooks],
      world,
      readFileSync(FIXTURE, "utf8"),
    );
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "air-gapped deny: echo hello > out.txt" },
    });
  });
});
