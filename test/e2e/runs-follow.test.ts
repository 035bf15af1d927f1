import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

const RECORDER = `id: recorder
events: [PreToolUse]
handler: { code: "export default (e) => ({ reason: 'saw ' + e.tool_input.command })" }
`;

describe("hookbox runs --follow (the binary, beside a running daemon)", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  beforeAll(async () => {
    world = new DaemonWorld();
    writeFileSync(join(world.hooks, "recorder.yaml"), RECORDER);
    daemon = await DaemonProcess.start([BUILT_BINARY], world);
  });
  afterAll(async () => {
    await daemon?.stop();
    world?.cleanup();
  });

  const post = (command: string) =>
    call(world.socket, "POST", "/v1/events/PreToolUse", { session_id: "follow", cwd: world.dir, tool_name: "Bash", tool_input: { command } });

  it("prints the past runs, then each record the daemon appends within a second, as JSON lines; Ctrl-C ends it cleanly", async () => {
    await post("first");
    const follower = spawn(BUILT_BINARY, ["runs", "--follow", "--json", "--hook", "recorder"], {
      cwd: world.dir,
      env: world.env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: { reason: string; at: number }[] = [];
    let buffered = "";
    follower.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        lines.push({ reason: (JSON.parse(buffered.slice(0, end)) as { reason: string }).reason, at: Date.now() });
        buffered = buffered.slice(end + 1);
      }
    });
    const seen = async (reason: string): Promise<number> => {
      for (let i = 0; i < 300; i++) {
        const line = lines.find((l) => l.reason === reason);
        if (line) return line.at;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`never printed "${reason}"; printed: ${JSON.stringify(lines)}`);
    };
    await seen("saw first");
    const delays: number[] = [];
    for (const command of ["second", "third", "fourth"]) {
      await post(command);
      // The answer has left, so its records are in the file: from here the follower has a second.
      const answered = Date.now();
      delays.push((await seen(`saw ${command}`)) - answered);
    }
    expect(Math.max(...delays)).toBeLessThan(1000);
    expect(lines.map((l) => l.reason)).toEqual(["saw first", "saw second", "saw third", "saw fourth"]);
    follower.kill("SIGINT");
    const code = await new Promise((r) => follower.on("exit", r));
    expect(code).toBe(0);
    console.log(`runs --follow: appended records printed after ${delays.join(", ")} ms`);
  });
});
