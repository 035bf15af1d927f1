import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookRuntime } from "../../src/cli/compose.ts";
import { resolveLocations } from "../../src/hooks/config/locations.ts";
import { createNodeHost, nodeFileHost } from "../../src/platform/node.ts";
import { Daemon } from "../../src/serve/daemon/daemon.ts";

/**
 * The daemon reads its operator file once at start: the audit settings, the evaluator, the hook
 * sets and the bundle-source poller all see the one source (issue 29). It used to be read three
 * times, the poller's copy without the standard hooks, so a file naming one (`builtin:`) was
 * "invalid" to the poller, and its bundle sources were never polled.
 */
describe("a daemon's start (in process, Node)", () => {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-operator-once-"));
  const home = join(dir, "home");
  const operatorFile = join(home, ".config/hookbox/hookbox.yaml");
  const reads: string[] = [];
  const lines: string[] = [];
  let daemon: Daemon | undefined;

  beforeAll(async () => {
    mkdirSync(join(home, ".config/hookbox/hooks"), { recursive: true });
    writeFileSync(
      operatorFile,
      [
        "builtin: [guard-secrets]",
        "audit: { keep_files: 3 }",
        "packages:",
        "  sources:",
        // Nothing listens there: the poller says it cannot be listed, which proves it polled.
        "    - { url: 'http://127.0.0.1:9/bundles/', keys: ['RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3'], poll_seconds: 3600 }",
        "",
      ].join("\n"),
    );
    const host = createNodeHost({
      env: { HOME: home, XDG_RUNTIME_DIR: join(dir, "run"), PATH: process.env.PATH ?? "/usr/bin:/bin" },
      homeDir: () => home,
      cwd: () => dir,
      fs: {
        ...nodeFileHost,
        readText: (path) => {
          reads.push(path);
          return nodeFileHost.readText(path);
        },
      },
    });
    const locations = resolveLocations(host, {});
    const runtime = hookRuntime(host);
    daemon = await Daemon.start({
      host,
      locations,
      version: "test",
      workers: { min: 0, max: 1, idleMs: 60_000 },
      bodyLimitBytes: 1024 * 1024,
      capabilities: runtime.capabilities(locations),
      embedded: runtime.embedded(),
      origin: "serve",
      idleExitSeconds: undefined,
      log: (line) => void lines.push(line),
    });
    // The poller's first look (it starts with the daemon).
    const statusFile = join(home, ".local/share/hookbox/packages/sources.json");
    for (let waited = 0; !existsSync(statusFile) && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(async () => {
    await daemon?.stop(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the operator file once, whoever asks for it", () => {
    expect(lines.join("\n")).not.toContain("operator file is invalid");
    expect(reads.filter((path) => path === operatorFile)).toHaveLength(1);
  });

  it("polls the bundle sources of a file that enables a standard hook", () => {
    const status = JSON.parse(readFileSync(join(home, ".local/share/hookbox/packages/sources.json"), "utf8")) as {
      sources: { source: string; error?: string }[];
    };
    expect(status.sources).toEqual([expect.objectContaining({ source: expect.stringContaining("127.0.0.1:9/bundles/"), error: expect.any(String) })]);
    expect(lines.join("\n")).toMatch(/bundle source .*127\.0\.0\.1:9\/bundles\/.*cannot be listed/);
  });
});
