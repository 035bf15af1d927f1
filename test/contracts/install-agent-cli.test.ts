import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerInstallAgent } from "../../src/cli/install-agent.ts";
import type { CliContext } from "../../src/cli/context.ts";

/** A CliContext over an in-memory file system that records what it writes (with modes). */
function harness(files: Record<string, string>, _writable = true) {
  const out: string[] = [];
  const written: Record<string, string> = {};
  const dirs: string[] = [];
  const modes: Record<string, number> = {};
  const fs = {
    readText: async (path: string) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT ${path}`);
      return text;
    },
    exists: async (path: string) => path in files,
    mode: async (path: string) => (path in files ? 0o640 : undefined),
    mkdirp: async (path: string) => void dirs.push(path),
    writeTextAtomic: async (path: string, text: string, mode: number) => {
      written[path] = text;
      modes[path] = mode;
      files[path] = text;
    },
  };
  const ctx = { host: { homeDir: () => "/home/dev", cwd: () => "/work/shop", fs }, out: async (text: string) => void out.push(text), err: () => undefined } as unknown as CliContext;
  let exit = -1;
  const run = async (...args: string[]) => {
    const program = new Command("hookbox").exitOverride();
    registerInstallAgent(program, ctx, (code) => (exit = code));
    await program.parseAsync(["install-agent", ...args], { from: "user" });
    return exit;
  };
  return { run, out, written, dirs, modes };
}

describe("hookbox install-agent (CLI)", () => {
  it("--dry-run prints the plan and the resulting file, and writes nothing", async () => {
    const { run, out, written } = harness({}, true);
    expect(await run("claude", "--dry-run", "--events", "PreToolUse")).toBe(0);
    expect(out.join("")).toContain("/work/shop/.claude/settings.json");
    expect(out.join("")).toContain("+ PreToolUse: `hookbox emit PreToolUse --agent claude`");
    expect(out.join("")).toContain("(dry run: nothing written)");
    expect(written).toEqual({});
  });

  it("writes the merged file after keeping a backup of the old one, and the second run writes nothing", async () => {
    const files = { "/home/dev/.gemini/settings.json": '{"theme": "GitHub"}\n' };
    const { run, written } = harness(files, true);
    expect(await run("gemini", "--user", "--events", "BeforeTool")).toBe(0);
    const backup = Object.keys(written).find((path) => path.includes(".hookbox-backup-"));
    expect(backup && written[backup]).toBe('{"theme": "GitHub"}\n');
    expect(JSON.parse(written["/home/dev/.gemini/settings.json"] as string)).toMatchObject({ theme: "GitHub", hooks: { BeforeTool: [{}] } });
    const again = harness(files, true);
    expect(await again.run("gemini", "--user", "--events", "BeforeTool")).toBe(0);
    expect(again.written).toEqual({});
    expect(again.out.join("")).toContain("nothing to change");
  });

  it("creates the config's directory when the file is new", async () => {
    const { run, dirs } = harness({}, true);
    await run("codex");
    expect(dirs).toEqual(["/work/shop/.codex"]);
  });

  it("keeps the config's own mode and writes the backup 0600", async () => {
    const { run, written, modes } = harness({ "/work/shop/.claude/settings.json": "{}\n" });
    expect(await run("claude")).toBe(0);
    const backup = Object.keys(written).find((path) => path.includes(".hookbox-backup-")) as string;
    expect(modes[backup]).toBe(0o600);
    expect(modes["/work/shop/.claude/settings.json"]).toBe(0o640);
  });

  it("refuses a malformed config before writing anything", async () => {
    const { run, written } = harness({ "/work/shop/.claude/settings.json": "{ oops" }, true);
    await expect(run("claude")).rejects.toThrow(/not valid JSON/);
    expect(written).toEqual({});
  });

  it.each([
    [["copilot"], /unknown agent/],
    [["claude", "--user", "--project"], /exclude each other/],
    [["claude", "--token-env", "T"], /go with --http/],
    [["gemini", "--http", "http://127.0.0.1:1"], /Claude Code only/],
  ])("refuses %j", async (args, pattern) => {
    await expect(harness({}, true).run(...args)).rejects.toThrow(pattern);
  });
});
