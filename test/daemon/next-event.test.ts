import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookRuntime } from "../../src/cli/compose.ts";
import { resolveLocations } from "../../src/hooks/config/locations.ts";
import { createNodeHost } from "../../src/platform/node.ts";
import { Daemon } from "../../src/serve/daemon/daemon.ts";
import { call } from "../helpers/daemon.ts";

/**
 * The daemon checks its hook set's files with synchronous stamps before every event (issue 34):
 * no watch whose news could arrive after the next event. A change on disk — the handler rewritten
 * in place with the same length, the hook file changed, a new hook added, the operator file
 * written — is answered by the very next event, with no wait between the write and the request.
 */
describe("a change on disk is seen by the next event (in process, Node)", () => {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-next-event-"));
  const home = join(dir, "home");
  const hooks = join(home, ".config/hookbox/hooks");
  const operatorFile = join(home, ".config/hookbox/hookbox.yaml");
  const lines: string[] = [];
  let daemon: Daemon | undefined;
  let socket = "";

  const writeHook = (id: string, reason: string, match = "Write|Edit"): void => {
    mkdirSync(join(hooks, id), { recursive: true });
    writeFileSync(join(hooks, id, "hook.yaml"), `id: ${id}\nevents: [PreToolUse]\nmatch: { tool: "${match}" }\nhandler: ./handler.ts\n`);
    writeFileSync(join(hooks, id, "handler.ts"), `export default () => ({ action: "deny", reason: "${reason}" });\n`);
  };
  const ask = async (): Promise<{ decision: string; reason?: string }> => {
    const reply = await call(socket, "POST", "/v1/events/PreToolUse", {
      session_id: "s",
      cwd: dir,
      tool_name: "Write",
      tool_input: { file_path: join(dir, "a.ts"), content: "x" },
    });
    expect(reply.status, reply.text).toBe(200);
    return reply.json as { decision: string; reason?: string };
  };

  beforeAll(async () => {
    writeHook("first", "v1");
    writeFileSync(operatorFile, "hooks: { self-protect: { enabled: false } }\n");
    const host = createNodeHost({
      env: { HOME: home, XDG_RUNTIME_DIR: join(dir, "run"), PATH: process.env.PATH ?? "/usr/bin:/bin" },
      homeDir: () => home,
      cwd: () => dir,
    });
    const locations = resolveLocations(host, {});
    socket = locations.socketPath;
    const runtime = hookRuntime(host);
    daemon = await Daemon.start({
      host,
      locations,
      version: "test",
      workers: { min: 1, max: 1, idleMs: 60_000 },
      bodyLimitBytes: 1024 * 1024,
      capabilities: runtime.capabilities(locations),
      embedded: runtime.embedded(),
      origin: "serve",
      idleExitSeconds: undefined,
      log: (line) => void lines.push(line),
    });
  });

  afterAll(async () => {
    await daemon?.stop(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a handler rewritten in place answers the next event", async () => {
    expect(await ask()).toMatchObject({ decision: "deny", reason: "v1" });
    // v2 has v1's length (its stamp differs by time alone: v1 was written before the daemon
    // started); the rewrites that follow within milliseconds differ in size too, since a kernel
    // with coarse file times may give two of them one mtime.
    for (const reason of ["v2", "v33", "v444"]) {
      writeFileSync(join(hooks, "first", "handler.ts"), `export default () => ({ action: "deny", reason: "${reason}" });\n`);
      expect(await ask()).toMatchObject({ decision: "deny", reason });
    }
  });

  it("a hook file changed to match nothing, then back, answers the next event each time", async () => {
    writeHook("first", "v5", "NoSuchTool");
    expect((await ask()).decision).toBe("allow");
    writeHook("first", "v6");
    expect(await ask()).toMatchObject({ decision: "deny", reason: "v6" });
  });

  it("a hook added, and the operator file turning a hook off, are both seen by the next event", async () => {
    writeHook("first", "v7", "NoSuchTool");
    writeHook("second", "added");
    expect(await ask()).toMatchObject({ decision: "deny", reason: "added" });
    writeFileSync(operatorFile, "hooks: { self-protect: { enabled: false }, second: { enabled: false } }\n");
    expect((await ask()).decision).toBe("allow");
  });

  it("every answer was audited and chained", () => {
    const log = readFileSync(join(home, ".local/share/hookbox/audit/hookbox-audit.jsonl"), "utf8").trim().split("\n");
    const decisions = log.map((line) => JSON.parse(line) as { kind?: string; prev?: string }).filter((r) => r.kind === "decision");
    expect(decisions).toHaveLength(8);
    expect(decisions.every((r) => typeof r.prev === "string" && r.prev.startsWith("sha256:"))).toBe(true);
  });
});
