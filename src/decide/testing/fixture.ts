// src/decide/testing owns hook fixtures: their format, and running a hook's fixtures (`hookbox test`).
import { z } from "zod";

/**
 * One fixture: an event in, the expected outcome out. `agent` marks `event` as that agent's
 * own payload (a captured Claude Code payload, say), decoded the way `hookbox emit` would.
 * `workspace` is a directory tree created for the run (with `symlinks`); the event's cwd points at it.
 */
/** One pinned model reply: an answer (text, or JSON written as YAML), or an error the endpoint gives ("timeout" or a message). */
export const pinnedReplySchema = z.union([
  z
    .object({
      answer: z.union([z.string(), z.record(z.string(), z.unknown())]),
      tokens: z
        .object({ input: z.number().int().min(0), output: z.number().int().min(0) })
        .strict()
        .optional(),
    })
    .strict(),
  z.object({ error: z.string().min(1) }).strict(),
]);

export const fixtureSchema = z
  .object({
    name: z.string().min(1).max(300),
    event: z.record(z.string(), z.unknown()),
    agent: z.enum(["claude", "gemini", "cursor", "codex", "copilot", "qwen", "native"]).optional(),
    /** Relative path → file content; created in a fresh temporary directory (the workspace). */
    workspace: z.record(z.string().min(1), z.string()).optional(),
    /** Relative path → symbolic link target (as stored, may be relative or dangling); created in the workspace after its files. */
    symlinks: z.record(z.string().min(1), z.string().min(1)).optional(),
    /** Merged over the hook's config for this fixture. */
    config: z.record(z.string(), z.unknown()).optional(),
    /** Operator file for this fixture (e.g. approvals the hook needs). */
    operator: z.record(z.string(), z.unknown()).optional(),
    /**
     * The model's replies, in order, for hook.llm.complete and prompt hooks: an answer (text, or
     * JSON written as YAML), or an error the endpoint gives ("timeout" or a message). With llm
     * given and no llm endpoint in `operator`, the endpoints the hook names are configured for it.
     */
    llm: z.array(pinnedReplySchema).max(16).optional(),
    /** Extra environment the capability host sees (hook.env); also the machine self-protect's locations describe (HOME defaults to /home/dev). */
    env: z.record(z.string(), z.string()).optional(),
    expect: z
      .object({
        decision: z.enum(["allow", "deny", "ask"]).optional(),
        reason: z.string().optional(),
        reason_contains: z.union([z.string(), z.array(z.string())]).optional(),
        /**
         * The hook's own run: completed, denied, failed or skipped (or "none": it did not match).
         * A run that failed fails the fixture unless this says failed or error_code is given.
         */
        status: z.enum(["completed", "failed", "skipped", "denied", "none"]).optional(),
        error_code: z.string().optional(),
        context_contains: z.union([z.string(), z.array(z.string())]).optional(),
        no_context: z.boolean().optional(),
        user_message_contains: z.union([z.string(), z.array(z.string())]).optional(),
        /** Partial match against the decision's data (the modified input). */
        data: z.record(z.string(), z.unknown()).optional(),
        continue: z.boolean().optional(),
        /** Partial match against the approval request of an ask. */
        approval: z.record(z.string(), z.unknown()).optional(),
        suggested_abilities: z.array(z.string()).optional(),
        logs_contain: z.union([z.string(), z.array(z.string())]).optional(),
        /** How many model calls the hook made (0: a skip made none). */
        llm_calls: z.number().int().min(0).optional(),
      })
      .strict(),
  })
  .strict();

export type Fixture = z.output<typeof fixtureSchema>;
export type Expectation = Fixture["expect"];

/** A fixture file holds one fixture or a list of them. */
export const fixtureFileSchema = z.union([fixtureSchema, z.array(fixtureSchema).min(1)]);
