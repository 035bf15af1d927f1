import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { DaemonWorld } from "../helpers/daemon.ts";

/**
 * The repository hooks template's last result rows (seeds/000 §4.2), through the built binary:
 * `follow_up_actions` are executed or queued, never ignored — a `run_command` runs under the
 * hook's own `run` grant (one the grant does not cover is refused, naming why), the other kinds
 * are queued for the caller in the decision — and every one is in the run record with what
 * became of it; the result's `logs` objects are in the run record with their levels.
 */

const HOOK = `id: build-check
events: [Stop]
permissions: { run: [{ cmd: echo, args: ["**"] }] }
handler:
  code: |
    export default () => ({
      logs: [{ level: "warn", message: "auth build failed" }, "checked 2 services"],
      messages_to_user: ["Auth build: failed with a TypeScript error in services/auth/src/login.ts:58."],
      follow_up_actions: [
        { kind: "open_file", payload: { path: "services/auth/src/login.ts" } },
        { kind: "run_command", payload: { cmd: "echo", args: ["rebuilt", "auth"] } },
        { kind: "run_command", payload: { command: "rm -rf services/auth/dist" } },
      ],
    });
`;

interface Entry {
  kind?: string;
  hook_id?: string;
  logs?: { level: string; message: string }[];
  follow_ups?: { kind: string; status: string; detail?: string; exit_code?: number; stdout?: string; payload?: unknown }[];
  host_calls?: { capability: string; target: string; outcome: string }[];
  hints?: { follow_up_actions?: unknown[] };
}

const world = new DaemonWorld();
afterAll(() => world.cleanup());

describe("follow_up_actions and logs (seeds/000 §4.2)", () => {
  it("a run_command runs under the hook's run grant or is refused, the rest is queued for the caller; all of it and the logs are in the run record", async () => {
    const config = join(world.home, ".config", "hookbox");
    mkdirSync(join(config, "hooks", "build-check"), { recursive: true });
    writeFileSync(join(config, "hookbox.yaml"), "daemon: { auto_start: false }\n");
    writeFileSync(join(config, "hooks", "build-check", "hook.yaml"), HOOK);
    const project = join(world.dir, "project");
    mkdirSync(join(project, ".git"), { recursive: true });

    const out = await runProgram([BUILT_BINARY, "emit", "Stop", "--agent", "native"], {
      cwd: project,
      env: world.env(),
      stdin: JSON.stringify({ event_type: "Stop", session_id: "s1", cwd: project, timestamp: new Date().toISOString() }),
    });
    expect(out.code, out.stderr).toBe(0);
    const decision = JSON.parse(out.stdout) as { follow_up_actions?: unknown[] };
    // Queued for the caller: the open_file; the commands were Hookbox's to run.
    expect(decision.follow_up_actions).toEqual([{ hook_id: "build-check", kind: "open_file", payload: { path: "services/auth/src/login.ts" } }]);

    const entries = readFileSync(world.auditFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Entry);
    const run = entries.find((entry) => entry.hook_id === "build-check") as Entry;
    expect(run.logs).toContainEqual({ level: "warn", message: "auth build failed" });
    expect(run.logs).toContainEqual({ level: "info", message: "checked 2 services" });
    expect(run.follow_ups, JSON.stringify(run.follow_ups)).toMatchObject([
      { kind: "open_file", status: "queued" },
      { kind: "run_command", status: "executed", exit_code: 0, stdout: "rebuilt auth\n" },
      { kind: "run_command", status: "refused" },
    ]);
    expect(run.follow_ups?.[2]?.detail).toMatch(/hook\.run\("rm", .* is not granted/);
    expect(run.host_calls).toContainEqual(expect.objectContaining({ capability: "run", outcome: "allowed" }));
    expect(run.host_calls).toContainEqual(expect.objectContaining({ capability: "run", outcome: "denied" }));
    expect(entries.find((entry) => entry.kind === "decision")?.hints?.follow_up_actions).toHaveLength(1);
  });
});
