import { z } from "zod";
import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";
import { asObject, noEffect, type Effect } from "./effect.ts";

/**
 * Codex's reading of an answer, from openai/codex codex-rs/hooks/src: schema.rs (every output
 * wire is `deny_unknown_fields`), engine/output_parser.rs (which fields each event rejects) and
 * events/{pre_tool_use,stop}.rs (exit 2 blocks only with non-empty stderr; other exits fail).
 */
const eventName = z.enum(["PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop"]);
const universal = {
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
};
const WIRES: Readonly<Record<string, z.ZodType>> = {
  PreToolUse: z
    .object({
      ...universal,
      decision: z.enum(["approve", "block"]).optional(),
      reason: z.string().optional(),
      hookSpecificOutput: z
        .object({
          hookEventName: eventName,
          permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
          permissionDecisionReason: z.string().optional(),
          updatedInput: z.unknown().optional(),
          additionalContext: z.string().optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  PostToolUse: z
    .object({
      ...universal,
      decision: z.literal("block").optional(),
      reason: z.string().optional(),
      hookSpecificOutput: z
        .object({ hookEventName: eventName, additionalContext: z.string().optional(), updatedMCPToolOutput: z.unknown().optional() })
        .strict()
        .optional(),
    })
    .strict(),
  PermissionRequest: z
    .object({
      ...universal,
      hookSpecificOutput: z
        .object({
          hookEventName: eventName,
          decision: z
            .object({
              behavior: z.enum(["allow", "deny"]),
              updatedInput: z.unknown().optional(),
              updatedPermissions: z.unknown().optional(),
              message: z.string().optional(),
              interrupt: z.boolean().optional(),
            })
            .strict()
            .optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  SessionStart: z
    .object({
      ...universal,
      hookSpecificOutput: z.object({ hookEventName: eventName, additionalContext: z.string().optional() }).strict().optional(),
    })
    .strict(),
  UserPromptSubmit: z
    .object({
      ...universal,
      decision: z.literal("block").optional(),
      reason: z.string().optional(),
      hookSpecificOutput: z.object({ hookEventName: eventName, additionalContext: z.string().optional() }).strict().optional(),
    })
    .strict(),
  Stop: z.object({ ...universal, decision: z.literal("block").optional(), reason: z.string().optional() }).strict(),
};
/** Events without a wire of their own in the source read: the universal fields only. */
const UNIVERSAL_ONLY = z.object(universal).strict();

const blank = (text: unknown): boolean => typeof text !== "string" || text.trim() === "";

/** output_parser.rs: what makes a well-formed answer invalid for its event. */
function semanticProblem(event: string, body: Record<string, unknown>): string | undefined {
  const hso = asObject(body.hookSpecificOutput);
  if (event === "PreToolUse" || event === "PermissionRequest") {
    if (body.continue === false || body.stopReason !== undefined || body.suppressOutput === true)
      return `${event} rejects continue/stopReason/suppressOutput`;
  }
  if (
    event === "PreToolUse" &&
    hso &&
    (hso.permissionDecision !== undefined || hso.permissionDecisionReason !== undefined || hso.updatedInput !== undefined)
  ) {
    if (hso.updatedInput !== undefined && hso.permissionDecision !== "allow") return "updatedInput without permissionDecision allow";
    if (hso.permissionDecision === "allow" && hso.updatedInput === undefined) return "permissionDecision allow without updatedInput";
    if (hso.permissionDecision === "ask") return "permissionDecision ask is unsupported";
    if (hso.permissionDecision === "deny" && blank(hso.permissionDecisionReason)) return "deny without a reason";
    if (hso.permissionDecision === undefined && hso.permissionDecisionReason !== undefined) return "reason without decision";
  } else if (event === "PreToolUse") {
    if (body.decision === "approve") return "decision approve is unsupported";
    if (body.decision === "block" && blank(body.reason)) return "block without a reason";
    if (body.decision === undefined && body.reason !== undefined) return "reason without decision";
  }
  if (event === "PostToolUse" && body.suppressOutput === true) return "PostToolUse rejects suppressOutput";
  if (event === "PostToolUse" && body.decision === undefined && body.continue !== false && body.reason !== undefined)
    return "reason without decision";
  if (["PostToolUse", "UserPromptSubmit", "Stop"].includes(event) && body.decision === "block" && blank(body.reason)) return "block without a reason";
  const decision = asObject(hso?.decision);
  if (
    event === "PermissionRequest" &&
    decision &&
    (decision.updatedInput !== undefined || decision.updatedPermissions !== undefined || decision.interrupt === true)
  )
    return "PermissionRequest rejects updatedInput/updatedPermissions/interrupt";
  return undefined;
}

export function codexRejects(body: unknown, event: string): string | undefined {
  const wire = WIRES[event === "SubagentStop" ? "Stop" : event] ?? UNIVERSAL_ONLY;
  const parsed = wire.safeParse(body);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  return semanticProblem(event, body as Record<string, unknown>);
}

const BLOCKS_ON_EXIT_TWO: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"]);

export function codexReads(output: HookProcessOutput, event: string): Effect {
  const effect = noEffect();
  if (output.exitCode === 2) {
    if (output.stderr.trim() === "") return { ...effect, rejected: "exit 2 without a reason on stderr" };
    return BLOCKS_ON_EXIT_TWO.has(event) ? { ...effect, blocked: output.stderr.trim() } : { ...effect, rejected: `exit 2 on ${event}` };
  }
  if (output.exitCode !== 0) return { ...effect, rejected: `hook exited with code ${output.exitCode}` };
  if (output.stdout.trim() === "") return effect;
  const body = JSON.parse(output.stdout) as Record<string, unknown>;
  const rejected = codexRejects(body, event);
  if (rejected) return { ...effect, rejected };
  const hso = asObject(body.hookSpecificOutput) ?? {};
  if (hso.permissionDecision === "deny") effect.blocked = String(hso.permissionDecisionReason).trim();
  if (hso.permissionDecision === "allow") effect.rewrite = hso.updatedInput;
  const decision = asObject(hso.decision);
  if (decision?.behavior === "deny") effect.blocked = String(decision.message ?? "PermissionRequest hook denied approval");
  if (decision?.behavior === "allow") effect.approved = true;
  if (body.decision === "block") effect.blocked = String(body.reason).trim();
  if (typeof hso.additionalContext === "string") effect.context = hso.additionalContext;
  if (body.continue === false) effect.halted = true;
  if (typeof body.systemMessage === "string") effect.userMessage = body.systemMessage;
  return effect;
}
