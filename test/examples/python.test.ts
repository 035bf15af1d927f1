// examples/python/hookbox_tool.py (standard library only: http.client over the unix socket) run
// as a user would, from a project directory, against dist/hookbox serve: a .env write refused
// with the guard's reason and not done, an allowed write done with PostToolUse context back, a
// command run, and no daemon at all refusing the tool. Skipped, saying so, without python3.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { ENV_GUARD_YAML } from "../helpers/hook-yaml.ts";

const EXAMPLE = resolve(import.meta.dirname, "../../examples/python/hookbox_tool.py");

const AFTER = `id: after
events: [PostToolUse]
permissions: { inject_context: true }
handler: { code: "export default (e) => ({ action: 'inject_context', context_injection: 'checked ' + e.tool_name })" }
`;

function python(): string | undefined {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
    return "python3";
  } catch {
    return undefined;
  }
}

const NO_PYTHON = "python3 is not installed (.ci/install-tools installs it)";

describe("examples/python/hookbox_tool.py against dist/hookbox serve", () => {
  const py = python();
  let world: DaemonWorld;
  let daemon: DaemonProcess | undefined;
  let project: string;

  beforeAll(async () => {
    if (!py) return;
    world = new DaemonWorld().withoutAutoStart();
    writeFileSync(join(world.hooks, "guard.yaml"), ENV_GUARD_YAML);
    writeFileSync(join(world.hooks, "after.yaml"), AFTER);
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
    project = join(world.dir, "project");
    mkdirSync(project);
  });
  afterAll(async () => {
    await daemon?.stop();
    world?.cleanup();
  });

  const ask = async (ctx: TestContext, ...args: string[]) => {
    if (!py) ctx.skip(NO_PYTHON);
    // The daemon's socket found as emit finds it: from XDG_RUNTIME_DIR.
    const run = await runProgram([py as string, EXAMPLE, ...args], { cwd: project, env: world.env() });
    return { code: run.code, out: JSON.parse(run.stdout || "null") as Record<string, unknown>, stderr: run.stderr };
  };

  it("a .env write is refused with the guard's reason and not done (exit 3)", async (ctx) => {
    const { code, out, stderr } = await ask(ctx, "write", ".env", "API_KEY=1");
    expect(code, stderr).toBe(3);
    expect(out).toMatchObject({ decision: "deny", ran: false, reason: `writing ${join(project, ".env")} is not allowed` });
    expect(existsSync(join(project, ".env"))).toBe(false);
  });

  it("an allowed write is done, and PostToolUse's context comes back", async (ctx) => {
    const { code, out, stderr } = await ask(ctx, "write", "notes.md", "hello");
    expect(code, stderr).toBe(0);
    expect(out).toMatchObject({ decision: "allow", ran: true, context: ["checked Write"] });
    expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("hello");
  });

  it("an allowed command runs", async (ctx) => {
    const { code, out } = await ask(ctx, "bash", "echo from-python > ran.txt && echo done");
    expect(code).toBe(0);
    expect(out).toMatchObject({ ran: true, result: "done\n", context: ["checked Bash"] });
    expect(readFileSync(join(project, "ran.txt"), "utf8")).toBe("from-python\n");
  });

  it("with no daemon on the socket the tool is not run (exit 4, daemon_unavailable)", async (ctx) => {
    if (!py) return ctx.skip(NO_PYTHON);
    const { code, out } = await ask(ctx, "--socket", join(world.dir, "none.sock"), "write", "other.md", "x");
    expect(code).toBe(4);
    expect(out).toMatchObject({ ran: false, code: "daemon_unavailable" });
    expect(existsSync(join(project, "other.md"))).toBe(false);
  });
});
