import { describe, expect, it } from "vitest";
import type { NativeEvent } from "../../src/core/events/types.ts";
import { PROTOCOLS, type AgentName } from "../../src/agents/protocols.ts";
import { clientReads, type Effect } from "./helpers/clients/index.ts";
import { ASK_REASON, CONTEXT, REASON, REWRITE, STOP_REASON, USER_MESSAGE, decisionOf, type DecisionKind } from "./helpers/decisions.ts";
import { hintFor, payloadById } from "./helpers/payloads.ts";

/**
 * What each agent *does* with Hookbox's answers, read through models of the real clients
 * (helpers/clients/*, transcribed from their source), for the events that matter: a tool about
 * to run, a tool that ran, a prompt, a stop, a session start, a permission prompt.
 */
type ModelledAgent = Exclude<AgentName, "native">;
type Role = "preTool" | "postTool" | "prompt" | "stop" | "sessionStart" | "permission";

const ROLES: Readonly<Record<ModelledAgent, Partial<Record<Role, string>>>> = {
  claude: {
    preTool: "claude-code/PreToolUse-1.json",
    postTool: "claude-code/PostToolUse-1.json",
    prompt: "claude-code/UserPromptSubmit-1.json",
    stop: "claude-code/Stop-1.json",
    sessionStart: "claude-code/SessionStart-1.json",
    permission: "claude-code/PermissionRequest-1.json",
  },
  gemini: {
    preTool: "gemini-cli/BeforeTool-1.json",
    postTool: "gemini-cli/AfterTool-1.json",
    prompt: "gemini-cli/BeforeAgent-1.json",
    stop: "gemini-cli/AfterAgent-1.json",
    sessionStart: "gemini-cli/SessionStart-1.json",
  },
  codex: {
    preTool: "samples/codex/research-9.4-pretooluse-bash.json",
    postTool: "samples/codex/synthetic-posttooluse.json",
    prompt: "samples/codex/synthetic-userpromptsubmit.json",
    stop: "samples/codex/synthetic-stop.json",
    sessionStart: "samples/codex/synthetic-sessionstart.json",
    permission: "samples/codex/synthetic-permissionrequest.json",
  },
  cursor: {
    preTool: "samples/cursor/synthetic-pretooluse-shell.json",
    prompt: "samples/cursor/synthetic-beforesubmitprompt.json",
    stop: "samples/cursor/synthetic-stop.json",
    sessionStart: "samples/cursor/synthetic-sessionstart.json",
  },
  copilot: {
    preTool: "samples/copilot/captured-pretooluse.json",
    postTool: "samples/copilot/captured-posttooluse.json",
    prompt: "samples/copilot/captured-userpromptsubmitted.json",
    stop: "samples/copilot/captured-agentstop.json",
    sessionStart: "samples/copilot/captured-sessionstart.json",
    permission: "samples/copilot/captured-permissionrequest.json",
  },
  qwen: {
    preTool: "samples/qwen/captured-pretooluse.json",
    postTool: "samples/qwen/captured-posttooluse.json",
    prompt: "samples/qwen/captured-userpromptsubmit.json",
    stop: "samples/qwen/captured-stop.json",
    sessionStart: "samples/qwen/captured-sessionstart.json",
  },
};

function eventFor(agent: ModelledAgent, id: string): NativeEvent {
  const item = payloadById(id);
  return PROTOCOLS[agent].decode(item.payload, hintFor(item));
}

function effectOf(agent: ModelledAgent, role: Role, kind: DecisionKind): Effect | undefined {
  const id = ROLES[agent][role];
  if (id === undefined) return undefined;
  const event = eventFor(agent, id);
  return clientReads(agent, PROTOCOLS[agent].encode(decisionOf(kind, event.event_type), event), event);
}

function rolesOf(agent: ModelledAgent): Role[] {
  return Object.keys(ROLES[agent]) as Role[];
}

const AGENTS = Object.keys(ROLES) as ModelledAgent[];

/**
 * Where an agent has no way to halt and nothing left to block: a stop in Cursor, Copilot and Qwen
 * (Qwen reads continue:false there as "go on"), a tool that already ran in Copilot, a session
 * start in Copilot and Qwen (both read only additionalContext there).
 */
const NO_HALT: Partial<Record<ModelledAgent, readonly Role[]>> = {
  cursor: ["stop"],
  copilot: ["stop", "postTool", "sessionStart"],
  qwen: ["stop", "sessionStart"],
};

describe.each(AGENTS)("what %s does with Hookbox's answers", (agent) => {
  it("takes every answer as valid: none is thrown away (which would fail open)", () => {
    for (const role of rolesOf(agent)) {
      for (const kind of [
        "allow",
        "deny",
        "deny-without-reason",
        "ask",
        "modify",
        "context",
        "halt",
        "user-message",
        "deny-with-everything",
      ] as const) {
        expect(effectOf(agent, role, kind)?.rejected, `${role} × ${kind}`).toBeUndefined();
      }
    }
  });

  it("never treats an answer as an approval: Hookbox's allow means 'no objection', not 'skip the prompt'", () => {
    for (const role of rolesOf(agent)) {
      for (const kind of ["allow", "modify", "context", "user-message"] as const)
        expect(effectOf(agent, role, kind)?.approved, `${role} × ${kind}`).toBe(false);
    }
  });

  it("does nothing special on allow", () => {
    for (const role of rolesOf(agent)) expect(effectOf(agent, role, "allow"), role).toEqual({ approved: false, halted: false });
  });

  it("blocks the tool on deny, with the reason", () => {
    expect(effectOf(agent, "preTool", "deny")?.blocked).toBe(REASON);
  });

  it("blocks the tool on deny even when the hook gave no reason", () => {
    expect(effectOf(agent, "preTool", "deny-without-reason")?.blocked).toMatch(/Blocked by Hookbox hook "guard"/);
  });

  it("keeps the agent going on a deny at stop, with the reason as its next instruction", () => {
    expect(effectOf(agent, "stop", "deny")?.blocked).toBe(REASON);
  });

  it("blocks the prompt on deny, where the agent lets a hook do that", () => {
    const effect = effectOf(agent, "prompt", "deny");
    if (effect) expect(effect.blocked).toBe(REASON);
  });

  it("denies the permission request on deny", () => {
    const effect = effectOf(agent, "permission", "deny");
    if (effect) expect(effect.blocked).toBe(REASON);
  });

  it("asks the user on ask where it can, and otherwise blocks with the question as the reason", () => {
    const effect = effectOf(agent, "preTool", "ask");
    expect(effect?.asked ?? effect?.blocked).toBe(ASK_REASON);
    if (agent === "codex") expect(effect?.blocked).toBe(ASK_REASON);
    else expect(effect?.asked).toBe(ASK_REASON);
  });

  it("runs the tool with the rewritten input on modify, or blocks it where the agent cannot apply a rewrite", () => {
    const effect = effectOf(agent, "preTool", "modify");
    if (agent === "qwen") {
      // Qwen Code 0.24.4 applies no PreToolUse rewrite: running the original input instead would drop the hook's change.
      expect(effect?.blocked).toMatch(/cannot apply a rewritten input/);
      return;
    }
    expect(effect?.rewrite).toEqual(REWRITE);
    expect(effect?.blocked).toBeUndefined();
  });

  it("gives the model the context at session start and with the prompt, where the agent has a way", () => {
    const supported: Readonly<Record<ModelledAgent, readonly Role[]>> = {
      claude: ["preTool", "postTool", "prompt", "stop", "sessionStart"],
      gemini: ["postTool", "prompt", "sessionStart"],
      codex: ["preTool", "postTool", "prompt", "sessionStart"],
      cursor: ["preTool", "sessionStart"],
      copilot: ["preTool", "postTool", "prompt", "sessionStart"],
      qwen: ["preTool", "postTool", "prompt", "sessionStart"],
    };
    for (const role of supported[agent]) expect(effectOf(agent, role, "context")?.context, role).toBe(CONTEXT);
  });

  it("halts on continue:false, or blocks the action where the agent cannot halt there", () => {
    for (const role of rolesOf(agent)) {
      const effect = effectOf(agent, role, "halt");
      if (!effect || NO_HALT[agent]?.includes(role)) continue;
      expect(effect.halted || effect.blocked === STOP_REASON, `${role}`).toBe(true);
    }
  });

  it("shows the user the hooks' messages, where the agent has a channel for them", () => {
    if (agent === "copilot") return;
    expect(effectOf(agent, "preTool", "user-message")?.userMessage).toBe(USER_MESSAGE);
  });
});

describe("Hookbox's own failure, as the agents read it", () => {
  it.each(AGENTS)("%s goes ahead when Hookbox fails open, and blocks the tool when it fails closed", (agent) => {
    const id = ROLES[agent].preTool as string;
    const event = eventFor(agent, id);
    const open = clientReads(agent, PROTOCOLS[agent].failure("the daemon did not answer", event, { block: false }), event);
    expect(open.blocked).toBeUndefined();
    expect(open.approved).toBe(false);
    const closed = clientReads(agent, PROTOCOLS[agent].failure("the daemon did not answer", event, { block: true }), event);
    expect(closed.blocked).toContain("the daemon did not answer");
  });

  it.each(AGENTS)("%s blocks even an event Hookbox could not decode when failing closed", (agent) => {
    const event = eventFor(agent, ROLES[agent].preTool as string);
    const effect = clientReads(agent, PROTOCOLS[agent].failure("stdin is not JSON", undefined, { block: true }), event);
    expect(effect.blocked).toContain("stdin is not JSON");
  });

  it.each(AGENTS)("%s is not kept going forever by a failing-closed Hookbox at stop", (agent) => {
    const event = { ...eventFor(agent, ROLES[agent].stop as string), stop_hook_active: true };
    const effect = clientReads(agent, PROTOCOLS[agent].failure("the daemon did not answer", event, { block: true }), event);
    expect(effect.blocked).toBeUndefined();
  });
});
