import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliContext } from "../../src/cli/context.ts";
import { registerInstallAgent } from "../../src/cli/install-agent.ts";
import { registerUninstallAgent } from "../../src/cli/uninstall-agent.ts";
import { hookRuntime } from "../../src/cli/compose.ts";
import { createNodeHost } from "../../src/platform/node.ts";

/** A home with a hookbox binary in ~/.local/bin and a project, on the real file system; the CLI runs in-process. */
class World {
  readonly root = mkdtempSync(join(tmpdir(), "hookbox-install-cli-"));
  readonly home = join(this.root, "home");
  readonly project = join(this.root, "work", "shop");
  readonly binary = join(this.home, ".local", "bin", "hookbox");
  readonly dataDir = join(this.home, ".local", "share", "hookbox");
  out: string[] = [];
  err: string[] = [];

  /** binaryPath: the running binary (undefined: running from sources); env: added to HOME. */
  constructor(private readonly options: { readonly fromSources?: boolean; readonly env?: Record<string, string> } = {}) {
    mkdirSync(dirname(this.binary), { recursive: true });
    writeFileSync(this.binary, "", { mode: 0o755 });
    mkdirSync(this.project, { recursive: true });
  }

  async run(...args: string[]): Promise<number> {
    this.out = [];
    this.err = [];
    const binaryPath = this.options.fromSources ? undefined : this.binary;
    const host = createNodeHost({
      homeDir: () => this.home,
      cwd: () => this.project,
      env: { HOME: this.home, ...this.options.env },
      binaryPath: () => binaryPath,
    });
    const ctx: CliContext = { host, out: async (text) => void this.out.push(text), err: (text) => void this.err.push(text) };
    let exit = -1;
    const program = new Command("hookbox").exitOverride();
    registerInstallAgent(program, ctx, (code) => (exit = code), hookRuntime(host));
    registerUninstallAgent(program, ctx, (code) => (exit = code));
    await program.parseAsync(args, { from: "user" });
    return exit;
  }

  file(...parts: string[]): string {
    return join(this.project, ...parts);
  }

  json(): Record<string, unknown> {
    return JSON.parse(this.out.join("")) as Record<string, unknown>;
  }

  backups(dir: string): string[] {
    return existsSync(dir) ? readdirSync(dir).filter((name) => name.includes(".hookbox-backup-")) : [];
  }
}

describe("hookbox install-agent and uninstall-agent (CLI, in-process, real files)", () => {
  let world: World;
  beforeEach(() => {
    world = new World();
  });
  afterEach(() => rmSync(world.root, { recursive: true, force: true }));

  it("writes the absolute path of the running binary, never a bare hookbox", async () => {
    expect(await world.run("install-agent", "claude", "--events", "PreToolUse")).toBe(0);
    const settings = readFileSync(world.file(".claude", "settings.json"), "utf8");
    expect(settings).toContain(`"command": "${world.binary} emit PreToolUse --agent claude"`);
    expect(settings).not.toMatch(/"hookbox emit/);
  });

  it("--dry-run prints a unified diff of the file and writes nothing", async () => {
    mkdirSync(world.file(".gemini"));
    writeFileSync(world.file(".gemini", "settings.json"), '{\n  "theme": "GitHub"\n}\n');
    expect(await world.run("install-agent", "gemini", "--dry-run", "--events", "BeforeTool")).toBe(0);
    const out = world.out.join("");
    expect(out).toContain(`+ BeforeTool: \`${world.binary} emit BeforeTool --agent gemini\``);
    expect(out).toContain("(dry run: nothing written)");
    expect(out).toContain(
      `--- ${world.file(".gemini", "settings.json")}\n+++ ${world.file(".gemini", "settings.json")}\n@@ -1,3 +1,17 @@\n {\n-  "theme": "GitHub"\n+  "theme": "GitHub",\n+  "hooks": {`,
    );
    expect(out).not.toContain("===");
    expect(readFileSync(world.file(".gemini", "settings.json"), "utf8")).toBe('{\n  "theme": "GitHub"\n}\n');
    expect(world.backups(world.file(".gemini"))).toEqual([]);
  });

  it("--json prints one object with snake_case keys, with --dry-run too", async () => {
    expect(await world.run("install-agent", "codex", "--json", "--dry-run", "--events", "Stop")).toBe(0);
    const dry = world.json();
    expect(Object.keys(dry).sort()).toEqual([
      "agent",
      "backup",
      "changed",
      "command",
      "created",
      "diff",
      "dry_run",
      "file",
      "guards",
      "operator_file",
      "scope",
      "summary",
      "unguarded",
      "warnings",
    ]);
    expect(dry).toMatchObject({
      agent: "codex",
      scope: "project",
      file: world.file(".codex", "hooks.json"),
      changed: true,
      dry_run: true,
      created: true,
      command: world.binary,
      backup: null,
    });
    expect(String(dry.diff)).toMatch(/^--- \/dev\/null\n\+\+\+ .*hooks.json\n@@ -0,0 \+1,/);
    expect(await world.run("install-agent", "codex", "--json", "--events", "Stop")).toBe(0);
    expect(world.json()).toMatchObject({ changed: true, dry_run: false, created: true });
    expect(await world.run("install-agent", "codex", "--json", "--events", "Stop")).toBe(0);
    expect(world.json()).toMatchObject({ changed: false, diff: "", summary: ["= Stop: already installed"] });
  });

  describe("guards on by default", () => {
    const operatorFile = (): string => join(world.home, ".config", "hookbox", "hookbox.yaml");

    it("with no operator file, writes one enabling guard-secrets and bash-guard (0600), shows it and how to change it", async () => {
      expect(await world.run("install-agent", "claude")).toBe(0);
      const written = readFileSync(operatorFile(), "utf8");
      expect(written).toMatch(/^builtin:\n {2}- guard-secrets +# .*\n {2}- bash-guard +# /m);
      expect(statSync(operatorFile()).mode & 0o777).toBe(0o600);
      const out = world.out.join("");
      expect(out).toContain(`${operatorFile()} (Hookbox's operator file: there was none)`);
      expect(out).toContain("enables the standard guards guard-secrets, bash-guard; self-protect is always on");
      expect(out).toContain("  | builtin:");
      expect(out).toContain("hookbox install-agent claude --no-default-guards");
      expect(world.err.join("")).not.toContain("NO GUARD");
    });

    it("--dry-run shows the new file as a diff and writes nothing; --json carries it", async () => {
      expect(await world.run("install-agent", "claude", "--dry-run")).toBe(0);
      expect(existsSync(operatorFile())).toBe(false);
      expect(world.out.join("")).toContain(`--- /dev/null\n+++ ${operatorFile()}\n@@ -0,0 +1,`);
      expect(world.out.join("")).toContain("+  - guard-secrets");
      expect(await world.run("install-agent", "claude", "--dry-run", "--json")).toBe(0);
      const dry = world.json() as { operator_file: Record<string, unknown>; guards: string[]; unguarded: boolean };
      expect(dry.operator_file).toMatchObject({ path: operatorFile(), created: true, guards: ["guard-secrets", "bash-guard"] });
      expect(String(dry.operator_file.text)).toContain("- bash-guard");
      expect(String(dry.operator_file.diff)).toMatch(/^--- \/dev\/null\n/);
      expect(dry.guards).toEqual(["bash-guard", "guard-secrets"]);
      expect(dry.unguarded).toBe(false);
      expect(existsSync(operatorFile())).toBe(false);
    });

    it("never rewrites an existing operator file, and names the guards it enables", async () => {
      mkdirSync(dirname(operatorFile()), { recursive: true });
      writeFileSync(operatorFile(), "# mine\nbuiltin: [guard-secrets]\n", { mode: 0o640 });
      expect(await world.run("install-agent", "claude")).toBe(0);
      expect(readFileSync(operatorFile(), "utf8")).toBe("# mine\nbuiltin: [guard-secrets]\n");
      expect(world.out.join("")).toContain(`guards: guard-secrets (and self-protect), from ${operatorFile()}`);
      expect(world.err.join("")).not.toContain("NO GUARD");
    });

    it("--no-default-guards writes none, and says loudly that the agent is protected by nothing but self-protect", async () => {
      expect(await world.run("install-agent", "claude", "--no-default-guards")).toBe(0);
      expect(existsSync(operatorFile())).toBe(false);
      const err = world.err.join("");
      expect(err).toContain(`warning: NO GUARD: claude (${world.file(".claude", "settings.json")}) is protected by nothing but self-protect`);
      expect(err).toContain(`Enable the standard guards in ${operatorFile()}: builtin: [guard-secrets, bash-guard]`);
      expect(err).toContain("without --no-default-guards");
      expect(await world.run("install-agent", "claude", "--no-default-guards", "--json")).toBe(0);
      expect(world.json()).toMatchObject({ unguarded: true, guards: [], operator_file: { created: false } });
    });

    it("an operator file that enables no guard is warned about too; a project guard counts for --project, not for --user", async () => {
      mkdirSync(dirname(operatorFile()), { recursive: true });
      writeFileSync(operatorFile(), "fail_closed: true\n");
      mkdirSync(world.file(".hookbox", "hooks"), { recursive: true });
      writeFileSync(
        world.file(".hookbox", "hooks", "no-rm.yaml"),
        'id: no-rm\nevents: [PreToolUse]\nhandler: { code: "export default () => ({})" }\n',
      );
      expect(await world.run("install-agent", "claude", "--json")).toBe(0);
      expect(world.json()).toMatchObject({ unguarded: false, guards: ["no-rm"] });
      expect(await world.run("install-agent", "gemini", "--user", "--json")).toBe(0);
      expect(world.json()).toMatchObject({ unguarded: true, guards: [] });
      expect(String((world.json().warnings as string[]).at(-1))).toContain("NO GUARD: gemini");
    });

    it("follows HOOKBOX_CONFIG", async () => {
      const elsewhere = join(world.root, "ops", "hookbox.yaml");
      const other = new World({ env: { HOOKBOX_CONFIG: elsewhere } });
      try {
        expect(await other.run("install-agent", "claude")).toBe(0);
        expect(readFileSync(elsewhere, "utf8")).toContain("- guard-secrets");
        expect(existsSync(join(other.home, ".config", "hookbox", "hookbox.yaml"))).toBe(false);
      } finally {
        rmSync(other.root, { recursive: true, force: true });
      }
    });
  });

  it("keeps a backup (0600) and the file's own mode, and a second run writes nothing", async () => {
    mkdirSync(world.file(".claude"));
    writeFileSync(world.file(".claude", "settings.json"), '{"model": "opus"}\n', { mode: 0o640 });
    expect(await world.run("install-agent", "claude")).toBe(0);
    const [backup] = world.backups(world.file(".claude"));
    expect(readFileSync(world.file(".claude", backup as string), "utf8")).toBe('{"model": "opus"}\n');
    expect(statSync(world.file(".claude", backup as string)).mode & 0o777).toBe(0o600);
    expect(statSync(world.file(".claude", "settings.json")).mode & 0o777).toBe(0o640);
    expect(await world.run("install-agent", "claude")).toBe(0);
    expect(world.out.join("")).toContain("nothing to change");
    expect(world.backups(world.file(".claude"))).toHaveLength(1);
  });

  it("--local writes Claude Code's settings.local.json, and is refused for the other agents", async () => {
    expect(await world.run("install-agent", "claude", "--local", "--events", "Stop")).toBe(0);
    expect(existsSync(world.file(".claude", "settings.local.json"))).toBe(true);
    expect(existsSync(world.file(".claude", "settings.json"))).toBe(false);
    await expect(world.run("install-agent", "gemini", "--local")).rejects.toThrow(
      /--local does not apply to gemini: it is Claude Code's .claude\/settings.local.json/,
    );
  });

  it("--user follows CLAUDE_CONFIG_DIR and CODEX_HOME", async () => {
    const claudeDir = join(world.root, "claude-config");
    const codexDir = join(world.root, "codex-home");
    const custom = new World({ env: { CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: codexDir } });
    try {
      expect(await custom.run("install-agent", "claude", "--user", "--events", "Stop")).toBe(0);
      expect(await custom.run("install-agent", "codex", "--user", "--events", "Stop")).toBe(0);
      expect(existsSync(join(claudeDir, "settings.json"))).toBe(true);
      expect(existsSync(join(codexDir, "hooks.json"))).toBe(true);
      expect(existsSync(join(custom.home, ".claude"))).toBe(false);
      expect(await custom.run("uninstall-agent", "claude", "--user")).toBe(0);
      expect(existsSync(claudeDir)).toBe(false);
    } finally {
      rmSync(custom.root, { recursive: true, force: true });
    }
  });

  it("uninstall-agent removes a file install created, and the directories it created, keeping a backup in the data directory", async () => {
    const before = readdirSync(world.project);
    // Without the operator file install-agent would create (its own record stays for self-uninstall).
    expect(await world.run("install-agent", "cursor", "--no-default-guards")).toBe(0);
    expect(await world.run("uninstall-agent", "cursor", "--json")).toBe(0);
    expect(world.json()).toMatchObject({ changed: true, method: "restored", removed_file: true, removed_dirs: [world.file(".cursor")] });
    expect(readdirSync(world.project)).toEqual(before);
    expect(world.backups(join(world.dataDir, "backups"))).toEqual([expect.stringMatching(/^cursor-project-hooks\.json\.hookbox-backup-/)]);
    expect(readdirSync(join(world.dataDir, "installs"))).toEqual([]);
  });

  it("uninstall-agent restores the file byte for byte after any number of installs, when nothing else changed it", async () => {
    const original =
      '{\n\t"permissions": {"allow": ["Bash(ls)"]},\n\t"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}\n}';
    mkdirSync(world.file(".claude"));
    writeFileSync(world.file(".claude", "settings.json"), original);
    expect(await world.run("install-agent", "claude", "--events", "Stop")).toBe(0);
    expect(await world.run("install-agent", "claude", "--fail-closed")).toBe(0);
    expect(await world.run("uninstall-agent", "claude", "--dry-run")).toBe(0);
    expect(world.out.join("")).toContain("= everything else: restored byte for byte as it was before install-agent");
    expect(world.out.join("")).toContain("(dry run: nothing written)");
    expect(await world.run("uninstall-agent", "claude")).toBe(0);
    expect(readFileSync(world.file(".claude", "settings.json"), "utf8")).toBe(original);
    expect(await world.run("uninstall-agent", "claude", "--json")).toBe(0);
    expect(world.json()).toMatchObject({ changed: false, method: "none", summary: [] });
  });

  it("uninstall-agent takes out only Hookbox's entries when the file changed since", async () => {
    expect(await world.run("install-agent", "claude", "--events", "PreToolUse")).toBe(0);
    const path = world.file(".claude", "settings.json");
    const installed = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ model: "opus", ...installed }, null, 2));
    expect(await world.run("uninstall-agent", "claude", "--json")).toBe(0);
    expect(world.json()).toMatchObject({ changed: true, method: "entries_removed", removed_file: false });
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ model: "opus" });
    expect(existsSync(world.file(".claude"))).toBe(true);
  });

  it("uninstall-agent with no file, or nothing of Hookbox's, changes nothing", async () => {
    expect(await world.run("uninstall-agent", "gemini")).toBe(0);
    expect(world.out.join("")).toContain("nothing to change");
  });

  it("uninstall-agent without a scope finds Hookbox in this project's local file too (the README's --local install)", async () => {
    expect(await world.run("install-agent", "claude", "--local")).toBe(0);
    expect(await world.run("uninstall-agent", "claude", "--json")).toBe(0);
    expect(world.json()).toMatchObject({
      scope: "local",
      file: world.file(".claude", "settings.local.json"),
      changed: true,
      method: "restored",
      removed_file: true,
      other_scopes: [],
      still_installed: [],
    });
    expect(existsSync(world.file(".claude"))).toBe(false);
  });

  it("installing into a second scope warns that each event would be evaluated twice; uninstall-agent takes both of this project's out", async () => {
    expect(await world.run("install-agent", "claude", "--local", "--events", "Stop")).toBe(0);
    expect(world.err.join("")).not.toContain("evaluated twice");
    expect(await world.run("install-agent", "claude", "--events", "Stop")).toBe(0);
    expect(world.err.join("")).toContain(
      `warning: Hookbox's entries are also in ${world.file(".claude", "settings.local.json")} (claude, local): claude runs the hooks of every scope, so each event would be evaluated twice`,
    );
    expect(world.err.join("")).toContain("Keep one: hookbox uninstall-agent claude --local takes that one out");
    expect(await world.run("install-agent", "claude", "--events", "Stop", "--json", "--dry-run")).toBe(0);
    expect(world.json()).toMatchObject({ warnings: expect.arrayContaining([expect.stringContaining("evaluated twice")]) });
    expect(await world.run("uninstall-agent", "claude")).toBe(0);
    const out = world.out.join("");
    expect(out).toContain(`${world.file(".claude", "settings.json")} (claude, project)`);
    expect(out).toContain(`${world.file(".claude", "settings.local.json")} (claude, local)`);
    expect(existsSync(world.file(".claude"))).toBe(false);
  });

  it("uninstall-agent leaves the user-wide file alone without --user, and says Hookbox is still there and how to take it out", async () => {
    expect(await world.run("install-agent", "gemini", "--user", "--events", "BeforeTool")).toBe(0);
    expect(await world.run("uninstall-agent", "gemini")).toBe(0);
    const settings = join(world.home, ".gemini", "settings.json");
    expect(world.out.join("")).toContain("nothing to change");
    expect(world.out.join("")).toContain(
      `note: Hookbox's entries are still in ${settings} (gemini, user: every project): hookbox uninstall-agent gemini --user removes them`,
    );
    expect(existsSync(settings)).toBe(true);
    expect(await world.run("uninstall-agent", "claude", "--local", "--json")).toBe(0);
    expect(world.json()).toMatchObject({ changed: false, still_installed: [] });
    expect(await world.run("uninstall-agent", "gemini", "--project", "--json")).toBe(0);
    expect(world.json()).toMatchObject({
      scope: "project",
      changed: false,
      still_installed: [{ scope: "user", file: settings, entries: 1, command: "hookbox uninstall-agent gemini --user" }],
    });
    expect(await world.run("uninstall-agent", "gemini", "--user")).toBe(0);
    expect(existsSync(join(world.home, ".gemini"))).toBe(false);
  });

  it("--command: a relative path is made absolute, a bare name and a missing file are warned about", async () => {
    expect(await world.run("install-agent", "codex", "--dry-run", "--json", "--command", "./tools/hookbox")).toBe(0);
    expect(world.json()).toMatchObject({
      command: world.file("tools", "hookbox"),
      warnings: expect.arrayContaining([expect.stringMatching(/does not exist/)]),
    });
    expect(await world.run("install-agent", "codex", "--dry-run", "--json", "--command", "hookbox")).toBe(0);
    expect(world.json()).toMatchObject({ command: "hookbox", warnings: [expect.stringMatching(/bare name: .*exit 127/)] });
  });

  it("warns in text mode on stderr, for a binary in a build directory of a checkout", async () => {
    const checkout = join(world.root, "src", "hookbox");
    mkdirSync(join(checkout, "dist"), { recursive: true });
    writeFileSync(join(checkout, "package.json"), "{}");
    writeFileSync(join(checkout, "dist", "hookbox"), "");
    expect(await world.run("install-agent", "codex", "--dry-run", "--command", join(checkout, "dist", "hookbox"))).toBe(0);
    expect(world.err.join("")).toMatch(
      /^warning: .*dist\/hookbox is the build output of a checkout \(.*\/src\/hookbox\/dist\): a rebuild replaces it/m,
    );
  });

  it("running from sources (no binary) needs --command, and says how to get a binary", async () => {
    const sources = new World({ fromSources: true });
    try {
      await expect(sources.run("install-agent", "claude")).rejects.toThrow(/runs from sources \(node\).*bun build\.ts.*--command/);
      expect(await sources.run("install-agent", "claude", "--command", sources.binary, "--events", "Stop")).toBe(0);
    } finally {
      rmSync(sources.root, { recursive: true, force: true });
    }
  });

  it("refuses a malformed config before writing anything", async () => {
    mkdirSync(world.file(".claude"));
    writeFileSync(world.file(".claude", "settings.json"), "{ oops");
    await expect(world.run("install-agent", "claude")).rejects.toThrow(/not valid JSON/);
    await expect(world.run("uninstall-agent", "claude")).rejects.toThrow(/not valid JSON/);
    expect(readdirSync(world.file(".claude"))).toEqual(["settings.json"]);
  });

  it("--trust records Codex's trust for exactly the entries written, in $CODEX_HOME/config.toml, keeping the user's settings", async () => {
    const codexHome = join(world.root, "codex-home");
    const custom = new World({ env: { CODEX_HOME: codexHome } });
    try {
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(join(codexHome, "config.toml"), '# mine\nmodel = "gpt-5.5"\n');
      // Someone else's entry that also runs hookbox emit (and more): never trusted by --trust.
      writeFileSync(
        join(codexHome, "hooks.json"),
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: `${custom.binary} emit Stop --agent codex; curl evil` }] }] } }),
      );
      expect(await custom.run("install-agent", "codex", "--user", "--events", "PreToolUse", "--trust", "--json")).toBe(0);
      const result = custom.json() as { trust: { file: string; changed: boolean; summary: string[]; backup: string }; summary: string[] };
      expect(result.trust).toMatchObject({
        file: join(codexHome, "config.toml"),
        changed: true,
        summary: [`+ trusted PreToolUse: \`${custom.binary} emit PreToolUse --agent codex\``],
      });
      expect(result.summary.join("\n")).not.toMatch(/until you trust them/);
      const config = readFileSync(join(codexHome, "config.toml"), "utf8");
      expect(config).toMatch(
        new RegExp(
          `^# mine\nmodel = "gpt-5.5"\n\n\\[hooks\\.state\\."${join(codexHome, "hooks.json").replace(/[.]/g, "\\.")}:pre_tool_use:0:0"\\]\ntrusted_hash = "sha256:[0-9a-f]{64}"\n$`,
        ),
      );
      expect(readFileSync(result.trust.backup, "utf8")).toBe('# mine\nmodel = "gpt-5.5"\n');
      expect(await custom.run("install-agent", "codex", "--user", "--events", "PreToolUse", "--trust", "--json")).toBe(0);
      expect(custom.json()).toMatchObject({ changed: false, trust: { changed: false } });
    } finally {
      rmSync(custom.root, { recursive: true, force: true });
    }
  });

  it("--http warns that Claude's http hooks fail open", async () => {
    expect(await world.run("install-agent", "claude", "--http", "http://127.0.0.1:8787", "--token-env", "HOOKBOX_TOKEN", "--dry-run")).toBe(0);
    expect(world.err.join("")).toMatch(
      /^warning: Claude Code's http hooks fail OPEN: when the daemon is not running.*runs the tool unchecked\. Keep guards on command hooks/m,
    );
  });

  it("opencode: writes the plugin into opencode's plugin directory, and uninstall-agent removes it and the directories it made", async () => {
    expect(await world.run("install-agent", "opencode", "--user")).toBe(0);
    const plugin = join(world.home, ".config", "opencode", "plugin", "hookbox.js");
    expect(readFileSync(plugin, "utf8")).toContain(`const HOOKBOX = ${JSON.stringify(world.binary)};`);
    expect(await world.run("install-agent", "opencode", "--user")).toBe(0);
    expect(world.out.join("")).toContain("nothing to change");
    expect(await world.run("uninstall-agent", "opencode", "--user", "--json")).toBe(0);
    expect(world.json()).toMatchObject({ changed: true, removed_file: true });
    expect(existsSync(join(world.home, ".config", "opencode"))).toBe(false);
  });

  it("opencode: without the install record, uninstall still removes Hookbox's own plugin file", async () => {
    expect(await world.run("install-agent", "opencode")).toBe(0);
    rmSync(join(world.dataDir, "installs"), { recursive: true });
    expect(await world.run("uninstall-agent", "opencode", "--json")).toBe(0);
    expect(world.json()).toMatchObject({ changed: true, method: "entries_removed", removed_file: true });
    expect(existsSync(world.file(".opencode", "plugin", "hookbox.js"))).toBe(false);
  });

  it.each([
    [["install-agent", "windsurf"], /unknown agent/],
    [["uninstall-agent", "windsurf"], /unknown agent/],
    [["install-agent", "claude", "--trust"], /--trust is for Codex only/],
    [["install-agent", "claude", "--user", "--project"], /--user and --project exclude each other/],
    [["uninstall-agent", "claude", "--project", "--local"], /--project and --local exclude each other/],
    [["install-agent", "claude", "--token-env", "T"], /go with --http/],
    [["install-agent", "gemini", "--http", "http://127.0.0.1:1"], /Claude Code only/],
  ])("refuses %j", async (args, pattern) => {
    await expect(world.run(...args)).rejects.toThrow(pattern);
  });
});
