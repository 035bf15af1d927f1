import { z } from "zod";
import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";
import { asObject, noEffect, type Effect } from "./effect.ts";

/**
 * Claude Code 2.1.330's hook output schema, transcribed from the shipped binary
 * (node_modules/@anthropic-ai/claude-code-linux-x64/claude, the `HC` zod schema). Stricter than
 * Claude on purpose: unknown keys fail here too. One invalid value makes Claude drop the whole
 * answer (real-clients.md §2), so every Claude answer Hookbox gives must pass.
 */
const text = z.string();
const context = { additionalContext: text.optional() };
const specific = z.discriminatedUnion("hookEventName", [
  z
    .object({
      hookEventName: z.literal("PreToolUse"),
      permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
      permissionDecisionReason: text.optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      ...context,
    })
    .strict(),
  z
    .object({
      hookEventName: z.literal("UserPromptSubmit"),
      ...context,
      sessionTitle: text.optional(),
      suppressOriginalPrompt: z.boolean().optional(),
    })
    .strict(),
  z.object({ hookEventName: z.literal("UserPromptExpansion"), ...context, suppressOriginalPrompt: z.boolean().optional() }).strict(),
  z
    .object({
      hookEventName: z.literal("SessionStart"),
      ...context,
      initialUserMessage: text.optional(),
      sessionTitle: text.optional(),
      watchPaths: z.array(text).optional(),
      reloadSkills: z.boolean().optional(),
    })
    .strict(),
  z.object({ hookEventName: z.literal("Setup"), ...context }).strict(),
  z.object({ hookEventName: z.literal("SubagentStart"), ...context }).strict(),
  z
    .object({
      hookEventName: z.literal("PostToolUse"),
      ...context,
      classifierContext: text.optional(),
      updatedToolOutput: z.unknown().optional(),
      updatedMCPToolOutput: z.unknown().optional(),
    })
    .strict(),
  z.object({ hookEventName: z.literal("PostToolUseFailure"), ...context }).strict(),
  z.object({ hookEventName: z.literal("PostToolBatch"), ...context }).strict(),
  z.object({ hookEventName: z.literal("Stop"), ...context }).strict(),
  z.object({ hookEventName: z.literal("SubagentStop"), ...context }).strict(),
  z.object({ hookEventName: z.literal("Notification"), ...context }).strict(),
  z.object({ hookEventName: z.literal("PermissionDenied"), retry: z.boolean().optional() }).strict(),
  z
    .object({
      hookEventName: z.literal("PermissionRequest"),
      decision: z.union([
        z
          .object({
            behavior: z.literal("allow"),
            updatedInput: z.record(z.string(), z.unknown()).optional(),
            updatedPermissions: z.array(z.unknown()).optional(),
          })
          .strict(),
        z.object({ behavior: z.literal("deny"), message: text.optional(), interrupt: z.boolean().optional() }).strict(),
      ]),
    })
    .strict(),
  z.object({ hookEventName: z.literal("MessageDisplay"), displayContent: text.optional() }).strict(),
  z
    .object({
      hookEventName: z.literal("PreModelSwitch"),
      permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
      permissionDecisionReason: text.optional(),
    })
    .strict(),
  z.object({ hookEventName: z.literal("PostModelSwitch"), ...context }).strict(),
  z.object({ hookEventName: z.literal("CwdChanged"), watchPaths: z.array(text).optional() }).strict(),
  z.object({ hookEventName: z.literal("FileChanged"), watchPaths: z.array(text).optional() }).strict(),
]);
export const CLAUDE_OUTPUT = z
  .object({
    continue: z.boolean().optional(),
    suppressOutput: z.boolean().optional(),
    stopReason: text.optional(),
    decision: z.enum(["approve", "block"]).optional(),
    reason: text.optional(),
    systemMessage: text.optional(),
    terminalSequence: text.optional(),
    hookSpecificOutput: specific.optional(),
  })
  .strict();

/** Why Claude Code would drop this answer, or undefined when it takes it. */
export function claudeRejects(body: unknown, eventName: string): string | undefined {
  const parsed = CLAUDE_OUTPUT.safeParse(body);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  const named = parsed.data.hookSpecificOutput?.hookEventName;
  // "Hook returned incorrect event name: expected '…' but got '…'" (2.1.330).
  if (named !== undefined && named !== eventName) return `hookSpecificOutput.hookEventName is ${named}, the event is ${eventName}`;
  return undefined;
}

/** Claude Code 2.1.330's reading of an answer (binary, and real-clients.md for exit codes). */
export function claudeReads(output: HookProcessOutput, eventName: string): Effect {
  const effect = noEffect();
  if (output.exitCode === 2) effect.blocked = output.stderr.trim();
  const stdout = output.stdout.trim();
  if (!stdout.startsWith("{")) return effect;
  const body = JSON.parse(stdout) as Record<string, unknown>;
  const rejected = claudeRejects(body, eventName);
  if (rejected) return { ...effect, rejected };
  const hso = asObject(body.hookSpecificOutput) ?? {};
  if (eventName === "PreToolUse" && hso.permissionDecision !== undefined) {
    if (hso.permissionDecision === "deny") effect.blocked = String(hso.permissionDecisionReason ?? body.reason ?? "Blocked by hook");
    if (hso.permissionDecision === "ask") effect.asked = String(hso.permissionDecisionReason ?? "");
    if (hso.permissionDecision === "allow") effect.approved = true;
  } else if (eventName === "PermissionRequest") {
    const decision = asObject(hso.decision);
    if (decision?.behavior === "deny") effect.blocked = String(decision.message ?? "Permission denied by hook");
    if (decision?.behavior === "allow") effect.approved = true;
    if (decision?.interrupt === true) effect.halted = true;
  } else if (body.decision === "block") {
    effect.blocked = String(body.reason ?? "");
  } else if (body.decision === "approve") {
    effect.approved = true;
  }
  if (hso.updatedInput !== undefined && effect.blocked === undefined) effect.rewrite = hso.updatedInput;
  if (typeof hso.additionalContext === "string") effect.context = hso.additionalContext;
  if (body.continue === false) effect.halted = true;
  if (typeof body.systemMessage === "string") effect.userMessage = body.systemMessage;
  return effect;
}
