import { execFileSync, spawn } from "node:child_process";
import { chmodSync, closeSync, ftruncateSync, mkdirSync, openSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/daemon.ts";
import { runCase } from "./case.ts";
import { CAPABILITY_CASES, HELPER_HOOKS, NET, UNLOADABLE } from "./cases/capabilities.ts";
import { FILE_CANARY, Fortress, type HookDef } from "./harness.ts";

/**
 * Capability bypasses through the real daemon: the hooks' grants are what their YAML says (and
 * what the operator approved, for the net hooks), the event's cwd is a workspace full of traps,
 * and a canary HTTP server counts every request that reaches it (there must be none).
 */

let canaryHits = 0;
const servers: (Server | NetServer)[] = [];

function listen(server: Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

async function startServers(): Promise<void> {
  NET.canary = await listen(
    createHttpServer((_req, res) => {
      canaryHits++;
      res.end(FILE_CANARY);
    }),
  );
  NET.granted = await listen(
    createHttpServer((req, res) => {
      const redirect = (location: string): void => {
        res.writeHead(302, { location });
        res.end();
      };
      switch (req.url) {
        case "/ok":
          return void res.end("fine");
        case "/to-canary":
          return redirect(`http://127.0.0.1:${NET.canary}/`);
        case "/to-localhost":
          return redirect(`http://localhost:${NET.granted}/ok`);
        case "/to-file":
          return redirect("file:///etc/passwd");
        case "/loop":
          return redirect("/loop");
        case "/big":
          return void res.end("b".repeat(2 * 1024 * 1024));
        default:
          res.writeHead(404);
          res.end();
      }
    }),
  );
  // Accepts connections and never answers.
  NET.slow = await listen(createHttpServer(() => undefined));
}

/** The traps in the workspace: what an untrusted project directory may hold. */
async function prepareWorkspace(fortress: Fortress): Promise<void> {
  const ws = fortress.workspace;
  mkdirSync(join(ws, "sub"));
  writeFileSync(join(ws, "sub", "inner.txt"), "inner\n");
  symlinkSync(fortress.canaryFile, join(ws, "link-out.txt"));
  symlinkSync(fortress.outside, join(ws, "linkdir"));
  symlinkSync("/proc", join(ws, "procdir"));
  symlinkSync("/dev/zero", join(ws, "zero"));
  symlinkSync(join(fortress.world.home, ".ssh"), join(ws, "ssh"));
  execFileSync("mkfifo", [join(ws, "fifo")]);
  const sparse = openSync(join(ws, "sparse"), "w");
  ftruncateSync(sparse, 20 * 2 ** 30);
  closeSync(sparse);
  mkdirSync(`${ws}-evil`);
  fortress.addCanary(join(`${ws}-evil`, "secret.txt"));
  mkdirSync(join(ws, "bin"));
  writeFileSync(join(ws, "bin", "ls"), `#!/bin/sh\ncat ${fortress.canaryFile}\n`);
  chmodSync(join(ws, "bin", "ls"), 0o755);
  writeFileSync(join(fortress.outside, "..", "evil.ts"), "export default () => ({ action: 'deny', reason: 'LOADED' })\n");
  writeFileSync(join(ws, "plain.txt"), "plain\n");
  mkdirSync(join(ws, "realdir"));
  writeFileSync(join(ws, "realdir", "canary.txt"), "inner\n");
  const git = (...args: string[]): void =>
    void execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, stdio: "ignore" });
  git("init", "-q", ".");
  git("add", "a.txt");
  git("commit", "-qm", "init");
  const socket = createNetServer();
  servers.push(socket);
  await new Promise<void>((resolve) => socket.listen(join(ws, "sock"), resolve));
}

/** Read `e.path` 150 times while something swaps it; count what came back. */
const RACERS: HookDef[] = ["race-file", "race-dir"].map((id) => ({
  id,
  permissions: { read: ["${workspace}/**"] },
  limits: { host_calls: 200, timeout_ms: 20_000 },
  source:
    'export default async (e: any, hook: any) => { const seen: Record<string, number> = {}; for (let i = 0; i < 150; i++) { let key: string; try { key = "ok:" + (await hook.readFile(e.path)).trim(); } catch (err: any) { key = "error:" + err.code; } seen[key] = (seen[key] ?? 0) + 1; } return { reason: JSON.stringify(seen) }; }',
}));

/** A shell loop that swaps `target` between two symlinks (rename over it: atomic), until killed. */
function swapper(cwd: string, target: string, a: string, b: string): () => void {
  const loop = `while :; do ln -sfT '${a}' .swap-a && mv -fT .swap-a '${target}'; ln -sfT '${b}' .swap-b && mv -fT .swap-b '${target}'; done`;
  const child = spawn("sh", ["-c", loop], { cwd, stdio: "ignore" });
  return () => child.kill("SIGKILL");
}

/** The operator's approvals: net hooks get 127.0.0.1 on the granted port only; run-grandchild its exact sh line. */
function operatorFile(): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const hostile of CAPABILITY_CASES) {
    if (hostile.category === "net" && hostile.id !== "net-ungranted") hooks[hostile.id] = { permissions: { net: [`127.0.0.1:${NET.granted}`] } };
  }
  hooks["net-slow"] = { permissions: { net: [`127.0.0.1:${NET.slow}`] } };
  hooks["run-grandchild"] = { permissions: { run: [{ cmd: "sh", args: ["-c", "sleep 31.339 & echo started"] }] } };
  return { hooks };
}

describe("capability bypasses (the binary's daemon, a workspace full of traps)", () => {
  let fortress: Fortress;
  beforeAll(async () => {
    await startServers();
    const unloadable: HookDef[] = UNLOADABLE.map((u) => ({ id: u.id, source: "", yaml: u.yaml }));
    fortress = await Fortress.start([...CAPABILITY_CASES, ...HELPER_HOOKS, ...RACERS, ...unloadable], {
      operator: operatorFile(),
      prepare: prepareWorkspace,
    });
  });
  afterAll(async () => {
    await fortress?.stop();
    for (const server of servers) server.close();
  });

  it("loaded every capability hook; only the unloadable ones are problems", async () => {
    expect(new Set(CAPABILITY_CASES.map((c) => c.id)).size).toBe(CAPABILITY_CASES.length);
    const listed = (await call(fortress.socket, "GET", "/v1/hooks")).json as { problems: string[] };
    const expected = new Set(UNLOADABLE.map((u) => u.id));
    // run-cmd-missing loads with a warning: its grant names a command this machine does not have.
    const warned = listed.problems.filter((p) => p.includes("/run-cmd-missing.yaml"));
    expect(warned).toEqual([expect.stringMatching(/: warning: permissions: .*"definitely-not-a-command-xyz" was not found on PATH .*inert/)]);
    expect(listed.problems.filter((p) => !p.includes("/run-cmd-missing.yaml") && ![...expected].some((id) => p.includes(`/${id}.yaml`)))).toEqual([]);
    await fortress.benign("loaded");
  });

  for (const hostile of CAPABILITY_CASES) {
    it(`[${hostile.category}] ${hostile.id}: ${hostile.title}`, async () => {
      await runCase(fortress, hostile);
    });
  }

  describe("hook files that must not load", () => {
    for (const bad of UNLOADABLE) {
      it(`${bad.id}: ${bad.title}`, async () => {
        const listed = (await call(fortress.socket, "GET", "/v1/hooks")).json as { problems: string[] };
        const problems = listed.problems.filter((p) => p.includes(`/${bad.id}.yaml`));
        expect(problems.length, `problems: ${listed.problems.join("\n").slice(0, 2000)}`).toBeGreaterThan(0);
        expect(problems.join("\n")).toMatch(bad.problem);
        const fired = await fortress.post(`sec.${bad.id}`, { cwd: fortress.workspace });
        expect(fired.status).toBe(200);
        // It never runs: it stays a broken entry that fails by its on_error (continue here), loudly.
        expect(fired.decision).toMatchObject({ decision: "allow", runs: [{ hook_id: bad.id, status: "failed", error_code: "hook_broken" }] });
        expect(JSON.stringify(fired.decision.user_messages)).toContain("did not load");
      });
    }
  });

  describe("TOCTOU: the checked path is swapped for a symlink while the hook reads it", () => {
    for (const [id, title, path, inside] of [
      ["race-file", "the file itself (a regular file's link vs a link to the canary)", "race.txt", "plain.txt"],
      ["race-dir", "a directory in the middle of the path (a workspace directory vs the outside one)", "racedir/canary.txt", "realdir"],
    ] as const) {
      it(`${id}: ${title}`, async () => {
        const ws = fortress.workspace;
        const outsideTarget = id === "race-file" ? fortress.canaryFile : fortress.outside;
        const stop = swapper(ws, path.split("/")[0] as string, `${ws}/${inside}`, outsideTarget);
        const mark = fortress.mark();
        let fired;
        try {
          fired = await fortress.post(`sec.${id}`, { cwd: ws, path });
        } finally {
          stop();
        }
        const seen = JSON.parse(fired.run(id).reason ?? "{}") as Record<string, number>;
        const expectedText = id === "race-file" ? "ok:plain" : "ok:inner";
        for (const key of Object.keys(seen)) expect([expectedText, "error:capability_denied", "error:not_found"]).toContain(key);
        // The race really ran: both sides of the swap were seen.
        expect(seen[expectedText] ?? 0, JSON.stringify(seen)).toBeGreaterThan(0);
        expect(seen["error:capability_denied"] ?? 0, JSON.stringify(seen)).toBeGreaterThan(0);
        fortress.expectNoLeak(mark, [fired.text]);
        fortress.expectCanariesIntact();
      });
    }
  });

  it("no request ever reached the canary server", () => {
    expect(canaryHits).toBe(0);
    fortress.expectCanariesIntact();
  });
});
