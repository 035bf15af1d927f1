import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { limitsWireSchemaOf } from "./limits.ts";
import type { Wire } from "./readonly.ts";

/** GET /v1/hooks and GET /v1/hooks/{id}: whose hook set. */
export const hooksQuerySchema = z.object({
  project: z
    .string()
    .regex(/^\//, "must be an absolute path")
    .optional()
    .describe(
      "An absolute path: the hook set of the project it is in (resolved up to its root as an event's cwd would be); default: the user's hooks only.",
    ),
});

const loadedHook = z.object({
  id: z.string(),
  summary: z.string().optional(),
  enabled: z.boolean(),
  priority: z.number(),
  events: z.array(z.string()),
  match: z.unknown().optional(),
  on_error: z.string(),
  mode: z.enum(["enforce", "monitor"]).optional().describe("monitor: shadow mode (hooks.<id>.mode in the operator file), it decides nothing."),
  cooldown_seconds: z.number(),
  background: z
    .enum(["granted", "not-granted"])
    .optional()
    .describe("Declared background: true — granted by the operator (hooks.<id>.background), or not (it then runs in the foreground)."),
  isolation: z.string(),
  permissions: z.unknown().describe("The grants the hook holds, as the operator resolved them."),
  grants: z
    .array(
      z.object({
        kind: z.string(),
        grant: z.string().describe("The grant as declared, on one line."),
        words: z.string().describe("What it lets the hook do, in plain words."),
        status: z.enum(["granted", "capped", "refused"]),
        why: z.string().optional(),
        allow: z.string().optional().describe("What would allow all of it."),
      }),
    )
    .describe("Each declared grant reviewed against the operator file."),
  untrusted: z
    .object({ project: z.string(), hint: z.string() })
    .optional()
    .describe("Present when the hook runs without any grant: its project is not trusted yet."),
  limits: limitsWireSchemaOf(LIMITS).describe("The limits the hook runs under (its own, lowered by the operator's), each in the unit its key names."),
  effects: z.unknown().optional(),
  source: z.unknown(),
});

const brokenHook = z.object({
  id: z.string(),
  broken: z.literal(true).describe("It could not load: it stays registered and fails by its on_error."),
  enabled: z.boolean(),
  priority: z.number(),
  events: z.union([z.array(z.string()), z.literal("all")]),
  on_error: z.string(),
  source: z.object({ file: z.string(), origin: z.string() }),
  problems: z.array(z.string()).describe("file:line:col: what is wrong."),
});

export const hookRegistrationSchema = z
  .union([brokenHook, loadedHook])
  .meta({ id: "HookRegistrationV1", description: "One hook as registered (the shape of `hookbox list --json`)." });

export const hooksSchema = z
  .object({
    v: z.literal(1),
    version: z.literal(1).describe("The registration format (as `hookbox list --json`)."),
    hooks: z
      .record(z.string(), z.array(hookRegistrationSchema))
      .describe("By event type, in run order; '*' holds broken hooks whose events cannot be read."),
    disabled: z.array(z.string()),
    broken: z.array(z.string()),
    operator: z.object({ state: z.enum(["ok", "last-good", "unusable"]), problems: z.array(z.string()).optional() }),
    project: z.string().nullable(),
    registry_version: z.number(),
    loaded_at: z.string(),
    problems: z.array(z.string()),
  })
  .meta({ id: "HooksV1", description: "A hook set: what runs for which event." });

export type HookRegistrationV1 = Wire<typeof hookRegistrationSchema>;
export type HooksV1 = Wire<typeof hooksSchema>;
