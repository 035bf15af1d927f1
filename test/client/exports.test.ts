// package.json "exports" as a program that depends on Hookbox uses them: `hookbox/client` and
// `hookbox/agent-sdk` imported by name from a scratch project (node_modules/hookbox → this
// package, built by build.ts into dist/lib) under Node, Bun and Deno, each asking dist/hookbox
// serve; and a TypeScript consumer (NodeNext) type-checked against the published declarations.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { ENV_GUARD_YAML } from "../helpers/hook-yaml.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "node_modules", ".bin");

/** Asks through both exports; prints what came back. The socket comes from argv (Deno: Deno.args). */
const PROBE = `import { createClient, HookboxClientError } from "hookbox/client";
import { hookboxHooks } from "hookbox/agent-sdk";
const socket = globalThis.Deno ? Deno.args[0] : process.argv[2];
const write = { session_id: "x", cwd: "/proj", tool_name: "Write", tool_input: { file_path: "/proj/.env", content: "x" } };
const client = await createClient({ socket });
const decision = await client.evaluate({ event_type: "PreToolUse", ...write });
const hooks = hookboxHooks({ socket });
const answer = await hooks.PreToolUse[0].hooks[0]({ hook_event_name: "PreToolUse", ...write }, "t1", { signal: new AbortController().signal });
let code;
try { await client.fire("no-such-hook"); } catch (error) { code = error instanceof HookboxClientError ? error.code : String(error); }
console.log(JSON.stringify({ decision: decision.decision, reason: decision.reason, sdk: answer.hookSpecificOutput, code }));
`;

const CONSUMER_TS = `import { createClient, HookboxClientError, type DecisionV1 } from "hookbox/client";
import { hookboxHooks, type SdkHooks } from "hookbox/agent-sdk";
const client = await createClient({ socket: "/tmp/x.sock", timeoutMs: 1000 });
const decision: DecisionV1 = await client.evaluate({ event_type: "PreToolUse", tool_name: "Bash" });
const verdict: "allow" | "deny" | "ask" = decision.decision;
try { await client.approve("id"); } catch (error) { if (error instanceof HookboxClientError && error.code === "not_found") console.log(error.status); }
const hooks: SdkHooks = hookboxHooks({ events: ["PreToolUse"], whenUnavailable: "deny" });
console.log(verdict, hooks);
`;

describe("package exports hookbox/client and hookbox/agent-sdk", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  let project: string;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, "dist", "lib", "client", "index.js")))
      throw new Error("dist/lib is missing: build with `node scripts/bun.mjs build.ts`");
    world = new DaemonWorld().withoutAutoStart();
    writeFileSync(join(world.hooks, "guard.yaml"), ENV_GUARD_YAML);
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
    project = mkdtempSync(join(tmpdir(), "hookbox-consumer-"));
    mkdirSync(join(project, "node_modules"));
    symlinkSync(ROOT, join(project, "node_modules", "hookbox"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { hookbox: "*" } }));
    writeFileSync(join(project, "probe.mjs"), PROBE);
  });
  afterAll(async () => {
    await daemon?.stop();
    world?.cleanup();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const runtimes: readonly [string, readonly string[]][] = [
    ["node", [process.execPath, "probe.mjs"]],
    ["bun", [join(BIN, "bun"), "probe.mjs"]],
    ["deno", [join(BIN, "deno"), "run", "--allow-read", "--allow-write", "--allow-net", "--allow-env", "--allow-sys", "probe.mjs"]],
  ];

  it.each(runtimes)("%s imports both by name and asks the daemon", async (_name, command) => {
    const run = await runProgram([...command, world.socket], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: world.home, DENO_NO_UPDATE_CHECK: "1" },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      decision: "deny",
      reason: "writing /proj/.env is not allowed",
      sdk: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "writing /proj/.env is not allowed" },
      code: "not_found",
    });
  });

  it("a TypeScript consumer (NodeNext) type-checks against the declarations, and a wrong use does not", async () => {
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["consumer.ts"],
      }),
    );
    writeFileSync(join(project, "consumer.ts"), CONSUMER_TS);
    const ok = await runProgram([join(BIN, "tsc"), "-p", "."], { cwd: project, timeoutMs: 120_000 });
    expect(ok.code, ok.stdout).toBe(0);
    writeFileSync(
      join(project, "consumer.ts"),
      `${CONSUMER_TS}const wrong: number = decision.decision;\nhookboxHooks({ events: ["NoSuchEvent"] });\n`,
    );
    const bad = await runProgram([join(BIN, "tsc"), "-p", "."], { cwd: project, timeoutMs: 120_000 });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/consumer\.ts\(9,7\): error TS2322/);
    expect(bad.stdout).toMatch(/consumer\.ts\(10,25\): error TS2322/);
  });
});
