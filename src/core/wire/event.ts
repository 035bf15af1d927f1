import { z } from "zod";
import type { Wire } from "./readonly.ts";

/**
 * A native event, as POST /v1/events/{event_type} takes it. The server reads it with
 * src/core/events/parse.ts (the same rules for `hookbox emit --agent native`): this schema describes
 * those rules, and test/server/wire.test.ts holds the two to the same verdicts.
 */
export const nativeEventSchema = z
  .looseObject({
    event_type: z
      .string()
      .optional()
      .describe("Canonical (PreToolUse …) or a custom dotted name (task.completed); when given, must equal the URL's."),
    session_id: z.string().max(512).optional().describe('Default "unknown".'),
    timestamp: z.string().max(64).optional().describe("ISO 8601; default: when it was received."),
    cwd: z
      .string()
      .min(1)
      .max(4096)
      .regex(/^\//)
      .optional()
      .describe("Absolute: the project the hook set is resolved from (the nearest .hookbox/ or .git above it), and `${workspace}` in grants."),
    tool_name: z.string().max(512).optional().describe("Claude Code's tool names (Bash, Write, Edit …): what hooks match."),
    tool_input: z.record(z.string(), z.unknown()).optional(),
    tool_response: z.unknown().optional(),
    tool_use_id: z.string().max(512).optional(),
    prompt: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
    agent: z.string().max(64).optional().describe("Who sent it (claude, codex, my-orchestrator …)."),
    steps: z.array(z.record(z.string(), z.unknown())).optional().describe("For a hook with steps: their results, in order."),
  })
  .meta({
    id: "NativeEventV1",
    description: "An event in Hookbox's own shape; any other field is passed to hooks as it is (JSON nested at most 64 levels).",
  });

export type NativeEventV1 = Wire<typeof nativeEventSchema>;
