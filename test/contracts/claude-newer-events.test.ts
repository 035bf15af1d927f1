import { describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import { INSTALLERS, planInstall } from "../../src/agents/installers.ts";
import { hookProcessOutput, PROTOCOLS } from "../../src/agents/protocols.ts";
import { claudeReads, claudeRejects } from "./helpers/clients/claude-code.ts";
import { DECISION_KINDS, decisionOf, REASON } from "./helpers/decisions.ts";
import { stdoutJson } from "./helpers/purity.ts";

/**
 * Claude Code 2.1.330's events beyond the ones Hookbox names as its own (its hook-event list,
 * read from the shipped binary), with the native name each decodes to and whether a hook's no
 * stops what the event is about.
 */
const NEWER: readonly { readonly name: string; readonly native: string; readonly blocks: boolean }[] = [
  { name: "PostToolBatch", native: "claude.post_tool_batch", blocks: true },
  { name: "UserPromptExpansion", native: "claude.user_prompt_expansion", blocks: true },
  { name: "Setup", native: "claude.setup", blocks: false },
  { name: "TaskCreated", native: "claude.task_created", blocks: true },
  { name: "TaskCompleted", native: "claude.task_completed", blocks: true },
  { name: "TeammateIdle", native: "claude.teammate_idle", blocks: true },
  { name: "StopFailure", native: "claude.stop_failure", blocks: false },
  { name: "PermissionDenied", native: "claude.permission_denied", blocks: false },
  { name: "ConfigChange", native: "claude.config_change", blocks: true },
  { name: "CwdChanged", native: "claude.cwd_changed", blocks: false },
  { name: "FileChanged", native: "claude.file_changed", blocks: false },
  { name: "InstructionsLoaded", native: "claude.instructions_loaded", blocks: false },
  { name: "DirectoryAdded", native: "claude.directory_added", blocks: false },
  { name: "WorktreeRemove", native: "claude.worktree_remove", blocks: false },
  { name: "PreModelSwitch", native: "claude.pre_model_switch", blocks: true },
  { name: "PostModelSwitch", native: "claude.post_model_switch", blocks: false },
  { name: "MessageDisplay", native: "claude.message_display", blocks: false },
];

type Json = Record<string, unknown>;

function usageError(run: () => unknown): HookboxError {
  try {
    run();
  } catch (error) {
    if (error instanceof HookboxError) return error;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("install-agent claude: Claude Code's newer events", () => {
  it("installs each one named with --events (by Claude's name or the native one), and none of them by default", () => {
    for (const { name, native } of NEWER) {
      for (const asked of [name, native]) {
        const config = JSON.parse(planInstall("claude", undefined, { events: [asked] }).text) as Json;
        const hooks = config.hooks as Record<string, { hooks: Json[] }[]>;
        expect(Object.keys(hooks), asked).toEqual([name]);
        expect(String(hooks[name]?.[0]?.hooks[0]?.command), asked).toContain(`emit ${name} --agent claude`);
      }
      expect(INSTALLERS.claude.defaultEvents).not.toContain(name);
    }
  });

  it("refuses the events whose answer is work Hookbox does not do, saying why", () => {
    for (const [name, why] of [
      ["WorktreeCreate", /must print the path it created/],
      ["Elicitation", /on the user's behalf/],
      ["ElicitationResult", /the user's own answers/],
    ] as const) {
      const error = usageError(() => planInstall("claude", undefined, { events: [name] }));
      expect(error.code).toBe("usage");
      expect(error.message).toContain(`Claude Code's ${name} is not installable`);
      expect(error.message).toMatch(why);
    }
  });
});

describe("Claude Code's newer events: decoded and answered", () => {
  const claude = PROTOCOLS.claude;
  const payload = (name: string) => ({ session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: "/home/dev/p", hook_event_name: name });

  it("decode to claude.<snake_case>, keeping Claude's own name for the answer", () => {
    for (const { name, native } of NEWER) {
      const event = claude.decode(payload(name));
      expect(event.event_type, name).toBe(native);
      expect(event.agent_event_name, name).toBe(name);
    }
  });

  it("answer only with values Claude Code 2.1.330's schema takes, for every kind of decision", () => {
    for (const { name } of NEWER) {
      const event = claude.decode(payload(name));
      for (const kind of DECISION_KINDS) {
        const output = claude.encode(decisionOf(kind, event.event_type), event);
        expect(output.exitCode, `${name} × ${kind}`).toBe(0);
        const body = stdoutJson(output);
        if (body) expect(claudeRejects(body, name), `${name} × ${kind}`).toBeUndefined();
      }
    }
  });

  it("a hook's no stops what the event is about where Claude lets it, and reaches the user where it cannot", () => {
    for (const { name, blocks } of NEWER) {
      const event = claude.decode(payload(name));
      const output = claude.encode(decisionOf("deny", event.event_type), event);
      const effect = claudeReads(hookProcessOutput(output), name);
      const body = stdoutJson(output) as Json;
      if (blocks) {
        // PreModelSwitch says it as PreToolUse does (permissionDecision deny); the others with decision "block".
        if (name === "PreModelSwitch") expect((body.hookSpecificOutput as Json).permissionDecision).toBe("deny");
        else expect(effect.blocked, name).toBe(REASON);
      } else {
        expect(body.decision, name).toBeUndefined();
        expect(String(body.systemMessage), name).toContain(REASON);
      }
    }
  });
});
