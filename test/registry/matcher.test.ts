import { describe, expect, it } from "vitest";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { compileMatcher } from "../../src/hooks/registry/matcher.ts";

function matches(match: Parameters<typeof compileMatcher>[0], event: Partial<NativeEvent>): boolean {
  const built = compileMatcher(match);
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  return built.matcher.matches({ event_type: "PreToolUse", session_id: "s", timestamp: "t", cwd: "/proj", ...event } as NativeEvent);
}

// Claude Code's documented matcher semantics (hooks reference, "Matcher patterns";
// agent-hook-protocols.md §1.2): "*", "" or absent = all; letters/digits/_/-/space/,/| = exact
// names; anything else = an unanchored JavaScript regex test.
const TOOL_TABLE: [matcher: string | undefined, tool: string, expected: boolean][] = [
  ["*", "Bash", true],
  ["", "Bash", true],
  [undefined, "Bash", true],
  ["Bash", "Bash", true],
  ["Bash", "bash", false],
  ["Bash", "BashX", false],
  ["Bash", "XBash", false],
  ["Edit|Write", "Write", true],
  ["Edit|Write", "Edit", true],
  ["Edit|Write", "MultiEdit", false],
  ["Edit|Write", "Edit|Write", false],
  ["Edit, Write", "Write", true],
  ["Edit,Write", "Edit", true],
  ["Edit.*", "NotebookEdit", true],
  ["Edit.*", "Edit", true],
  ["^Edit$", "NotebookEdit", false],
  ["^Edit$", "Edit", true],
  ["Notebook.*|Edit", "MultiEdit", true],
  ["mcp__memory__.*", "mcp__memory__create_entities", true],
  ["mcp__memory__.*", "mcp__memoryx__create_entities", false],
  ["mcp__memory", "mcp__memory__create_entities", false],
  ["mcp__.*__write.*", "mcp__filesystem__write_file", true],
  ["mcp__.*__write.*", "mcp__filesystem__read_file", false],
  ["mcp__plugin_kit_db__.*", "mcp__plugin_kit_db__query", true],
  ["code-reviewer", "code-reviewer", true],
  ["code-reviewer", "code-reviewer2", false],
  ["Read|Grep|Glob", "Glob", true],
  ["Read|Grep|Glob", "LS", false],
];

describe("tool matcher truth table (Claude Code semantics)", () => {
  for (const [matcher, tool, expected] of TOOL_TABLE) {
    it(`${JSON.stringify(matcher)} vs ${tool} → ${expected}`, () => {
      expect(matches(matcher === undefined ? {} : { tool: matcher }, { tool_name: tool })).toBe(expected);
    });
  }

  it("a tool event without tool_name matches only the match-all forms", () => {
    expect(matches({ tool: "*" }, {})).toBe(true);
    expect(matches({ tool: "Bash" }, {})).toBe(false);
  });

  it("filters the per-event matcher field (SessionStart source, SubagentStop agent_type, PreCompact trigger)", () => {
    expect(matches({ tool: "startup|resume" }, { event_type: "SessionStart", source: "resume" })).toBe(true);
    expect(matches({ tool: "startup" }, { event_type: "SessionStart", source: "clear" })).toBe(false);
    expect(matches({ tool: "^my-plugin:reviewer$" }, { event_type: "SubagentStop", agent_type: "my-plugin:reviewer" })).toBe(true);
    expect(matches({ tool: "^my-plugin:reviewer$" }, { event_type: "SubagentStop", agent_type: "my-plugin:reviewer2" })).toBe(false);
    expect(matches({ tool: "manual" }, { event_type: "PreCompact", trigger: "auto" })).toBe(false);
    expect(matches({ tool: "Bash" }, { event_type: "Stop" })).toBe(true);
  });
});

describe("path globs", () => {
  const table: [globs: string[], path: string, expected: boolean][] = [
    [["**/*.env"], "prod.env", true],
    [["**/*.env"], "config/prod.env", true],
    [["**/.env"], ".env", true],
    [["**/.env"], "/proj/.env", true],
    [["**/.env"], "/proj/.envrc", false],
    [["src/**"], "src/a/b.ts", true],
    [["src/**"], "/proj/src/a.ts", true],
    [["src/**"], "/proj/srcx/a.ts", false],
    [["src/**"], "/proj/lib/src-old/a.ts", false],
    [["src/**"], "src/../lib/a.ts", false],
    [["/etc/**"], "../../etc/shadow", true],
    [["/etc/**"], "/etcetera/x", false],
    [["**/*.pem"], "/elsewhere/certs/a.pem", true],
    [["/proj/secrets/**"], "secrets/key", true],
    [["/proj/secrets/**"], "/proj/secretsx/key", false],
    [["**/*.{key,pem}"], "certs/a.pem", true],
    [["**/*.{key,pem}"], "certs/a.pub", false],
    [["!**/*.md"], "docs/a.ts", true],
    [["!**/*.md"], "docs/a.md", false],
    [["!/etc/**"], "/etc/passwd", false],
  ];
  for (const [globs, path, expected] of table) {
    it(`${globs.join(",")} vs ${path} → ${expected}`, () => {
      expect(matches({ paths: globs }, { tool_name: "Write", tool_input: { file_path: path } })).toBe(expected);
    });
  }

  it("no paths in the tool input means no match", () => {
    expect(matches({ paths: ["**"] }, { tool_name: "Bash", tool_input: { command: "cat .env" } })).toBe(false);
  });

  it("globs this matcher does not run are refused at load, naming the field", () => {
    expect(compileMatcher({ paths: ["**/*.ts", "src/@(a|b)/**", "a**"] })).toEqual({
      ok: false,
      errors: [
        { field: "match.paths.1", message: expect.stringMatching(/^invalid glob "src\/@\(a\|b\)\/\*\*": extglobs/) },
        { field: "match.paths.2", message: expect.stringMatching(/whole name/) },
      ],
    });
  });

  // F9: with picomatch this glob held the event loop for minutes against a 48-character name.
  it("a hostile glob against long agent paths answers at once", () => {
    const glob = "**/*a*a*a*a*a*a*a*a*a*a*a*a*b";
    expect(matches({ paths: [glob] }, { tool_name: "Write", tool_input: { file_path: `/proj/${"a".repeat(4000)}` } })).toBe(false);
    expect(matches({ paths: [glob] }, { tool_name: "Write", tool_input: { file_path: `/proj/${"a".repeat(4000)}b` } })).toBe(true);
  });
});

describe("field regexes", () => {
  it("match strings, numbers and booleans by their text; objects and missing fields never", () => {
    expect(matches({ fields: { "tool_input.command": "^git (push|commit)" } }, { tool_input: { command: "git push -f" } })).toBe(true);
    expect(matches({ fields: { "tool_input.command": "^git (push|commit)" } }, { tool_input: { command: "git pull" } })).toBe(false);
    expect(matches({ fields: { "tool_input.timeout": "^600$" } }, { tool_input: { timeout: 600 } })).toBe(true);
    expect(matches({ fields: { stop_hook_active: "true" } }, { event_type: "Stop", stop_hook_active: true })).toBe(true);
    expect(matches({ fields: { tool_input: "." } }, { tool_input: { a: 1 } })).toBe(false);
    expect(matches({ fields: { "tool_input.missing": "." } }, { tool_input: {} })).toBe(false);
  });

  it("a hostile pattern cannot hang matching (RE2: linear time)", () => {
    const started = performance.now();
    expect(matches({ fields: { "tool_input.command": "(a+)+$" } }, { tool_input: { command: `${"a".repeat(50_000)}!` } })).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("patterns RE2 cannot run are refused with the reason", () => {
    const built = compileMatcher({ fields: { "tool_input.command": "(a)\\1" } });
    expect(built.ok).toBe(false);
    expect(JSON.stringify(built)).toMatch(/RE2/);
  });
});
