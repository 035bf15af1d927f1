import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { DaemonWorld } from "../helpers/daemon.ts";

/**
 * Shadow mode through the built binary, as Claude Code's hook entry runs it (`emit --no-daemon`):
 * a monitored guard lets the call through and records what it would have done; `runs
 * --would-block` lists it; `promote` shows it, asks (refusing without a terminal), and turns the
 * guard on; `add --monitor` installs a package that way. The real Claude Code: test/e2e/agents/shadow-claude.test.ts.
 */
describe("shadow mode (mode: monitor), promote and add --monitor", () => {
  let world: DaemonWorld;
  let project: string;
  const config = (): string => join(world.home, ".config/hookbox/hookbox.yaml");

  beforeAll(() => {
    world = new DaemonWorld();
    project = join(world.dir, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
  });
  afterAll(() => world.cleanup());

  const writeEnv = async (file = ".env") => {
    const run = await runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude", "--no-daemon"], {
      cwd: project,
      env: world.env(),
      stdin: JSON.stringify({
        session_id: "shadow",
        transcript_path: "",
        cwd: project,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(project, file), content: "A=1" },
      }),
    });
    const out = JSON.parse(run.stdout || "{}") as { hookSpecificOutput?: { permissionDecision?: string } };
    return out.hookSpecificOutput?.permissionDecision ?? "allow";
  };
  const cli = (args: readonly string[]) => runProgram([BUILT_BINARY, ...args], { cwd: project, env: world.env() });

  it("a monitored guard allows, records its would-be deny; promote shows it, asks, and turns it on", async () => {
    mkdirSync(join(world.home, ".config/hookbox"), { recursive: true });
    writeFileSync(config(), "builtin: [guard-secrets]\ndaemon: { auto_start: false }\nhooks:\n  guard-secrets: { mode: monitor }\n");
    expect(await writeEnv()).toBe("allow");
    expect((await cli(["list"])).stdout).toMatch(/guard-secrets .*MONITOR: decides nothing \(hookbox promote guard-secrets\)/);
    const runs = await cli(["runs", "--would-block", "--json"]);
    const [record] = runs.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(record).toMatchObject({ hook_id: "guard-secrets", status: "completed", mode: "monitor", would: { decision: "deny" } });
    expect((await cli(["runs", "--status", "denied", "--json"])).stdout).toBe("");

    // No terminal to ask and no --yes: nothing changes.
    const refused = await cli(["promote", "guard-secrets"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/guard-secrets would have blocked 1 call so far[\s\S]*consent_required.*run again with --yes/);
    expect(readFileSync(config(), "utf8")).toContain("mode: monitor");
    const dry = await cli(["promote", "guard-secrets", "--dry-run", "--json"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      hook_id: "guard-secrets",
      promoted: false,
      would_block: [{ tool_name: "Write", subject: join(project, ".env"), would: "deny" }],
    });

    const promoted = await cli(["promote", "guard-secrets", "--yes", "--json"]);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(JSON.parse(promoted.stdout)).toMatchObject({ promoted: true, backup: expect.stringContaining("hookbox.yaml.hookbox-backup-") });
    expect(readFileSync(config(), "utf8")).not.toContain("mode");
    expect(await writeEnv()).toBe("deny");
  });

  it("add --monitor installs a package in shadow mode: it blocks nothing until promoted", async () => {
    writeFileSync(config(), "# mine\ndaemon: { auto_start: false }\n");
    const pkg = join(world.dir, "deny-env");
    cpSync(resolve(import.meta.dirname, "../../examples/packages/deny-env"), pkg, { recursive: true });
    const added = await cli(["add", pkg, "--monitor", "--yes", "--allow", "read ${workspace}/**"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /in shadow mode \(hooks\.deny-env\.mode: monitor in .*hookbox\.yaml\): it blocks nothing until hookbox promote deny-env/,
    );
    expect(readFileSync(config(), "utf8")).toMatch(/^# mine\n[\s\S]*deny-env:\n\s+mode: monitor/);
    expect(await writeEnv(".env.production")).toBe("allow");
    const runs = await cli(["runs", "--would-block", "--hook", "deny-env"]);
    expect(runs.stdout).toMatch(/would-deny\s+deny-env/);
    expect((await cli(["promote", "deny-env", "--yes"])).code).toBe(0);
    expect(await writeEnv(".env.production")).toBe("deny");
  });
});
