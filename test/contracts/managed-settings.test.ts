import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { MANAGED_SETTINGS, type ManagedOptions } from "../../src/agents/managed.ts";
import { emitCommand } from "../../src/agents/shared/install/command.ts";

const options = (file: string, managedHooksOnly = false, root = "/"): ManagedOptions => ({
  hookboxCommand: root === "/" ? "/usr/local/bin/hookbox" : `${root}/usr/local/bin/hookbox`,
  root,
  file,
  managedHooksOnly,
  policyDir: root === "/" ? "/etc/hookbox" : `${root}/etc/hookbox`,
});

describe("the system tier's entries", () => {
  it("run emit with --system (and --system-root under another root)", () => {
    expect(emitCommand("/usr/local/bin/hookbox", "PreToolUse", "claude", { system: { root: "/" } })).toBe(
      "/usr/local/bin/hookbox emit PreToolUse --agent claude --system",
    );
    expect(emitCommand("/r/usr/local/bin/hookbox", "BeforeTool", "gemini", { system: { root: "/r" }, failClosed: true })).toBe(
      "/r/usr/local/bin/hookbox emit BeforeTool --agent gemini --fail-closed --system --system-root /r",
    );
  });
});

describe.each(["claude", "gemini", "qwen", "cursor"] as const)("%s's managed settings (JSON)", (agent) => {
  const managed = MANAGED_SETTINGS[agent]!;
  const file = managed.path("/");
  const ADMIN =
    '{\n    "permissions": { "deny": ["WebFetch"] },\n    "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "/opt/corp/audit-stop" } ] } ] }\n}\n';

  it("lives where the agent reads it on Linux", () => {
    expect(file).toBe(
      {
        claude: "/etc/claude-code/managed-settings.json",
        gemini: "/etc/gemini-cli/settings.json",
        qwen: "/etc/qwen-code/settings.json",
        cursor: "/etc/cursor/hooks.json",
      }[agent],
    );
  });

  // Without the install record (uninstall --system restores the file byte for byte from it), taking
  // the entries out keeps what the file says, not necessarily its layout; Cursor's "version": 1 stays.
  const same = (text: string): unknown => {
    const { version: _version, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return agent === "cursor" ? rest : { version: _version, ...rest };
  };
  it("gets Hookbox's entries beside the administrator's, and loses exactly them again", () => {
    const plan = managed.planInstall(ADMIN, options(file, true));
    expect(plan.changed).toBe(true);
    const root = JSON.parse(plan.text) as Record<string, unknown>;
    expect(root.permissions).toEqual({ deny: ["WebFetch"] });
    expect(plan.text).toContain("/opt/corp/audit-stop");
    expect(plan.text).toMatch(/\/usr\/local\/bin\/hookbox emit \S+ --agent \w+ --system"/);
    if (agent === "claude") expect(root).toMatchObject({ allowManagedHooksOnly: true, env: { BUN_OPTIONS: "", BUN_BE_BUN: "", LD_PRELOAD: "" } });
    if (agent === "gemini") expect(root).toMatchObject({ hooksConfig: { enabled: true } });
    if (agent === "qwen") expect(root).toMatchObject({ disableAllHooks: false });
    expect(managed.planInstall(plan.text, options(file, true)).changed).toBe(false);
    const back = managed.planUninstall(plan.text, options(file), plan.added);
    expect(same(back.text)).toEqual(same(ADMIN));
  });

  it("a file it creates goes again", () => {
    const plan = managed.planInstall(undefined, options(file));
    const back = managed.planUninstall(plan.text, options(file), plan.added);
    expect(back.removesFile === true || JSON.stringify(same(back.text || "{}")) === "{}").toBe(true);
  });
});

describe("Codex's managed requirements (TOML)", () => {
  const managed = MANAGED_SETTINGS.codex!;
  const file = managed.path("/");
  const ADMIN = '# the organisation\'s requirements\nallowed_sandbox_modes = ["read-only"]\n\n[features]\nweb_search = false\n';

  it("lives at /etc/codex/requirements.toml; Hookbox's block comes first, as top-level keys, and parses", () => {
    expect(file).toBe("/etc/codex/requirements.toml");
    const plan = managed.planInstall(ADMIN, options(file, true));
    expect(plan.text.endsWith(ADMIN)).toBe(true);
    const parsed = parseToml(plan.text) as { allow_managed_hooks_only?: boolean; features: Record<string, unknown>; hooks: Record<string, unknown> };
    expect(parsed.allow_managed_hooks_only).toBe(true);
    expect(parsed.features).toEqual({ web_search: false });
    expect(parsed.hooks.managed_dir).toBe("/etc/hookbox");
    expect(parsed.hooks.PreToolUse).toEqual([
      { hooks: [{ type: "command", command: "/usr/local/bin/hookbox emit PreToolUse --agent codex --system", timeout: 120 }] },
    ]);
    expect(plan.summary).toContain(
      "! [features] is already in this file without hooks = true: a user's config can turn Codex's hooks off unless it says hooks = true",
    );
    expect(managed.planInstall(plan.text, options(file, true)).changed).toBe(false);
    expect(managed.planUninstall(plan.text, options(file), []).text).toBe(ADMIN);
  });

  it("without a [features] table of the administrator's, keeps hooks on with features.hooks", () => {
    const parsed = parseToml(managed.planInstall(undefined, options(file)).text) as {
      features: Record<string, unknown>;
      allow_managed_hooks_only?: boolean;
    };
    expect(parsed.features).toEqual({ hooks: true });
    expect(parsed.allow_managed_hooks_only).toBeUndefined();
  });

  it("refuses a file that has managed hooks of its own, changing nothing", () => {
    expect(() => managed.planInstall('[hooks]\nmanaged_dir = "/etc/corp"\n', options(file))).toThrow(
      /already sets hooks: add Hookbox's entries to it by hand/,
    );
    expect(() => managed.planInstall("not = [toml", options(file))).toThrow(/is not valid TOML/);
  });
});
