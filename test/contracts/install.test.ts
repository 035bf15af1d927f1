import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import {
  INSTALLERS,
  INSTALL_AGENTS,
  configPath,
  planInstall,
  planUninstall,
  runsHookboxEmit,
  type InstallAgent,
} from "../../src/agents/installers.ts";
import { expectGolden } from "./helpers/golden.ts";

const SAMPLES = resolve(import.meta.dirname, "install-samples");
/** The agents whose hooks live in a JSON config Hookbox merges into (opencode's are a plugin file: opencode-install.test.ts). */
type JsonAgent = Exclude<InstallAgent, "opencode">;
const JSON_AGENTS = INSTALL_AGENTS.filter((agent): agent is JsonAgent => agent !== "opencode");
const SAMPLE_FILE: Readonly<Record<JsonAgent, string>> = {
  claude: "claude-settings.json",
  gemini: "gemini-settings.json",
  cursor: "cursor-hooks.json",
  codex: "codex-hooks.json",
  copilot: "copilot-hooks.json",
  qwen: "qwen-settings.json",
};
/** Agents whose hook lists hold handlers directly (no matcher groups), and the key their command is under. */
const FLAT: Partial<Record<JsonAgent, string>> = { cursor: "command", copilot: "bash" };

function sample(agent: JsonAgent): string {
  return readFileSync(join(SAMPLES, SAMPLE_FILE[agent]), "utf8");
}

type Json = Record<string, unknown>;

/** The config without Hookbox's handlers (and groups that held only them): what the user had. */
function withoutHookbox(config: Json): Json {
  const hooks = config.hooks as Record<string, unknown[]>;
  const kept = Object.fromEntries(
    Object.entries(hooks)
      .map(([event, list]) => [
        event,
        list.flatMap((entry) => {
          const group = entry as Json;
          if (!Array.isArray(group.hooks)) return runsHookboxEmit(group.command ?? group.bash) ? [] : [group];
          const handlers = (group.hooks as Json[]).filter(
            (handler) => !runsHookboxEmit(handler.command) && !(handler.type === "http" && String(handler.url).endsWith("/v1/agents/claude")),
          );
          return handlers.length > 0 ? [{ ...group, hooks: handlers }] : [];
        }),
      ])
      .filter(([, list]) => (list as unknown[]).length > 0),
  );
  return { ...config, hooks: kept };
}

function configError(run: () => unknown): HookboxError {
  try {
    run();
  } catch (error) {
    if (error instanceof HookboxError) return error;
    throw error;
  }
  throw new Error("expected a HookboxError");
}

describe.each(JSON_AGENTS)("install-agent %s", (agent) => {
  it("merges Hookbox's entries into a config that has the user's own hooks, as reviewed in the golden file", () => {
    const plan = planInstall(agent, sample(agent));
    expect(plan.changed).toBe(true);
    expectGolden(`install/${agent}.json`, { summary: plan.summary, config: JSON.parse(plan.text) as unknown });
  });

  it("changes nothing the second time: same text back, changed false, every line '='", () => {
    const first = planInstall(agent, sample(agent));
    const second = planInstall(agent, first.text);
    expect(second.changed).toBe(false);
    expect(second.text).toBe(first.text);
    expect(second.summary.filter((line) => !line.startsWith("!")).every((line) => line.startsWith("= "))).toBe(true);
  });

  it("leaves the user's hooks and every other setting exactly as they were", () => {
    const before = JSON.parse(sample(agent)) as Json;
    const after = JSON.parse(planInstall(agent, sample(agent)).text) as Json;
    expect(withoutHookbox(after)).toEqual(before);
  });

  it("keeps the file's indentation", () => {
    const indent = /^[ \t]+(?=")/m.exec(sample(agent))?.[0];
    expect(/^[ \t]+(?=")/m.exec(planInstall(agent, sample(agent)).text)?.[0]).toBe(indent);
  });

  it("creates the file when there is none, and installs every default event", () => {
    const plan = planInstall(agent, undefined);
    expect(plan.changed).toBe(true);
    const hooks = (JSON.parse(plan.text) as Json).hooks as Json;
    expect(Object.keys(hooks)).toEqual(INSTALLERS[agent].defaultEvents);
    expect(planInstall(agent, plan.text).changed).toBe(false);
  });

  it("updates its own entry in place, not adding a second, when the hookbox path changes", () => {
    const first = planInstall(agent, sample(agent)).text;
    const moved = planInstall(agent, first, { hookboxCommand: "/opt/hookbox tools/hookbox" });
    expect(moved.changed).toBe(true);
    expect(moved.summary.some((line) => line.startsWith("~ "))).toBe(true);
    const commands = JSON.stringify(JSON.parse(moved.text)).match(/emit [A-Za-z]+ --agent/g) ?? [];
    expect(commands.length).toBe(INSTALLERS[agent].defaultEvents.length);
    expect(moved.text).toContain('\\"/opt/hookbox tools/hookbox\\" emit');
  });

  it("removes its own duplicates (two would evaluate every event twice) and only those", () => {
    const once = JSON.parse(planInstall(agent, sample(agent), { events: [INSTALLERS[agent].defaultEvents[0] as string] }).text) as Json;
    const event = INSTALLERS[agent].defaultEvents[0] as string;
    const hooks = once.hooks as Record<string, unknown[]>;
    hooks[event] = [...(hooks[event] as unknown[]), ...(hooks[event] as unknown[]).slice(-1)];
    const plan = planInstall(agent, JSON.stringify(once, null, 2), { events: [event] });
    expect(plan.summary).toContain(`- ${event}: removed 1 duplicate Hookbox entry`);
    expect(withoutHookbox(JSON.parse(plan.text) as Json)).toEqual(withoutHookbox(once));
  });

  it("refuses a file it cannot rewrite intact, saying what is wrong and that nothing changed", () => {
    for (const [text, pattern] of [
      ["{ not json", /not valid JSON \(line 1, column 3: /],
      ["[]", /JSON object at the top level/],
      ['{"hooks": []}', /"hooks" must be an object/],
      [`{"hooks": {"${INSTALLERS[agent].defaultEvents[0]}": {}}}`, /must be a list/],
      [`{"hooks": {"${INSTALLERS[agent].defaultEvents[0]}": ["./guard.sh"]}}`, /must be an object/],
    ] as const) {
      const error = configError(() => planInstall(agent, text, { file: "/home/dev/cfg.json" }));
      expect(error.code).toBe("config_invalid");
      expect(error.message).toMatch(pattern);
      expect(error.message).toContain("/home/dev/cfg.json");
      expect(error.message).toContain("Nothing was changed");
    }
  });

  it("uninstalls back to the original text, byte for byte, when nothing else changed", () => {
    const installed = planInstall(agent, sample(agent), { hookboxCommand: "/opt/hookbox/hookbox", failClosed: true });
    const removed = planUninstall(agent, installed.text);
    expect(removed.changed).toBe(true);
    expect(removed.summary.every((line) => line.startsWith("- "))).toBe(true);
    expect(removed.text).toBe(sample(agent));
  });

  it("uninstalls only Hookbox's entries when the user changed the file in between", () => {
    const installed = JSON.parse(planInstall(agent, sample(agent)).text) as Json;
    const edited = { ...installed, userAddedThis: [1, 2] };
    const removed = planUninstall(agent, JSON.stringify(edited, null, 2));
    expect(JSON.parse(removed.text)).toEqual({ ...(JSON.parse(sample(agent)) as Json), userAddedThis: [1, 2] });
    expect(removed.text).not.toMatch(/hookbox emit/);
  });

  it("uninstalls a handler Hookbox put in a user's group by hand, keeping the group and its other handlers", () => {
    const event = INSTALLERS[agent].defaultEvents[0] as string;
    const key = FLAT[agent] ?? "command";
    const own = agent === "cursor" ? { command: "./mine.sh" } : { type: "command", [key]: "./mine.sh" };
    const hookbox = { ...own, [key]: `/usr/local/bin/hookbox emit ${event} --agent ${agent}` };
    const list = FLAT[agent] ? [own, hookbox] : [{ matcher: "Bash", hooks: [own, hookbox] }];
    const removed = planUninstall(agent, JSON.stringify({ hooks: { [event]: list } }));
    expect(JSON.parse(removed.text)).toEqual({ hooks: { [event]: FLAT[agent] ? [own] : [{ matcher: "Bash", hooks: [own] }] } });
  });

  it("changes nothing when there is nothing of Hookbox's, or no file", () => {
    expect(planUninstall(agent, sample(agent))).toMatchObject({ changed: false, text: sample(agent), summary: [] });
    expect(planUninstall(agent, undefined).changed).toBe(false);
  });

  it("installs only the events asked for, by the agent's name or Hookbox's", () => {
    const plan = planInstall(agent, undefined, { events: ["PreToolUse", "Stop"] });
    expect(Object.keys((JSON.parse(plan.text) as Json).hooks as Json)).toHaveLength(2);
    expect(() => planInstall(agent, undefined, { events: ["NoSuchEvent"] })).toThrow(/unknown .* event "NoSuchEvent"/);
  });

  it("adds --fail-closed to every command when asked", () => {
    const text = planInstall(agent, undefined, { failClosed: true }).text;
    const commands = JSON.stringify(JSON.parse(text)).match(/emit [A-Za-z]+ --agent [a-z]+( --fail-closed)?/g) ?? [];
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.every((command) => command.endsWith("--fail-closed"))).toBe(true);
  });
});

describe("where each agent keeps its hooks (research §8.4)", () => {
  const dirs = { home: "/home/dev", project: "/work/shop" };
  it.each([
    ["claude", "user", "/home/dev/.claude/settings.json"],
    ["claude", "project", "/work/shop/.claude/settings.json"],
    ["gemini", "user", "/home/dev/.gemini/settings.json"],
    ["gemini", "project", "/work/shop/.gemini/settings.json"],
    ["cursor", "user", "/home/dev/.cursor/hooks.json"],
    ["cursor", "project", "/work/shop/.cursor/hooks.json"],
    ["codex", "user", "/home/dev/.codex/hooks.json"],
    ["codex", "project", "/work/shop/.codex/hooks.json"],
    ["copilot", "user", "/home/dev/.copilot/hooks/hookbox.json"],
    ["copilot", "project", "/work/shop/.github/hooks/hookbox.json"],
    ["qwen", "user", "/home/dev/.qwen/settings.json"],
    ["qwen", "project", "/work/shop/.qwen/settings.json"],
    ["opencode", "user", "/home/dev/.config/opencode/plugin/hookbox.js"],
    ["opencode", "project", "/work/shop/.opencode/plugin/hookbox.js"],
  ] as const)("%s --%s: %s", (agent, scope, path) => {
    expect(configPath(agent, scope, dirs)).toBe(path);
  });

  it("--local is Claude Code's settings.local.json, and a usage error for the others", () => {
    expect(configPath("claude", "local", dirs)).toBe("/work/shop/.claude/settings.local.json");
    for (const agent of ["gemini", "cursor", "codex", "copilot", "qwen", "opencode"] as const)
      expect(() => configPath(agent, "local", dirs)).toThrow(
        /--local does not apply to .*: it is Claude Code's .claude\/settings.local.json; .* has --user and --project/,
      );
  });

  it("follows CLAUDE_CONFIG_DIR and CODEX_HOME for the user scope only, relative ones from the project", () => {
    const env = { CLAUDE_CONFIG_DIR: "/cfg/claude", CODEX_HOME: "codex-home" };
    expect(configPath("claude", "user", { ...dirs, env })).toBe("/cfg/claude/settings.json");
    expect(configPath("codex", "user", { ...dirs, env })).toBe("/work/shop/codex-home/hooks.json");
    expect(configPath("claude", "project", { ...dirs, env })).toBe("/work/shop/.claude/settings.json");
    expect(configPath("codex", "project", { ...dirs, env })).toBe("/work/shop/.codex/hooks.json");
    expect(configPath("claude", "user", { ...dirs, env: { CLAUDE_CONFIG_DIR: "" } })).toBe("/home/dev/.claude/settings.json");
  });

  it("follows COPILOT_HOME, QWEN_HOME and XDG_CONFIG_HOME (opencode) for the user scope", () => {
    const env = { COPILOT_HOME: "/cfg/copilot", QWEN_HOME: "/cfg/qwen", XDG_CONFIG_HOME: "/cfg/xdg" };
    expect(configPath("copilot", "user", { ...dirs, env })).toBe("/cfg/copilot/hooks/hookbox.json");
    expect(configPath("qwen", "user", { ...dirs, env })).toBe("/cfg/qwen/settings.json");
    expect(configPath("opencode", "user", { ...dirs, env })).toBe("/cfg/xdg/opencode/plugin/hookbox.js");
    expect(configPath("copilot", "project", { ...dirs, env })).toBe("/work/shop/.github/hooks/hookbox.json");
  });

  it("keeps a Windows home's separators", () => {
    expect(configPath("claude", "user", { home: "C:\\Users\\dev", project: "C:\\work" })).toBe("C:\\Users\\dev\\.claude\\settings.json");
  });
});

describe("agent-specific entries", () => {
  const hooksOf = (text: string) => (JSON.parse(text) as Json).hooks as Record<string, Json[]>;

  it("writes Gemini's timeouts in milliseconds and Claude's and Codex's in seconds", () => {
    const gemini = hooksOf(planInstall("gemini", undefined).text).BeforeTool?.[0]?.hooks as Json[];
    const claude = hooksOf(planInstall("claude", undefined).text).PreToolUse?.[0]?.hooks as Json[];
    const codex = hooksOf(planInstall("codex", undefined).text).PreToolUse?.[0]?.hooks as Json[];
    expect(gemini[0]?.timeout).toBe(120_000);
    expect(claude[0]?.timeout).toBe(120);
    expect(codex[0]?.timeout).toBe(120);
  });

  it("writes Codex's SessionEnd timeout as the 3 s Codex gives it, Copilot's in timeoutSec, Qwen's in seconds", () => {
    expect((hooksOf(planInstall("codex", undefined).text).SessionEnd?.[0]?.hooks as Json[])[0]?.timeout).toBe(3);
    expect(hooksOf(planInstall("copilot", undefined).text).preToolUse?.[0]).toEqual({
      type: "command",
      bash: "hookbox emit preToolUse --agent copilot",
      timeoutSec: 120,
    });
    expect((hooksOf(planInstall("qwen", undefined).text).PreToolUse?.[0]?.hooks as Json[])[0]).toEqual({
      type: "command",
      command: "hookbox emit PreToolUse --agent qwen",
      timeout: 120,
    });
  });

  it("says where a project's hooks run only in a trusted folder, and drops Codex's trust note when --trust records it", () => {
    expect(planInstall("copilot", undefined, { scope: "project" }).summary.join("\n")).toMatch(/only in a folder you have trusted/);
    expect(planInstall("copilot", undefined, { scope: "user" }).summary.join("\n")).not.toMatch(/trusted/);
    expect(planInstall("qwen", undefined, { scope: "project" }).summary.join("\n")).toMatch(/folderTrust/);
    expect(planInstall("qwen", '{"disableAllHooks": true}').summary.join("\n")).toMatch(/disableAllHooks/);
    expect(planInstall("codex", undefined, { trusting: true }).summary.join("\n")).not.toMatch(/trust them/);
  });

  it("adds Copilot's required version, and refuses a version it does not know", () => {
    expect(JSON.parse(planInstall("copilot", '{"hooks": {}}').text)).toMatchObject({ version: 1 });
    expect(() => planInstall("copilot", '{"version": 2, "hooks": {}}')).toThrow(/version/);
  });

  it("writes no timeout for Cursor, whose unit is unconfirmed (a wrong unit would kill every hook and fail open)", () => {
    expect(planInstall("cursor", undefined).text).not.toContain("timeout");
  });

  it("adds Cursor's required version to a hooks.json without one, and refuses a version it does not know", () => {
    expect(JSON.parse(planInstall("cursor", '{"hooks": {}}').text)).toMatchObject({ version: 1 });
    expect(() => planInstall("cursor", '{"version": 2, "hooks": {}}')).toThrow(/version/);
  });

  it("warns when the agent would not run the hooks at all", () => {
    expect(planInstall("claude", '{"disableAllHooks": true}').summary.join("\n")).toMatch(/disableAllHooks/);
    expect(planInstall("gemini", '{"hooksConfig": {"enabled": false}}').summary.join("\n")).toMatch(/hooksConfig.enabled/);
    expect(planInstall("codex", '{"$schema": "x", "hooks": {}}').summary.join("\n")).toMatch(/top-level keys/);
    expect(planInstall("codex", undefined).summary.join("\n")).toMatch(/trust them/);
  });
});

describe("Claude Code's http hooks (--http)", () => {
  const http = { url: "http://127.0.0.1:8787", tokenEnvVar: "HOOKBOX_TOKEN" };
  const hooksOf = (text: string) => (JSON.parse(text) as Json).hooks as Record<string, { hooks: Json[] }[]>;

  it("posts to the daemon's loopback listener with the token header, interpolated by Claude from the environment", () => {
    const hooks = hooksOf(planInstall("claude", undefined, { http }).text);
    expect(hooks.PreToolUse?.[0]?.hooks[0]).toEqual({
      type: "http",
      url: "http://127.0.0.1:8787/v1/agents/claude",
      timeout: 120,
      headers: { Authorization: "Bearer $HOOKBOX_TOKEN" },
      allowedEnvVars: ["HOOKBOX_TOKEN"],
      statusMessage: "Hookbox: checking the tool call",
    });
  });

  it("keeps SessionStart a command: Claude runs no http hook there", () => {
    expect(hooksOf(planInstall("claude", undefined, { http }).text).SessionStart?.[0]?.hooks[0]).toMatchObject({
      type: "command",
      command: "hookbox emit SessionStart --agent claude",
    });
  });

  it("switches an installed command hook to http in place, and is idempotent after", () => {
    const commands = planInstall("claude", sample("claude")).text;
    const switched = planInstall("claude", commands, { http });
    expect(switched.summary).toContain("~ PreToolUse: updated to POST to http://127.0.0.1:8787/v1/agents/claude (timeout 120 s)");
    expect(withoutHookbox(JSON.parse(switched.text) as Json)).toEqual(JSON.parse(sample("claude")));
    expect(planInstall("claude", switched.text, { http }).changed).toBe(false);
  });

  it("are Hookbox's to uninstall, and only those posting to the daemon's path", () => {
    const removed = planUninstall("claude", planInstall("claude", sample("claude"), { http }).text);
    expect(removed.text).toBe(sample("claude"));
    expect(removed.summary).toContain("- PreToolUse: removed the POST to http://127.0.0.1:8787/v1/agents/claude");
  });

  it("leaves the user's own http hooks alone", () => {
    const text = planInstall("claude", sample("claude"), { http }).text;
    expect(hooksOf(text).Notification?.[0]?.hooks[0]).toEqual({ type: "http", url: "http://127.0.0.1:9999/notify" });
  });

  it("takes a literal header too, warning that it is stored in plain text", () => {
    const plan = planInstall("claude", undefined, { http: { url: "http://localhost:8787/v1/agents/claude", header: "Bearer abc" } });
    expect(hooksOf(plan.text).Stop?.[0]?.hooks[0]).toMatchObject({ headers: { Authorization: "Bearer abc" } });
    expect(plan.summary.join("\n")).toMatch(/plain text/);
  });

  it.each([
    [{ url: "https://hooks.example.com", tokenEnvVar: "T" }, /loopback/],
    [{ url: "http://10.0.0.2:8787", tokenEnvVar: "T" }, /loopback/],
    [{ url: "http://127.0.0.1:8787" }, /bearer token/],
    [{ url: "http://127.0.0.1:8787", tokenEnvVar: "T", header: "Bearer x" }, /not both/],
    [{ url: "http://127.0.0.1:8787", tokenEnvVar: "NOT A NAME" }, /environment variable name/],
  ])("refuses %j", (options, pattern) => {
    expect(() => planInstall("claude", undefined, { http: options })).toThrow(pattern);
  });

  it("is Claude Code's only", () => {
    expect(() => planInstall("gemini", undefined, { http })).toThrow(/Claude Code only/);
  });
});

describe("the hookbox command", () => {
  it("recognises Hookbox's entries whatever the path or quoting, and nothing else", () => {
    for (const command of [
      "hookbox emit Stop --agent claude",
      "/usr/local/bin/hookbox emit X",
      '"C:\\Program Files\\hookbox\\hookbox.exe" emit PreToolUse',
      "~/bin/hookbox emit",
    ])
      expect(runsHookboxEmit(command), command).toBe(true);
    for (const command of ["./guard.sh", "my-hookbox emit Stop", "hookbox run x.ts", "echo hookbox emit-ish", undefined, 3])
      expect(runsHookboxEmit(command), String(command)).toBe(false);
  });

  it("refuses a path no shell can take quoted the same way", () => {
    expect(() => planInstall("claude", undefined, { hookboxCommand: '/opt/$HOME/"hookbox"' })).toThrow(/cannot be quoted/);
  });
});
