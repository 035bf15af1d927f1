import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { executableOf, HookboxBinaries, linkChain, withHookboxBinaries } from "../../src/decide/hookbox-binaries.ts";
import { nodeFileHost } from "../../src/platform/node.ts";

// A home where ~/.local/bin/hookbox is a link to ~/opt/hookbox/hookbox, ~/.local/bin itself a
// link, and install records naming the agents' settings files that run it.
let root: string;
let home: string;
let data: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-binaries-")));
  home = join(root, "home");
  data = join(home, ".local/share/hookbox");
  mkdirSync(join(home, "opt/hookbox"), { recursive: true });
  mkdirSync(join(home, "real-bin"), { recursive: true });
  mkdirSync(join(home, ".local"), { recursive: true });
  mkdirSync(join(data, "installs"), { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(home, "work/.gemini"), { recursive: true });
  writeFileSync(join(home, "opt/hookbox/hookbox"), "binary");
  symlinkSync(join(home, "opt/hookbox/hookbox"), join(home, "real-bin/hookbox"));
  symlinkSync("../real-bin", join(home, ".local/bin"));
  mkdirSync(join(home, "other"), { recursive: true });
  writeFileSync(join(home, "other/hookbox"), "binary");
  const command = (path: string, event: string, agent: string) => `${path.includes(" ") ? `"${path}"` : path} emit ${event} --agent ${agent}`;
  writeFileSync(
    join(home, ".claude/settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: command(join(home, ".local/bin/hookbox"), "PreToolUse", "claude") }] }],
        Stop: [{ hooks: [{ type: "command", command: "echo not ours" }] }],
      },
    }),
  );
  writeFileSync(
    join(home, "work/.gemini/settings.json"),
    JSON.stringify({
      hooks: { BeforeTool: [{ matcher: "*", hooks: [{ type: "command", command: command(join(home, "other/hookbox"), "BeforeTool", "gemini") }] }] },
    }),
  );
  writeFileSync(
    join(data, "installs/a.json"),
    JSON.stringify({
      v: 1,
      file: join(home, ".claude/settings.json"),
      agent: "claude",
      scope: "user",
      before: null,
      after_sha256: "x",
      created_dirs: [],
      installed_at: "t",
    }),
  );
  writeFileSync(
    join(data, "installs/b.json"),
    JSON.stringify({
      v: 1,
      file: join(home, "work/.gemini/settings.json"),
      agent: "gemini",
      scope: "project",
      before: null,
      after_sha256: "x",
      created_dirs: [],
      installed_at: "t",
    }),
  );
  writeFileSync(join(data, "installs/broken.json"), "{ not json");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const event = (extra: Record<string, unknown> = {}): NativeEvent => ({
  event_type: "PreToolUse",
  session_id: "s",
  timestamp: "t",
  cwd: home,
  tool_name: "Bash",
  tool_input: { command: "true" },
  ...extra,
});

describe("hookbox_binaries: every path that leads to the Hookbox the agents' entries run", () => {
  it("linkChain: the path, each link on the way (a linked directory, the link itself) and where it leads", async () => {
    expect(await linkChain(nodeFileHost, join(home, ".local/bin/hookbox"))).toEqual([
      join(home, ".local/bin/hookbox"),
      join(home, ".local/bin"),
      join(home, "real-bin/hookbox"),
      join(home, "opt/hookbox/hookbox"),
    ]);
    expect(await linkChain(nodeFileHost, join(home, "opt/hookbox/hookbox"))).toEqual([join(home, "opt/hookbox/hookbox")]);
    // A path that does not exist yet is itself.
    expect(await linkChain(nodeFileHost, join(home, "nowhere/hookbox"))).toEqual([join(home, "nowhere/hookbox")]);
  });

  it("the installed entries' command paths (from the install records and the settings they name), the invoked path and the process's own", async () => {
    const binaries = new HookboxBinaries(nodeFileHost, data, ["/usr/local/bin/hookbox-daemon"]);
    const paths = await binaries.paths(join(home, "invoked/hookbox"));
    expect(paths).toEqual(
      expect.arrayContaining([
        "/usr/local/bin/hookbox-daemon",
        join(home, "invoked/hookbox"),
        join(home, ".local/bin/hookbox"),
        join(home, ".local/bin"),
        join(home, "opt/hookbox/hookbox"),
        join(home, "other/hookbox"),
      ]),
    );
    // The record that cannot be parsed, and the entry that does not run hookbox, add nothing.
    expect(paths.some((p) => p.includes("echo"))).toBe(false);
  });

  it("a settings file changed since is read again (its stamp), an install record removed is forgotten", async () => {
    const binaries = new HookboxBinaries(nodeFileHost, data, []);
    expect(await binaries.paths()).toContain(join(home, "other/hookbox"));
    rmSync(join(data, "installs/b.json"));
    try {
      expect(await binaries.paths()).not.toContain(join(home, "other/hookbox"));
    } finally {
      writeFileSync(
        join(data, "installs/b.json"),
        JSON.stringify({
          v: 1,
          file: join(home, "work/.gemini/settings.json"),
          agent: "gemini",
          scope: "project",
          before: null,
          after_sha256: "x",
          created_dirs: [],
          installed_at: "t",
        }),
      );
    }
  });

  it("on PreToolUse only, and what the agent sent is dropped", async () => {
    const binaries = new HookboxBinaries(nodeFileHost, data, []);
    const sent = { hookbox_binaries: ["/tmp/not-it"] };
    const pre = await withHookboxBinaries(event(sent), binaries, undefined);
    expect(pre.hookbox_binaries).toEqual(expect.arrayContaining([join(home, ".local/bin/hookbox")]));
    expect(pre.hookbox_binaries).not.toContain("/tmp/not-it");
    const post = await withHookboxBinaries({ ...event(sent), event_type: "PostToolUse" }, binaries, undefined);
    expect(post).not.toHaveProperty("hookbox_binaries");
    expect(await withHookboxBinaries(event(sent), undefined, undefined)).not.toHaveProperty("hookbox_binaries");
  });

  it("executableOf: the first word of an entry's command, quoted or bare; only absolute paths", () => {
    expect(executableOf("/home/dev/.local/bin/hookbox emit PreToolUse --agent claude")).toBe("/home/dev/.local/bin/hookbox");
    expect(executableOf('"/home/dev/My Tools/hookbox" emit Stop --agent claude')).toBe("/home/dev/My Tools/hookbox");
    expect(executableOf("hookbox emit Stop")).toBeUndefined();
  });
});
