import { describe, expect, it } from "vitest";
import type { HookboxError } from "../../src/core/errors.ts";
import { installedEntries } from "../../src/agents/installers.ts";
import { planInstall, planUninstall } from "../../src/agents/installers.ts";
import { OPENCODE_PLUGIN_MARKER } from "../../src/agents/opencode/plugin.ts";

const OPTIONS = { hookboxCommand: "/home/dev/bin/hookbox", buildId: "0.1.0+abc", file: "/home/dev/.config/opencode/plugin/hookbox.js" };

describe("install-agent opencode: a plugin file Hookbox owns", () => {
  it("writes the plugin, naming the binary and its build, and a second run changes nothing", () => {
    const plan = planInstall("opencode", undefined, OPTIONS);
    expect(plan.changed).toBe(true);
    expect(plan.text.startsWith(OPENCODE_PLUGIN_MARKER)).toBe(true);
    expect(plan.text).toContain('const HOOKBOX = "/home/dev/bin/hookbox";');
    expect(plan.text).toContain('const BUILD = "0.1.0+abc";');
    expect(plan.summary[0]).toMatch(
      /^\+ create .*hookbox\.js \(asks the daemon, else runs `\/home\/dev\/bin\/hookbox emit <event> --agent native`\)$/,
    );
    expect(plan.summary).toContain("+ PreToolUse: asked in opencode's tool.execute.before hook");
    expect(planInstall("opencode", plan.text, OPTIONS)).toMatchObject({ changed: false, summary: ["= the plugin: already installed"] });
  });

  it("rewrites its own plugin when the binary moves or other events are asked for", () => {
    const first = planInstall("opencode", undefined, OPTIONS).text;
    const moved = planInstall("opencode", first, { ...OPTIONS, hookboxCommand: "/opt/hookbox", events: ["PreToolUse"], failClosed: true });
    expect(moved.changed).toBe(true);
    expect(moved.summary[0]).toMatch(/^~ the plugin: updated/);
    expect(moved.text).toContain('const EVENTS = new Set(["PreToolUse"]);');
    expect(moved.text).toContain("const FAIL_CLOSED = true;");
    expect(() => planInstall("opencode", undefined, { events: ["BeforeTool"] })).toThrow(/unknown opencode event "BeforeTool"/);
  });

  it("refuses to replace a plugin that is not its own", () => {
    let error: unknown;
    try {
      planInstall("opencode", "export const Mine = async () => ({});\n", OPTIONS);
    } catch (caught) {
      error = caught;
    }
    expect((error as HookboxError).code).toBe("config_invalid");
    expect((error as HookboxError).message).toMatch(/is not a plugin Hookbox wrote .*Nothing was changed/);
  });

  it("uninstalls by removing its own file, and leaves another's alone", () => {
    const plugin = planInstall("opencode", undefined, OPTIONS).text;
    expect(planUninstall("opencode", plugin)).toMatchObject({ changed: true, removesFile: true });
    expect(planUninstall("opencode", "export const Mine = 1;\n")).toMatchObject({ changed: false, text: "export const Mine = 1;\n" });
    expect(planUninstall("opencode", undefined).changed).toBe(false);
  });

  it("tells doctor which events the plugin asks about and the emit command it falls back to", () => {
    const plugin = planInstall("opencode", undefined, {
      ...OPTIONS,
      hookboxCommand: "/opt/hook box/hookbox",
      events: ["PreToolUse", "PostToolUse"],
    }).text;
    expect(installedEntries("opencode", plugin, OPTIONS.file)).toEqual([
      { event: "tool.execute.before", command: '"/opt/hook box/hookbox" emit PreToolUse --agent native' },
      { event: "tool.execute.after", command: '"/opt/hook box/hookbox" emit PostToolUse --agent native' },
    ]);
  });

  it("is JavaScript opencode can load: it parses as a module exporting one plugin function", async () => {
    const plugin = planInstall("opencode", undefined, OPTIONS).text;
    const module = (await import(`data:text/javascript;base64,${Buffer.from(plugin).toString("base64")}`)) as Record<string, unknown>;
    expect(Object.keys(module)).toEqual(["HookboxPlugin"]);
    const hooks = (await (module.HookboxPlugin as (input: { directory: string }) => Promise<Record<string, unknown>>)({
      directory: "/tmp",
    })) as Record<string, unknown>;
    expect(Object.keys(hooks).sort()).toEqual(["chat.message", "experimental.chat.system.transform", "tool.execute.after", "tool.execute.before"]);
  });
});
