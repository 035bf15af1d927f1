import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compileHandler } from "../../sandbox/index.ts";
import { guestModuleSources } from "../../src/hooks/builtin/index.ts";
import { addApprovals } from "../../src/hooks/packages/import/approvals.ts";
import { readAgentImport, type ImportAgent, type Json } from "../../src/agents/importers.ts";
import { IMPORTED_HANDLER } from "../../src/hooks/packages/import/handler-source.ts";
import { checkedRules, importedPackage } from "../../src/hooks/packages/import/index.ts";
import { importTemplate } from "../../src/hooks/packages/import/template.ts";
import { hookFileSchema } from "../../src/hooks/config/schema.ts";

/** The hook settings of `agent` read as `hookbox import` reads a file there (its settings file, or a plugin's hooks.json). */
function importAs(root: Json, agent: ImportAgent, options: { readonly pluginRoot?: string } = {}) {
  return readAgentImport(agent, root, "/p/settings.json", options.pluginRoot);
}

function importCursor(root: Json, dir: string) {
  return readAgentImport("cursor", root, `${dir}/hooks.json`, undefined);
}

/** What each agent's hook file becomes: one hook per command, its command line the run grant, matchers keeping their meaning. */
describe("import: reading the agents' hook files", () => {
  it("Claude Code: command hooks imported, Hookbox's own and http hooks left where they are", () => {
    const plan = importAs(
      {
        model: "opus",
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "guard.sh", timeout: 5 },
                { type: "command", command: "/usr/local/bin/hookbox emit PreToolUse --agent claude" },
              ],
            },
            { hooks: [{ type: "http", url: "http://x" }] },
          ],
          SessionStart: [{ matcher: "startup|resume", hooks: [{ type: "command", command: "echo hi" }] }],
          MessageDisplay: [{ hooks: [{ type: "command", command: "x" }] }],
        },
      },
      "claude",
      {},
    );
    expect(plan.hooks.map((h) => [h.id, h.event, h.run, h.timeoutMs, h.match])).toEqual([
      ["claude-pre-tool-use-1", "PreToolUse", { cmd: "sh", args: ["-c", "guard.sh"] }, 5000, { tool: "Bash" }],
      ["claude-session-start-1", "SessionStart", { cmd: "sh", args: ["-c", "echo hi"] }, 60_000, { fields: { source: "^(startup|resume)$" } }],
    ]);
    expect(plan.warnings).toEqual([
      "hooks.PreToolUse[1].hooks[0]: a http hook is not a command: left as it is",
      "hooks.MessageDisplay[0].hooks[0]: Hookbox has no event for MessageDisplay: left as it is",
    ]);
    expect(plan.remaining).toEqual({
      model: "opus",
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "/usr/local/bin/hookbox emit PreToolUse --agent claude" }] },
          { hooks: [{ type: "http", url: "http://x" }] },
        ],
        MessageDisplay: [{ hooks: [{ type: "command", command: "x" }] }],
      },
    });
  });

  it("a hook that cannot run fails closed where it can block (tool calls, prompts) and lets the agent go on elsewhere", () => {
    const hooks = Object.fromEntries(
      ["PreToolUse", "PermissionRequest", "UserPromptSubmit", "PostToolUse", "Stop", "SessionStart", "PreCompact"].map((event) => [
        event,
        [
          {
            hooks: [
              { type: "command", command: "x" },
              { type: "prompt", prompt: "p" },
            ],
          },
        ],
      ]),
    );
    const plan = importAs({ hooks }, "claude", {});
    expect(Object.fromEntries(plan.hooks.map((h) => [`${h.event} ${h.run ? "command" : "prompt"}`, h.onError]))).toEqual({
      "PreToolUse command": "deny",
      "PreToolUse prompt": "deny",
      "PermissionRequest command": "deny",
      "PermissionRequest prompt": "deny",
      "UserPromptSubmit command": "deny",
      "UserPromptSubmit prompt": "deny",
      "PostToolUse command": "continue",
      "PostToolUse prompt": "continue",
      "Stop command": "continue",
      "Stop prompt": "continue",
      "SessionStart command": "continue",
      "SessionStart prompt": "continue",
      "PreCompact command": "continue",
      "PreCompact prompt": "continue",
    });
    const cursor = importCursor(
      { version: 1, hooks: { beforeShellExecution: [{ command: "g" }], afterFileEdit: [{ command: "f" }, { command: "h", failClosed: true }] } },
      "/p/.cursor",
    );
    expect(cursor.hooks.map((h) => [h.agentEvent, h.onError])).toEqual([
      ["beforeShellExecution", "deny"],
      ["afterFileEdit", "continue"],
      ["afterFileEdit", "deny"],
    ]);
  });

  it("a plugin's root and the project variable are written into the grant, never left to the agent's environment", () => {
    const plan = importAs(
      { hooks: { Stop: [{ hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/stop.sh $CLAUDE_PROJECT_DIR" }] }] } },
      "claude",
      { pluginRoot: "/plugins/p" },
    );
    expect(plan.hooks[0]?.run?.args[1]).toBe('export CLAUDE_PROJECT_DIR="$PWD"; /plugins/p/stop.sh $CLAUDE_PROJECT_DIR');
  });

  it("Claude Code prompt hooks become Hookbox prompt hooks: $ARGUMENTS is the event, the answer {ok, reason}, the operator's default model", () => {
    const plan = importAs(
      {
        hooks: {
          Stop: [
            { hooks: [{ type: "prompt", prompt: "Is the task in $ARGUMENTS finished? Check the tests ran.", timeout: 20, model: "claude-haiku" }] },
          ],
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "prompt", prompt: "Refuse destructive commands." }] },
            { hooks: [{ type: "agent", prompt: "x" }] },
          ],
        },
      },
      "claude",
      {},
    );
    expect(plan.hooks.map((h) => [h.id, h.event, h.run, h.prompt, h.timeoutMs, h.match])).toEqual([
      ["claude-stop-1", "Stop", undefined, "Is the task in {{event}} finished? Check the tests ran.", 20_000, {}],
      ["claude-pre-tool-use-1", "PreToolUse", undefined, "Refuse destructive commands.\n\n{{event}}", 30_000, { tool: "Bash" }],
    ]);
    expect(plan.warnings).toEqual([
      "hooks.Stop[0].hooks[0]: model claude-haiku is the agent's; here the prompt goes to hookbox.yaml's llm default endpoint",
      expect.stringMatching(/^hooks\.PreToolUse\[1\]\.hooks\[0\]: a hook of type "agent" is not imported: .*outside any sandbox.*left as it is$/),
    ]);
    const tree = importedPackage(plan.hooks[0]!, "/p/.claude/settings.json");
    expect([...tree.keys()]).toEqual(["hook.yaml"]);
    const yaml = parse(new TextDecoder().decode(tree.get("hook.yaml"))) as Record<string, unknown>;
    expect(yaml).toMatchObject({
      id: "claude-stop-1",
      events: ["Stop"],
      prompt: "Is the task in {{event}} finished? Check the tests ran.",
      answer: { format: "ok" },
      permissions: { llm: ["default"] },
      limits: { timeout_ms: 20_000 },
      on_error: "continue",
    });
    expect(hookFileSchema.safeParse(yaml).success).toBe(true);
  });

  it("Gemini CLI: its event names, millisecond timeouts, regex matchers over its own tool names", () => {
    const plan = importAs(
      { hooks: { BeforeTool: [{ matcher: "write_file|replace", hooks: [{ type: "command", command: "check", timeout: 1500 }] }] } },
      "gemini",
      {},
    );
    expect(plan.hooks[0]).toMatchObject({
      id: "gemini-before-tool-1",
      event: "PreToolUse",
      agentEvent: "BeforeTool",
      timeoutMs: 1500,
      match: { fields: { agent_tool_name: "write_file|replace" } },
    });
  });

  it("Cursor: flat entries, run from the hooks.json folder, each kept to its own Cursor event", () => {
    const plan = importCursor(
      { version: 1, hooks: { beforeShellExecution: [{ command: "./hooks/guard.sh", failClosed: true }], afterAgentThought: [{ command: "x" }] } },
      "/p/.cursor",
    );
    expect(plan.hooks[0]).toMatchObject({
      id: "cursor-before-shell-execution-1",
      event: "PreToolUse",
      onError: "deny",
      run: { cmd: "sh", args: ["-c", "cd '/p/.cursor' && ./hooks/guard.sh"] },
      match: { fields: { agent_event_name: "^beforeShellExecution$" } },
    });
    expect(plan.warnings).toEqual(["hooks.afterAgentThought[0]: Hookbox has no event for Cursor's afterAgentThought: left as it is"]);
  });

  it("the hooks template: snake_case ids, event aliases, effects as mappings, blocking hooks fail closed, unknown match keys reported", () => {
    const plan = importTemplate([
      {
        file: "a.yaml",
        value: {
          id: "post_tool_use_tracker",
          event_type: "PostAbilityCall",
          match: { ability_scope: "*", min_duration_ms: 0, operation_key: "billing" },
          handler: { kind: "script", command: "./t.sh" },
          effects: [{ append_to: "log.md" }, "summarize"],
          blocking: true,
        },
      },
      { file: "b.yaml", value: { id: "x", event_type: "Nope", handler: { kind: "script", command: "y" } } },
      { file: "c.yaml", value: { id: "z", event_type: "Stop", handler: { kind: "python", module: "m" } } },
    ]);
    expect(plan.hooks).toEqual([
      expect.objectContaining({
        id: "post-tool-use-tracker",
        event: "PostToolUse",
        onError: "deny",
        effects: ["append_to: log.md", "summarize"],
        match: {},
      }),
    ]);
    expect(plan.warnings.join("\n")).toMatch(
      /a\.yaml: match\.operation_key has no Hookbox equivalent[\s\S]*b\.yaml: unknown event[\s\S]*c\.yaml: needs id, event_type and handler/,
    );
  });

  it("the template's match keys and Claude Code's `if` become the same match keys here", () => {
    const template = importTemplate([
      {
        file: "a.yaml",
        value: {
          id: "t",
          event_type: "SessionStop",
          match: { ability_scope: "billing.*", min_duration_ms: 100, only_if_changed_paths: ["services/**"] },
          handler: { kind: "script", command: "./t.sh" },
        },
      },
    ]);
    expect(template.warnings).toEqual([]);
    expect(template.hooks[0]).toMatchObject({
      event: "SessionStop",
      match: { ability_scope: "billing.*", min_duration_ms: 100, only_if_changed_paths: ["services/**"] },
    });
    const claude = checkedRules(
      importAs(
        {
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  { type: "command", command: "./no-push.sh", if: "Bash(git push *)" },
                  { type: "command", command: "./odd.sh", if: "WebSearch(cats)" },
                ],
              },
            ],
          },
        },
        "claude",
      ),
    );
    expect(claude.hooks.map((hook) => hook.match)).toEqual([{ tool: "Bash", if: "Bash(git push *)" }, { tool: "Bash" }]);
    expect(claude.warnings.join("\n")).toContain('if "WebSearch(cats)" is not a rule Hookbox reads');
  });
});

describe("import: the generated package", () => {
  it("the handler compiles in the sandbox, and hook.yaml's one run grant is the command, config matching it", async () => {
    const compiled = await compileHandler(IMPORTED_HANDLER, "handler.ts", guestModuleSources);
    expect(compiled.ok).toBe(true);
    const [hook] = importAs({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo 'a b'" }] }] } }, "claude", {}).hooks;
    const yaml = new TextDecoder().decode(importedPackage(hook as NonNullable<typeof hook>, "/s.json").get("hook.yaml"));
    expect(yaml).toContain("# Imported by `hookbox import` from /s.json (hooks.PreToolUse[0].hooks[0]).");
    expect(yaml).toMatch(/permissions:\n  run:\n    - cmd: sh\n      args:\n        - -c\n        - echo 'a b'\n  inject_context: true/);
    expect(yaml).toMatch(/config:\n  dialect: claude\n  event: PreToolUse\n  cmd: sh\n  args:\n    - -c\n    - echo 'a b'\n  timeout_ms: 60000/);
  });

  it("approvals are added to the operator file keeping what is there, once", () => {
    const before = "# mine\nbuiltin: [guard-secrets]\nhooks:\n  lint: { priority: 5 }\n";
    const approval = { hookId: "claude-stop-1", cmd: "sh", args: ["-c", "make"] };
    const after = addApprovals(before, [approval]);
    expect(after).toContain("# mine\nbuiltin: [guard-secrets]");
    expect((parse(after) as { hooks: { lint: unknown } }).hooks.lint).toEqual({ priority: 5 });
    expect(after).toMatch(/claude-stop-1:\n {4}permissions:\n {6}run:\n {8}- cmd: sh\n {10}args:\n {12}- -c\n {12}- make/);
    expect(addApprovals(after, [approval])).toBe(after);
  });
});

describe("import of hook types with no sandboxed equivalent", () => {
  it("leaves agent and mcp_tool hooks where they are, saying why each is not imported", () => {
    const plan = importAs(
      {
        hooks: {
          Stop: [{ hooks: [{ type: "agent", prompt: "Verify the tests pass. $ARGUMENTS" }] }],
          PostToolUse: [{ matcher: "Write", hooks: [{ type: "mcp_tool", server: "lint", tool: "check", input: {} }] }],
        },
      },
      "claude",
    );
    expect(plan.hooks).toEqual([]);
    expect(plan.warnings).toEqual([
      expect.stringMatching(
        /^hooks\.Stop\[0\]\.hooks\[0\]: a hook of type "agent" is not imported: it starts a subagent that uses the agent's own tools .*outside any sandbox.*left as it is$/,
      ),
      expect.stringMatching(
        /^hooks\.PostToolUse\[0\]\.hooks\[0\]: a hook of type "mcp_tool" is not imported: it calls a tool on one of the agent's MCP servers.*left as it is$/,
      ),
    ]);
    expect(plan.remaining).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: "agent", prompt: "Verify the tests pass. $ARGUMENTS" }] }],
        PostToolUse: [{ matcher: "Write", hooks: [{ type: "mcp_tool", server: "lint", tool: "check", input: {} }] }],
      },
    });
  });
});
