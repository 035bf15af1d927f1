import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { compileMatcher } from "../../src/hooks/registry/matcher.ts";
import { hookFileSchema } from "../../src/hooks/config/schema.ts";

/**
 * `match.if`: permission rules as hook selectors. Claude Code's documented matcher
 * (code.claude.com/docs/en/permissions; hooks `if`, per subcommand since 2.1.89) is the reference;
 * where its text leaves a spelling out, Hookbox selects (the hook runs) — the `claude` column says
 * what Claude Code's own rule does where its documentation says so, "-" where it does not.
 */
function selects(rule: string | string[], event: Partial<NativeEvent>): boolean {
  const built = compileMatcher({ if: rule });
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  return built.matcher.matches({ event_type: "PreToolUse", session_id: "s", timestamp: "t", cwd: "/proj", ...event } as NativeEvent);
}

const bash = (command: string): Partial<NativeEvent> => ({ tool_name: "Bash", tool_input: { command } });

type Row = [rule: string, command: string, hookbox: boolean, claude: boolean | "-"];

const COMMANDS: Row[] = [
  // the rule's own form
  ["Bash(git commit:*)", "git commit -m 'fix'", true, true],
  ["Bash(git commit:*)", "git commit", true, true],
  ["Bash(git commit *)", "git commit", true, true],
  ["Bash(git commit *)", "git commit --amend", true, true],
  // word boundary: not another command that starts with the same letters
  ["Bash(git commit:*)", "git commit-tree HEAD^{tree}", false, false],
  ["Bash(git commit *)", "git commit-graph write", false, false],
  ["Bash(git commit*)", "git commit-tree x", true, true],
  ["Bash(ls *)", "lsof -i", false, false],
  ["Bash(ls*)", "lsof -i", true, true],
  ["Bash(git commit:*)", "git status", false, false],
  ["Bash(git commit:*)", "echo git commit", false, false],
  ["Bash(git commit:*)", "git log --grep 'git commit'", false, false],
  // spellings of the same command: the shell runs git commit
  ["Bash(git commit:*)", "git  commit -m x", true, "-"],
  ["Bash(git commit:*)", "git\tcommit", true, "-"],
  ["Bash(git commit:*)", "command git commit", true, "-"],
  ["Bash(git commit:*)", "/usr/bin/git commit", true, "-"],
  ["Bash(git commit:*)", "./git commit", true, "-"],
  ["Bash(git commit:*)", '"git" commit', true, "-"],
  ["Bash(git commit:*)", "'git' 'commit' -m x", true, "-"],
  ["Bash(git commit:*)", "g'i't co\"mm\"it", true, "-"],
  ["Bash(git commit:*)", "git \\commit", true, "-"],
  ["Bash(git commit:*)", "FOO=bar git commit", true, true],
  ["Bash(git commit:*)", "env -i PATH=/usr/bin git commit", true, "-"],
  ["Bash(git commit:*)", "sudo -u me git commit", true, "-"],
  ["Bash(git commit:*)", "timeout 10 git commit", true, true],
  ["Bash(git commit:*)", "nohup nice -n 5 git commit", true, true],
  ["Bash(git commit:*)", "echo x | xargs git commit -m", true, true],
  ["Bash(git commit:*)", "git -C /repo commit -m x", true, "-"],
  ["Bash(git commit:*)", "git -c user.name=x commit", true, "-"],
  ["Bash(git commit:*)", "GIT commit", true, "-"],
  ["Bash(rm:*)", "\\rm -rf /", true, "-"],
  ["Bash(rm:*)", "find . -name '*.tmp' -exec rm -f {} \\;", true, "-"],
  ["Bash(rm:*)", "find . -execdir /bin/rm {} +", true, "-"],
  ["Bash(git commit:*)", "watch -n 5 git commit -m x", true, "-"],
  ["Bash(git commit:*)", "strace -f git commit", true, "-"],
  ["Bash(rm:*)", "find . -name rm", false, false],
  // compound lines: any subcommand selects (Claude Code's `if` since 2.1.89, its deny rules)
  ["Bash(git commit:*)", "git commit && rm -rf /", true, true],
  ["Bash(rm:*)", "git commit && rm -rf /", true, true],
  ["Bash(rm:*)", "ls && rm -rf /", true, true],
  ["Bash(rm:*)", "ls; rm -rf /", true, true],
  ["Bash(rm:*)", "ls || rm -rf /", true, true],
  ["Bash(rm:*)", "ls | rm -rf /", true, true],
  ["Bash(rm:*)", "ls &\nrm -rf /", true, true],
  ["Bash(rm:*)", "(cd /tmp && rm -rf x)", true, "-"],
  ["Bash(rm:*)", "if true; then rm -rf x; fi", true, "-"],
  ["Bash(rm:*)", "echo $(rm -rf x)", true, "-"],
  ["Bash(rm:*)", "echo `rm -rf x`", true, "-"],
  ["Bash(rm:*)", "bash -c 'rm -rf x'", true, "-"],
  ["Bash(rm:*)", 'sh -c "ls && rm -rf x"', true, "-"],
  ["Bash(rm:*)", "eval 'rm -rf x'", true, "-"],
  ["Bash(rm:*)", "cat <<EOF | bash\nrm -rf x\nEOF", true, "-"],
  ["Bash(rm:*)", "echo 'rm -rf x'", false, false],
  ["Bash(rm:*)", "ls -la", false, false],
  // what only the running shell knows selects
  ["Bash(git commit:*)", "$GIT commit", true, "-"],
  ["Bash(git commit:*)", "g=git; $g commit", true, "-"],
  ["Bash(git commit:*)", "git $SUB -m x", true, "-"],
  ["Bash(git commit:*)", 'bash -c "$SCRIPT"', true, "-"],
  ["Bash(git commit:*)", 'eval "$X"', true, "-"],
  ["Bash(git commit:*)", "g* commit", true, "-"],
  ["Bash(git commit:*)", "ls $DIR", false, false],
  // exact rules and wildcards elsewhere
  ["Bash(npm run build)", "npm run build", true, true],
  ["Bash(npm run build)", "npm run build --watch", false, false],
  ["Bash(npm run build)", "npm run build > out.txt", true, true],
  ["Bash(npm run build)", "ls && npm run build", true, true],
  ["Bash(git * main)", "git push origin main", true, true],
  ["Bash(git * main)", "git push origin mainline", false, false],
  ["Bash(* install)", "npm install", true, true],
  ["Bash(*)", "anything at all", true, true],
  ["Bash", "anything at all", true, true],
];

describe("match.if: Bash rules — a truth table with near misses", () => {
  it.each(COMMANDS)("%s against %j → %s", (rule, command, expected) => {
    expect(selects(rule, bash(command))).toBe(expected);
  });

  it("never disagrees with Claude Code where its documentation says what its rule does, except toward the hook running", () => {
    for (const [rule, command, hookbox, claude] of COMMANDS)
      if (claude !== "-" && claude !== hookbox) expect([rule, command, hookbox]).toEqual([rule, command, true]);
  });

  it("the rule names its tool: a Bash rule does not select other tools, a list selects on any", () => {
    expect(selects("Bash(rm:*)", { tool_name: "Write", tool_input: { file_path: "/proj/rm", content: "rm -rf /" } })).toBe(false);
    expect(selects(["Bash(git push:*)", "Bash(git commit:*)"], bash("git commit"))).toBe(true);
    expect(selects(["Bash(git push:*)", "Edit(src/**)"], bash("git commit"))).toBe(false);
  });

  it("every agent's dialect: the events' tool names are Claude's, and rules may be written in the agent's own names", () => {
    // Decoders map run_shell_command (Gemini, Qwen), Shell (Cursor), bash (Copilot) to Bash; tool_input keeps the agent's shape.
    for (const agent_tool_name of ["run_shell_command", "Shell", "bash"])
      expect(selects("Bash(rm:*)", { tool_name: "Bash", agent_tool_name, tool_input: { command: "ls && rm -rf /" } })).toBe(true);
    expect(selects("run_shell_command(rm:*)", bash("ls && rm -rf /"))).toBe(true);
    expect(selects("Shell(rm:*)", bash("rm x"))).toBe(true);
    expect(selects("write_file(src/**)", { tool_name: "Write", tool_input: { file_path: "/proj/src/a.ts" } })).toBe(true);
    expect(selects("view(~/.ssh/**)", { tool_name: "Read", tool_input: { path: "/home/me/.ssh/id_rsa" } })).toBe(true);
    // Codex sends its shell command as argv.
    expect(selects("Bash(git commit:*)", { tool_name: "Bash", tool_input: { command: ["git", "commit", "-m", "x"] } })).toBe(true);
    expect(selects("Bash(git commit:*)", { tool_name: "Bash", tool_input: { command: ["bash", "-lc", "ls && git commit"] } })).toBe(true);
  });

  it("ignored on events that are not tool calls (as the tool matcher is); a tool event without a command is not a command", () => {
    expect(selects("Bash(rm:*)", { event_type: "Stop" })).toBe(true);
    expect(selects("Bash(rm:*)", { event_type: "PostToolUse", ...bash("rm x") })).toBe(true);
    expect(selects("Bash(rm:*)", { event_type: "PermissionRequest", ...bash("ls") })).toBe(false);
    expect(selects("Bash(rm:*)", { tool_name: "Bash", tool_input: {} })).toBe(false);
  });
});

type PathRow = [rule: string, tool: string, input: Record<string, unknown>, expected: boolean];

const PATHS: PathRow[] = [
  // project-relative and here-relative (the event's cwd is /proj)
  ["Edit(src/**)", "Edit", { file_path: "/proj/src/a.ts" }, true],
  ["Edit(src/**)", "Write", { file_path: "/proj/src/deep/a.ts" }, true],
  ["Edit(src/**)", "MultiEdit", { file_path: "src/a.ts" }, true],
  ["Edit(src/**)", "NotebookEdit", { notebook_path: "/proj/src/n.ipynb" }, true],
  ["Edit(src/**)", "Edit", { file_path: "/proj/srcx/a.ts" }, false],
  ["Edit(src/**)", "Edit", { file_path: "/proj/lib/src/a.ts" }, false],
  ["Edit(src/**)", "Edit", { file_path: "/proj/src/../lib/a.ts" }, false],
  ["Edit(src/**)", "Edit", { file_path: "/proj/lib/../src/a.ts" }, true],
  ["Edit(src/**)", "Read", { file_path: "/proj/src/a.ts" }, false],
  ["Edit(/src/**/*.ts)", "Edit", { file_path: "/proj/src/x/a.ts" }, true],
  ["Edit(/src/**/*.ts)", "Edit", { file_path: "/proj/src/x/a.js" }, false],
  ["Edit(./docs/*)", "Write", { file_path: "/proj/docs/a.md" }, true],
  ["Edit(./docs/*)", "Write", { file_path: "/proj/docs/a/b.md" }, false],
  // a name with no slash: any depth, outside the project too
  ["Read(*.env)", "Read", { file_path: "/proj/.env" }, true],
  ["Read(*.env)", "Read", { file_path: "/proj/a/b/prod.env" }, true],
  ["Read(*.env)", "Read", { file_path: "/proj/a.envx" }, false],
  ["Read(.env)", "Read", { file_path: "/proj/deep/.env" }, true],
  ["Read(*.pem)", "Read", { file_path: "/etc/ssl/x.pem" }, true],
  ["Read(*.pem)", "Read", { file_path: "/etc/ssl/x.pem.txt" }, false],
  // from the root, and from home
  ["Read(//etc/**)", "Read", { file_path: "/etc/passwd" }, true],
  ["Read(//etc/**)", "Read", { file_path: "/etcx/passwd" }, false],
  ["Read(//etc/**)", "Read", { file_path: "/proj/etc/passwd" }, false],
  ["Read(~/.ssh/**)", "Read", { file_path: "/home/me/.ssh/id_rsa" }, true],
  ["Read(~/.ssh/**)", "Read", { file_path: "/Users/me/.ssh/id_rsa" }, true],
  ["Read(~/.ssh/**)", "Read", { file_path: "/root/.ssh/id_rsa" }, true],
  ["Read(~/.ssh/**)", "Read", { file_path: "~/.ssh/id_rsa" }, true],
  ["Read(~/.ssh/**)", "Read", { file_path: "/home/me/proj/../.ssh/config" }, true],
  ["Read(~/.ssh/**)", "Read", { file_path: "/home/me/.sshx/id_rsa" }, false],
  ["Read(~/.ssh/**)", "Read", { file_path: "/proj/.ssh/id_rsa" }, false],
  // Read rules cover the tools that read; a search is selected when its directory may hold a match
  ["Read(~/.ssh/**)", "Grep", { pattern: "BEGIN", path: "/home/me" }, true],
  ["Read(~/.ssh/**)", "Glob", { pattern: "*", path: "/home" }, true],
  ["Read(~/.ssh/**)", "Grep", { pattern: "BEGIN", path: "/home/me/proj" }, false],
  ["Read(~/.ssh/**)", "LS", { path: "/" }, true],
  ["Read(//etc/**)", "Grep", { pattern: "root" }, false],
  ["Read(src/**)", "Grep", { pattern: "x" }, true],
  // an edit that names no path is selected
  ["Edit(src/**)", "Edit", {}, true],
];

describe("match.if: Read and Edit rules (gitignore-style paths)", () => {
  it.each(PATHS)("%s on %s %j → %s", (rule, tool_name, tool_input, expected) => {
    expect(selects(rule, { tool_name, tool_input })).toBe(expected);
  });

  it("a symbolic link's real target is matched too (link_targets, added by the host)", () => {
    const event = { tool_name: "Read", tool_input: { file_path: "/proj/key" }, link_targets: { "/proj/key": "/home/me/.ssh/id_rsa" } };
    expect(selects("Read(~/.ssh/**)", event)).toBe(true);
  });
});

describe("match.if: MCP, WebFetch and Agent rules", () => {
  const TABLE: [rule: string, event: Partial<NativeEvent>, expected: boolean][] = [
    ["mcp__github__*", { tool_name: "mcp__github__create_issue" }, true],
    ["mcp__github__*", { tool_name: "mcp__githubx__create_issue" }, false],
    ["mcp__github", { tool_name: "mcp__github__create_issue" }, true],
    ["mcp__github", { tool_name: "mcp__githubx__create_issue" }, false],
    ["mcp__github__create_issue", { tool_name: "mcp__github__create_issue" }, true],
    ["mcp__github__create_issue", { tool_name: "mcp__github__create_issue_comment" }, false],
    ["mcp__*__write*", { tool_name: "mcp__fs__write_file" }, true],
    // Cursor's beforeMCPExecution names no server: any MCP rule may be about it.
    ["mcp__github__*", { tool_name: "create_issue", agent: "cursor", agent_event_name: "beforeMCPExecution" }, true],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "https://example.com/x" } }, true],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "https://API.Example.com./x" } }, true],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "https://example.com.evil.net/x" } }, false],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "https://notexample.com/" } }, false],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "https://evil.net/?example.com" } }, false],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "https://user@example.com:8443/" } }, true],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: { url: "not a url" } }, true],
    ["WebFetch(domain:example.com)", { tool_name: "WebFetch", tool_input: {} }, true],
    ["Agent(Explore)", { tool_name: "Agent", tool_input: { subagent_type: "Explore" } }, true],
    ["Agent(Explore)", { tool_name: "Task", tool_input: { subagent_type: "Explore" } }, true],
    ["Agent(Explore)", { tool_name: "Agent", tool_input: { subagent_type: "Plan" } }, false],
  ];
  it.each(TABLE)("%s on %j → %s", (rule, event, expected) => {
    expect(selects(rule, event)).toBe(expected);
  });
});

describe("match.if: errors at load, naming the rule and the fix", () => {
  const errorOf = (rule: string): string => {
    const built = compileMatcher({ if: [rule] });
    return built.ok ? "" : (built.errors[0]?.message ?? "");
  };
  it.each([
    ["Bash(git", "not a permission rule"],
    ["WebFetch(example.com)", "WebFetch takes domain:HOST"],
    ["WebSearch(cats)", "give the tool name alone"],
    ["mcp__github__x(y)", "without (…)"],
    ["Ba*sh", "only MCP rules may use *"],
    ["Edit(src/[a)", "invalid path pattern"],
  ])("%s → %s", (rule, message) => {
    expect(errorOf(rule)).toContain(message);
  });

  it("a rule written in match.tool is refused with the key that takes it", () => {
    const parsed = hookFileSchema.safeParse({ id: "x", events: ["PreToolUse"], handler: "./h.ts", match: { tool: "Bash(git commit:*)" } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain("write it as match.if");
  });

  it("a hostile command line costs bounded time and selects when the reading runs out", () => {
    const long = "ls; ".repeat(30_000);
    const started = Date.now();
    expect(selects("Bash(rm:*)", bash(long))).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("docs/matching.md", () => {
  it("every hook it shows is a valid hook file", () => {
    const page = readFileSync(new URL("../../docs/matching.md", import.meta.url), "utf8");
    const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const parsed = hookFileSchema.safeParse(parse(block));
      expect(parsed.success, `${block}\n${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      if (parsed.success) expect(compileMatcher(parsed.data.match).ok).toBe(true);
    }
  });
});
