import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, ROOT } from "../helpers/daemon.ts";
import { Fortress, type HookDef } from "./harness.ts";

/**
 * The binary started inside a hostile project directory (research/sandbox.md §10 K1): a `.env` and a
 * `bunfig.toml` with a preload there must not be loaded by the compiled binary — by `serve`
 * (whose working directory it is) nor by `emit` (which agents start in the project).
 */

const PROBE: HookDef = {
  id: "env-probe",
  permissions: { env: ["HOOKBOX_DOTENV_PROBE"] },
  source: 'export default async (e: unknown, hook: any) => ({ reason: "probe " + JSON.stringify(await hook.env("HOOKBOX_DOTENV_PROBE")) })',
};

function plant(dir: string, marker: string): void {
  writeFileSync(join(dir, ".env"), "HOOKBOX_DOTENV_PROBE=from-dotenv\nNODE_OPTIONS=--require ./evil.cjs\n");
  writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./evil.ts"]\n[run]\npreload = ["./evil.ts"]\n');
  writeFileSync(join(dir, "evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "preload ran in " + process.argv.join(" "));\n`);
  writeFileSync(join(dir, "evil.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "NODE_OPTIONS ran");\n`);
}

describe("a hostile project directory around the binary", () => {
  let fortress: Fortress;
  /** One marker per planted directory: which of them ran is never in doubt. */
  let serveMarker: string;
  let emitMarker: string;
  beforeAll(async () => {
    fortress = await Fortress.start([PROBE], {
      workers: 1,
      prepare: (f) => {
        serveMarker = join(f.world.dir, "PWNED-serve");
        plant(f.world.dir, serveMarker);
        emitMarker = join(f.world.dir, "PWNED-emit");
        mkdirSync(join(f.workspace, "project"), { recursive: true });
        plant(join(f.workspace, "project"), emitMarker);
      },
    });
  });
  afterAll(async () => {
    await fortress?.stop();
  });

  it("control: plain bun started in such a directory does load both (so the traps are live)", () => {
    const dir = join(fortress.world.dir, "control");
    const marker = join(fortress.world.dir, "PWNED-control");
    mkdirSync(dir);
    plant(dir, marker);
    writeFileSync(join(dir, "probe.ts"), "console.log(process.env.HOOKBOX_DOTENV_PROBE)\n");
    const control = spawnSync(join(ROOT, "node_modules/.bin/bun"), ["probe.ts"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: fortress.world.home },
      encoding: "utf8",
    });
    expect(control.stdout.trim()).toBe("from-dotenv");
    expect(existsSync(marker)).toBe(true);
  });

  it("serve, started there, loaded neither its .env nor its bunfig.toml preload (nor in its workers)", async () => {
    const probe = await fortress.post("sec.env-probe", { cwd: fortress.workspace });
    expect(probe.run("env-probe")).toMatchObject({ status: "completed", reason: "probe undefined" });
    expect((await call(fortress.socket, "GET", "/healthz")).json).toMatchObject({ status: "ok" });
    expect(existsSync(serveMarker), "a preload or NODE_OPTIONS from the project ran").toBe(false);
  });

  it("emit, started by an agent in the project, loads neither", async () => {
    const project = join(fortress.workspace, "project");
    const payload = JSON.stringify({
      session_id: "s",
      hook_event_name: "PreToolUse",
      cwd: project,
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    for (const args of [
      ["emit", "PreToolUse", "--agent", "claude"],
      ["emit", "PreToolUse", "--agent", "claude", "--no-daemon", "--hooks", fortress.world.hooks],
    ]) {
      const out = await new Promise<{ code: number | null; stderr: string }>((done, reject) => {
        const child = spawn(BUILT_BINARY, args, { cwd: project, env: fortress.world.env(), stdio: ["pipe", "ignore", "pipe"] });
        let stderr = "";
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("error", reject);
        child.on("close", (code) => done({ code, stderr }));
        child.stdin.on("error", () => undefined); // a program that exits without reading its input
        child.stdin.end(payload);
      });
      expect(out.code, out.stderr).toBe(0);
    }
    expect(existsSync(emitMarker), "a preload or NODE_OPTIONS from the project ran").toBe(false);
    fortress.expectCanariesIntact();
  });
});
