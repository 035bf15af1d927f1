import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { denial, PackageWorld } from "../helpers/packages.ts";

/**
 * `hookbox import` of the hooks a user already has: the imported hooks give the same decisions
 * as the originals on the same events, the review lists each command line as a grant, and the
 * agent's settings then run Hookbox. The originals are run here the way their agent runs them.
 */

/** `--yes --allow 'a' --allow b …` as printed in a refusal: the words a POSIX shell would make of it. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : (match[2] as string));
  return words;
}

function suggestedFlags(stderr: string): string[] {
  const line = /run again with: {2}(--yes .*)$/m.exec(stderr)?.[1];
  if (!line) throw new Error(`no suggested flags in:\n${stderr}`);
  return shellWords(line);
}

interface Verdict {
  readonly deny?: string;
  readonly context?: string;
}

const SCRIPTS: Record<string, string> = {
  "no-env.sh": `#!/bin/sh\nif grep -q '"file_path":"[^"]*\\.env"'; then echo "no .env writes, please" >&2; exit 2; fi\nexit 0\n`,
  "no-rm.sh": `#!/bin/sh\nif grep -q 'rm -rf'; then printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not for agents"}}'; fi\nexit 0\n`,
};

const SETTINGS = `{
  // my settings, comments included
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Write|Edit", "hooks": [{ "type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/no-env.sh" }] },
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "sh .claude/hooks/no-rm.sh", "timeout": 5 }] }
    ],
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "echo 'Run the tests before committing.'" }] }]
  }
}
`;

describe("import a Claude Code settings.json (the binary)", () => {
  let world: PackageWorld;
  let imported: { code: number | null; stdout: string; stderr: string };
  let review: string;
  const settings = (): string => join(world.project, ".claude", "settings.json");

  /** Claude Code's reading of the original command hooks for one event (research §1.5): exit 2 blocks with stderr, JSON decides, plain text on UserPromptSubmit is context. */
  function original(event: string, payload: Record<string, unknown>, tool?: string): Verdict {
    const config = JSON.parse(SETTINGS.replace(/^\s*\/\/.*$/m, "")) as {
      hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    };
    const verdict: { deny?: string; context?: string } = {};
    for (const group of config.hooks[event] ?? []) {
      if (group.matcher && !(tool && new RegExp(`^(${group.matcher})$`).test(tool))) continue;
      for (const hook of group.hooks) {
        const ran = spawnSync("sh", ["-c", hook.command], {
          cwd: world.project,
          input: JSON.stringify({ session_id: "s", transcript_path: "", cwd: world.project, hook_event_name: event, ...payload }),
          env: { PATH: process.env.PATH, CLAUDE_PROJECT_DIR: world.project },
          encoding: "utf8",
        });
        if (ran.status === 2) verdict.deny ??= ran.stderr.trim();
        const out = ran.stdout.trim();
        if (ran.status === 0 && out.startsWith("{")) {
          const json = JSON.parse(out) as {
            hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
          };
          if (json.hookSpecificOutput?.permissionDecision === "deny") verdict.deny ??= json.hookSpecificOutput.permissionDecisionReason;
          if (json.hookSpecificOutput?.additionalContext) verdict.context = json.hookSpecificOutput.additionalContext;
        } else if (ran.status === 0 && out !== "" && event === "UserPromptSubmit") verdict.context = out;
      }
    }
    return verdict;
  }

  async function hookbox(event: string, payload: Record<string, unknown>): Promise<Verdict> {
    const { json } = await world.claude(payload, event);
    const specific = json.hookSpecificOutput as
      { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string } | undefined;
    return {
      ...(specific?.permissionDecision === "deny" ? { deny: specific.permissionDecisionReason } : {}),
      ...(specific?.additionalContext ? { context: specific.additionalContext } : {}),
    };
  }

  beforeAll(async () => {
    world = new PackageWorld();
    mkdirSync(join(world.project, ".claude", "hooks"), { recursive: true });
    for (const [name, text] of Object.entries(SCRIPTS)) {
      writeFileSync(join(world.project, ".claude", "hooks", name), text);
      chmodSync(join(world.project, ".claude", "hooks", name), 0o755);
    }
    writeFileSync(settings(), SETTINGS);
    const refused = await world.hookbox(["import", settings()]);
    expect(refused.code, refused.stderr).toBe(1);
    review = refused.stderr;
    imported = await world.hookbox(["import", settings(), ...suggestedFlags(refused.stderr)]);
  });
  afterAll(() => world.cleanup());

  it("the review lists each command line as the grant it is, and the approvals it writes", () => {
    expect(review).toContain('granted  run sh -c "export CLAUDE_PROJECT_DIR=\\"$PWD\\"; \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/no-env.sh"');
    expect(review).toContain('granted  run sh -c "sh .claude/hooks/no-rm.sh"');
    expect(review).toContain(`granted  run sh -c "echo 'Run the tests before committing.'"`);
    expect(review.replace(/\s+/g, " ")).toContain("it can run anything with your rights");
    expect(review).toContain(`these commands run with your rights, so the operator must approve them: ${world.operatorFile} gets`);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("imported 3 hooks");
  });

  it.each([
    ["a .env write (the hook that exits 2)", "PreToolUse", { tool_name: "Write", tool_input: { file_path: "/p/.env", content: "x" } }, "Write"],
    ["rm -rf (the hook that prints a deny JSON)", "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf build" } }, "Bash"],
    ["a prompt (the hook that adds context)", "UserPromptSubmit", { prompt: "ship it" }, undefined],
    ["a harmless command", "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }, "Bash"],
    ["a harmless write", "PreToolUse", { tool_name: "Write", tool_input: { file_path: "/p/README.md", content: "x" } }, "Write"],
  ])("%s: the same decision as the original", async (_name, event, payload, tool) => {
    const expected = original(event, payload, tool);
    expect(await hookbox(event, payload)).toEqual(expected);
    if (_name.includes("exits 2")) expect(expected.deny).toBe("no .env writes, please");
  });

  it("the settings run Hookbox now, everything else (comments too) as it was; the originals are in the packages and the lock", () => {
    const text = readFileSync(settings(), "utf8");
    expect(text).toContain("// my settings, comments included");
    expect(text).toContain('"model": "opus"');
    expect(text).toContain("emit PreToolUse --agent claude");
    expect(text).not.toContain("no-env.sh");
    const lock = JSON.parse(readFileSync(join(world.userHooks, "hookbox.lock"), "utf8")) as {
      packages: Record<string, { source: string; grants: string[] }>;
    };
    expect(lock.packages["claude-pre-tool-use-2"]).toMatchObject({
      source: `import:${settings()}#hooks.PreToolUse[1].hooks[0]`,
      grants: ['run sh -c "sh .claude/hooks/no-rm.sh"', "inject_context"],
    });
    expect(readFileSync(world.operatorFile, "utf8")).toContain("sh .claude/hooks/no-rm.sh");
  });
});

describe("import the hooks template's YAML registry (the binary)", () => {
  let world: PackageWorld;
  const registry = (): string => join(world.project, ".system", "hooks");

  beforeAll(() => {
    world = new PackageWorld();
    mkdirSync(registry(), { recursive: true });
    mkdirSync(join(world.project, "scripts", "hooks"), { recursive: true });
    writeFileSync(
      join(registry(), "skill_activation_prompt.yaml"),
      "id: skill_activation_prompt\nevent_type: UserPromptSubmit\nenabled: true\nsummary: >\n  Suggest abilities for the request.\nhandler:\n  kind: script\n  command: sh ./scripts/hooks/skill.sh\neffects:\n  - suggest_abilities\n  - optionally_emit_structured_intent\n",
    );
    writeFileSync(
      join(registry(), "post_tool_use_tracker.yaml"),
      'id: post_tool_use_tracker\nevent_type: PostAbilityCall\nenabled: true\nmatch:\n  ability_scope: "*"\n  min_duration_ms: 0\nhandler:\n  kind: script\n  command: sh ./scripts/hooks/tracker.sh\neffects:\n  - append_to: .system/logs/tool_call.md\n  - update_usage_cache: .system/cache/ability_usage.json\n',
    );
    writeFileSync(
      join(world.project, "scripts", "hooks", "skill.sh"),
      `#!/bin/sh\nif grep -q regression; then printf '%s' '{"suggested_abilities":[{"id":"billing_regression","reason":"regression tests","confidence":0.9}],"messages_to_user":["You can run the billing regression workflow ability."]}'; else printf '{}'; fi\n`,
    );
    writeFileSync(
      join(world.project, "scripts", "hooks", "tracker.sh"),
      `#!/bin/sh\nmkdir -p .system/logs && cat >> .system/logs/tool_call.md && echo >> .system/logs/tool_call.md\nprintf '%s' '{"logs":[{"level":"info","message":"recorded"}],"usage_recorded":true}'\n`,
    );
  });
  afterAll(() => world.cleanup());

  function original(script: string, context: Record<string, unknown>): Record<string, unknown> {
    const ran = spawnSync("sh", [script], { cwd: world.project, input: JSON.stringify(context), encoding: "utf8" });
    return JSON.parse(ran.stdout) as Record<string, unknown>;
  }

  it("each template hook becomes a Hookbox hook with the same answers, its command line the grant", async () => {
    const refused = await world.hookbox(["import", registry()]);
    expect(refused.stderr).toContain("skill-activation-prompt (");
    expect(refused.stderr).toContain('granted  run sh -c "sh ./scripts/hooks/skill.sh"');
    // The template's match keys (ability_scope, min_duration_ms) are Hookbox's too: nothing to note.
    expect(refused.stderr).not.toContain("has no Hookbox equivalent");
    const flags = suggestedFlags(refused.stderr);
    const imported = await world.hookbox(["import", registry(), ...flags]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("imported 2 hooks");

    const prompt = { event_type: "UserPromptSubmit", session_id: "s", cwd: world.project, prompt: "I need to run the full billing regression tests" };
    const expected = original("./scripts/hooks/skill.sh", { event_type: "UserPromptSubmit", user_message: prompt.prompt });
    const out = await world.hookbox(["emit", "UserPromptSubmit", "--agent", "native", "--no-daemon"], { stdin: JSON.stringify(prompt) });
    const decision = JSON.parse(out.stdout) as {
      decision: string;
      suggested_abilities?: { id: string; hook_id: string }[];
      user_messages: { message: string }[];
    };
    expect(decision.decision).toBe("allow");
    // The template's ability objects, each with the hook that suggested it.
    expect(decision.suggested_abilities).toEqual(
      (expected.suggested_abilities as { id: string }[]).map((a) => ({ ...a, hook_id: expect.any(String) })),
    );
    expect(decision.user_messages.map((m) => m.message)).toEqual(expected.messages_to_user);

    const call = {
      event_type: "PostAbilityCall",
      session_id: "s",
      cwd: world.project,
      tool_name: "billing_regression",
      tool_input: {},
      tool_response: { status: "success" },
    };
    const tracked = await world.hookbox(["emit", "PostToolUse", "--agent", "native", "--no-daemon"], { stdin: JSON.stringify(call) });
    expect(JSON.parse(tracked.stdout)).toMatchObject({ decision: "allow", runs: [{ hook_id: "post-tool-use-tracker", status: "completed" }] });
    expect(readFileSync(join(world.project, ".system", "logs", "tool_call.md"), "utf8")).toContain('"event_type":"PostAbilityCall"');
    const yaml = readFileSync(join(world.userHooks, "post-tool-use-tracker", "hook.yaml"), "utf8");
    expect(yaml).toContain("append_to: .system/logs/tool_call.md");
  });
});

/**
 * An imported guard that cannot run is no allow (issue 27): a prompt hook with no model endpoint
 * configured, a command that times out, a command that is not there — each blocks the tool calls
 * it guards, through dist/hookbox emit; import says so about the prompt hook before it installs.
 */
describe("import keeps fail-closed semantics where a hook can block (the binary)", () => {
  let world: PackageWorld;
  let imported: { code: number | null; stdout: string; stderr: string };
  const GUARDS = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "prompt", "prompt": "Refuse destructive shell commands." }] },
      { "matcher": "Write", "hooks": [{ "type": "command", "command": "sleep 30", "timeout": 1 }] },
      { "matcher": "Edit", "hooks": [{ "type": "command", "command": "/nonexistent/edit-guard.sh" }] }
    ],
    "SessionStart": [{ "hooks": [{ "type": "command", "command": "sleep 30", "timeout": 1 }] }]
  }
}
`;

  beforeAll(async () => {
    world = new PackageWorld();
    world.writeOperator("daemon: { auto_start: false }\n");
    mkdirSync(join(world.project, ".claude"), { recursive: true });
    writeFileSync(join(world.project, ".claude", "settings.json"), GUARDS);
    const refused = await world.hookbox(["import", join(world.project, ".claude", "settings.json")]);
    imported = await world.hookbox(["import", join(world.project, ".claude", "settings.json"), ...suggestedFlags(refused.stderr)]);
    expect(imported.code, imported.stderr).toBe(0);
  }, 120_000);
  afterAll(() => world.cleanup());

  it("import warns that the prompt hook cannot run until the operator file names a model, saying what it then does", () => {
    const warning = `claude-pre-tool-use-1 (hooks.PreToolUse[0].hooks[0]) is a prompt hook: it asks the model at the operator file's llm default endpoint, and ${world.operatorFile} configures none. Until it does, the hook cannot run and every PreToolUse it matches is denied (on_error: deny). Add a local model there: llm: { endpoint: "http://127.0.0.1:8080/v1", api: openai, model: NAME }`;
    expect(imported.stderr).toContain(`warning: ${warning}`);
    expect(imported.stdout).toContain(`warning: ${warning}`);
    expect(readFileSync(join(world.userHooks, "claude-pre-tool-use-1", "hook.yaml"), "utf8")).toMatch(/^on_error: deny$/m);
    expect(readFileSync(join(world.userHooks, "claude-session-start-1", "hook.yaml"), "utf8")).toMatch(/^on_error: continue$/m);
  });

  it.each([
    ["the prompt guard, with no model endpoint", "Bash", { command: "ls" }, /claude-pre-tool-use-1/],
    ["the command guard that times out", "Write", { file_path: "/p/notes.txt", content: "x" }, /claude-pre-tool-use-2.*did not finish in 1000 ms/],
    [
      "the command guard that cannot run (exit 127)",
      "Edit",
      { file_path: "/p/notes.txt", old_string: "a", new_string: "b" },
      /claude-pre-tool-use-3.*could not run \(exit 127\)/,
    ],
  ])("%s blocks the tool call", async (_name, tool, input, reason) => {
    const { json, result } = await world.claude({ tool_name: tool, tool_input: input });
    expect(result.code, result.stderr).toBe(0);
    expect(denial(json)).toMatch(reason);
  });

  it("a hook that cannot run where nothing can be stopped lets the agent go on: SessionStart", async () => {
    const { json, result } = await world.claude({ source: "startup" }, "SessionStart");
    expect(result.code, result.stderr).toBe(0);
    expect(denial(json)).toBeUndefined();
    expect(json.decision).toBeUndefined();
  });

  it("with a model endpoint configured, import has nothing to warn about", async () => {
    const other = new PackageWorld();
    try {
      other.writeOperator('llm: { endpoint: "http://127.0.0.1:9/v1", api: openai, model: m }\n');
      const settings = join(other.project, ".claude", "settings.json");
      mkdirSync(join(other.project, ".claude"), { recursive: true });
      writeFileSync(settings, GUARDS);
      const refused = await other.hookbox(["import", settings]);
      const done = await other.hookbox(["import", settings, ...suggestedFlags(refused.stderr)]);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).not.toContain("is a prompt hook");
    } finally {
      other.cleanup();
    }
  });
});
